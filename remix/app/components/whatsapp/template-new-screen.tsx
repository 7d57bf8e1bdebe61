/**
 * /whatsapp/templates/new: create a WhatsApp template and submit it to Meta (it is pending until
 * Meta decides). Meta's rules are checked by the use-case (api/whatsapp/templates.ts) with the
 * same schema the browser uses, every refusal next to its field; success goes back to the list
 * with a toast (or here again for a role that may create templates but not list them).
 */
import { Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { PageHeader } from "~/components/shell/page-header";
import { Card, CardContent } from "~/components/ui/card";
import { TemplateForm } from "~/components/whatsapp/template-form";
import type { FormReply } from "~/lib/forms.server";
import type { WhatsappTemplateNewData } from "~/lib/whatsapp.server";

/** The new-template screen of /whatsapp/templates/new and /whatsapp/jv/templates/new. */
export function WhatsappTemplateNewScreen() {
  const { numbers, canConnect, connectUrl } = useLoaderData<WhatsappTemplateNewData>();
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
                <Link to={connectUrl} className="font-medium text-primary hover:underline">
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
