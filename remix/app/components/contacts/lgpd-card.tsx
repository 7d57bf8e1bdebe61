import { Form } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { CsrfInput, FormErrors } from "~/components/forms/fields";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";

/** LGPD rights of the person (owner and admin only): download everything held about them, or erase it. */
export function LgpdCard({ contactId, name, busy, errors }: { contactId: string; name: string; busy: boolean; errors?: string[] | null }) {
  const { t } = useTranslation("contacts");
  return (
    <Card className="border-destructive/30">
      <CardHeader>
        <h2 className="leading-none font-semibold">{t("lgpd.title")}</h2>
        <CardDescription>{t("lgpd.description")}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <div className="flex flex-wrap gap-2">
          <Button asChild variant="outline" size="sm">
            <a href={`/contacts/${contactId}/export?format=json`} download>
              {t("lgpd.exportJson")}
            </a>
          </Button>
          <Button asChild variant="outline" size="sm">
            <a href={`/contacts/${contactId}/export?format=csv`} download>
              {t("lgpd.exportCsv")}
            </a>
          </Button>
        </div>
        <FormErrors errors={errors} />
        <details open={Boolean(errors?.length)} className="rounded-md border border-destructive/40 p-3">
          <summary className="cursor-pointer text-sm font-medium text-destructive">{t("lgpd.erase")}</summary>
          <div className="mt-3 space-y-3 text-sm">
            <p>{t("lgpd.eraseBody", { name })}</p>
            <Form method="post">
              <CsrfInput />
              <input type="hidden" name="intent" value="erase" />
              <Button type="submit" variant="destructive" size="sm" disabled={busy}>
                {t("lgpd.eraseConfirm")}
              </Button>
            </Form>
          </div>
        </details>
      </CardContent>
    </Card>
  );
}
