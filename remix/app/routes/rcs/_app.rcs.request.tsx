/**
 * /rcs/request: ask for an RCS agent (spec section 2) — the brand Google shows on the handset
 * (name, description, logo, banner, color) and its contacts (phone, website, e-mail, privacy and
 * terms pages). requestAgent holds every rule; a refusal is shown next to its field, translated.
 * The new agent opens (/rcs/agents/{id}) with its status. Plain form: works without JavaScript.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useActionData, useNavigation } from "@remix-run/react";
import { agentRequestSchema } from "~api/rcs/agent-schema";
import { requestAgent } from "~api/rcs/agents";
import { AgentForm } from "~/components/rcs-agents/agent-form";
import { PageHeader } from "~/components/shell/page-header";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { requireRoute } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { useTranslation } from "~/lib/react-i18n";
import { redirectWithToast } from "~/lib/toast.server";

export const handle = { crumb: "rcs:agents.request.title" };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRoute(request);
  return json({});
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  return handleForm(request, agentRequestSchema, async (input) => {
    const { data } = await requestAgent(ctx, input);
    return redirectWithToast(request, `/rcs/agents/${data.id}`, { type: "success", title: "rcs:agents.request.created", params: { name: data.name } });
  });
}

export default function RcsRequest() {
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation("rcs");
  return (
    <div className="space-y-6">
      <PageHeader
        description={t("agents.request.description")}
        actions={
          <Link to="/rcs/agents" className="text-sm underline">
            {t("agents.request.seeAgents")}
          </Link>
        }
      />
      <Card>
        <CardHeader>
          <CardTitle>
            <h2>{t("agents.request.formTitle")}</h2>
          </CardTitle>
          <CardDescription>{t("agents.request.intro")}</CardDescription>
        </CardHeader>
        <CardContent>
          <AgentForm id="rcs-agent-request" intent="request" lastResult={last?.result} busy={busy} submit={t("agents.request.submit")} />
        </CardContent>
      </Card>
    </div>
  );
}
