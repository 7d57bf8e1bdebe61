/** /rcs/templates/new: a new RCS template (name and content; components/rcs-agents/template-editor.tsx), optionally in a group. Works without JavaScript. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { templateFormSchema } from "~api/rcs/template-form";
import { createTemplate, listGroups } from "~api/rcs/templates";
import { TemplateEditor } from "~/components/rcs-agents/template-editor";
import { PageHeader } from "~/components/shell/page-header";
import { Card, CardContent } from "~/components/ui/card";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { useTranslation } from "~/lib/react-i18n";
import { redirectWithToast } from "~/lib/toast.server";

export const handle = { crumb: "rcs:templates.new.title" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const groups = await orHttpError(listGroups(ctx));
  const group = new URL(request.url).searchParams.get("group") ?? "";
  return json({ groups: groups.data.map((g) => ({ id: g.id, name: g.name })), group });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  return handleForm(request, templateFormSchema, async ({ name, content, group_id }) => {
    const { data } = await createTemplate(ctx, { name, content, group_id });
    return redirectWithToast(request, `/rcs/templates/edit?id=${data.id}`, { type: "success", title: "rcs:templates.new.created", params: { name: data.name } });
  });
}

export default function RcsTemplateNew() {
  const { groups, group } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation("rcs");
  return (
    <div className="space-y-6">
      <PageHeader description={t("templates.new.description")} />
      <Card>
        <CardContent className="pt-6">
          <TemplateEditor values={{ type: "text", group_id: group }} lastResult={last?.result} busy={busy} submit={t("templates.new.submit")} groups={groups} />
        </CardContent>
      </Card>
    </div>
  );
}
