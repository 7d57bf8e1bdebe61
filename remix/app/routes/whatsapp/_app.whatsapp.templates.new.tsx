/**
 * /whatsapp/templates/new: create a WhatsApp template and submit it to Meta (it is pending until
 * Meta decides). Meta's rules are checked by the use-case (api/whatsapp/templates.ts) with the
 * same schema the browser uses, every refusal next to its field; success goes back to the list
 * with a toast (or here again for a role that may create templates but not list them).
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { can } from "~api/policy/policy";
import { createWhatsappTemplate } from "~api/whatsapp/templates";
import { PageHeader } from "~/components/shell/page-header";
import { Card, CardContent } from "~/components/ui/card";
import { TemplateForm } from "~/components/whatsapp/template-form";
import { formFieldErrors, templateFormSchema, templateInput } from "~/components/whatsapp/template-form-schema";
import { requireRoute } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { redirectWithToast } from "~/lib/toast.server";
import { allNumbers, renameFields } from "~/lib/whatsapp.server";

export const handle = { crumb: "whatsapp:crumbs.newTemplate" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const numbers = await allNumbers(ctx);
  return json({
    numbers: numbers.map((n) => ({ id: n.id, label: `${n.display_phone_number || n.phone_number_id} — ${n.verified_name}` })),
    canConnect: can(ctx.actor, "/whatsapp/jv/numbers/new") && can(ctx.actor, "/whatsapp"),
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  return handleForm(request, templateFormSchema, async (form) => {
    const { input, slots } = templateInput(form);
    const { data } = await createWhatsappTemplate(ctx, input).catch((e) => {
      throw renameFields(e, (fields) => formFieldErrors(fields, slots));
    });
    const to = can(ctx.actor, "/whatsapp/templates") ? "/whatsapp/templates" : "/whatsapp/templates/new";
    return redirectWithToast(request, to, { type: "success", title: "whatsapp:templateForm.created", params: { name: data.name } });
  });
}

export default function WhatsappTemplateNew() {
  const { numbers, canConnect } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation("whatsapp");
  return (
    <div className="space-y-6">
      <PageHeader description={t("templateForm.description")} />
      <Card className="max-w-3xl">
        <CardContent>
          {numbers.length === 0 ? (
            <p className="mb-4 rounded-md border bg-muted/40 p-3 text-sm" data-testid="no-numbers">
              {t("templateForm.noNumbers")}{" "}
              {canConnect ? (
                <Link to="/whatsapp" className="font-medium text-primary hover:underline">
                  {t("templateForm.connectFirst")}
                </Link>
              ) : null}
            </p>
          ) : null}
          <TemplateForm numbers={numbers} lastResult={last?.result} busy={busy} />
        </CardContent>
      </Card>
    </div>
  );
}
