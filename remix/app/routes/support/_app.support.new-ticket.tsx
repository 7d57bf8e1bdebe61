/**
 * /support/new-ticket (issue 23): open a ticket — category and subject required (spec section 5),
 * a message and one attachment optional. A multipart form that works without JavaScript; a
 * refused field is shown beside it with what was typed kept; success goes to the ticket.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData, useNavigation } from "@remix-run/react";
import { CATEGORIES, FILE_ACCEPT, FILE_MAX_BYTES, MESSAGE_MAX, SUBJECT_MAX } from "~api/support/constants";
import { openTicket, openTicketSchema } from "~api/support/tickets";
import { CsrfInput, ErrorText, FormErrors } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import { requireRoute } from "~/lib/auth.server";
import type { FormReply } from "~/lib/forms.server";
import { useTranslation } from "~/lib/react-i18n";
import { formWithFile } from "~/lib/support.server";
import { redirectWithToast } from "~/lib/toast.server";

export const handle = { crumb: "support:form.title" };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRoute(request);
  return json({});
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  return formWithFile(request, openTicketSchema, async (v, file) => {
    const { data } = await openTicket(ctx, v, file);
    return redirectWithToast(request, `/support/${data.id}`, { type: "success", title: "support:form.opened", params: { number: data.number } });
  });
}

export default function NewTicket() {
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation("support");
  const errors = last?.result.error;
  const sent = (last?.result.initialValue ?? {}) as Record<string, string>;
  const invalid = (name: string) => Boolean(errors?.[name]?.length) || undefined;
  return (
    <div className="space-y-6">
      <PageHeader description={t("form.description")} />
      <Card className="max-w-2xl">
        <CardContent className="pt-6">
          <Form method="post" encType="multipart/form-data" className="space-y-4" aria-label={t("form.title")}>
            <CsrfInput />
            <FormErrors errors={errors?.[""]} />
            <div className="grid gap-1.5">
              <Label htmlFor="ticket-category">{t("form.category")}</Label>
              <NativeSelect id="ticket-category" name="category" defaultValue={sent.category ?? ""} required aria-invalid={invalid("category")}>
                <NativeSelectOption value="">{t("form.chooseCategory")}</NativeSelectOption>
                {CATEGORIES.map((c) => (
                  <NativeSelectOption key={c} value={c}>
                    {t(`categories.${c}`)}
                  </NativeSelectOption>
                ))}
              </NativeSelect>
              <ErrorText errors={errors?.category} />
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor="ticket-subject">{t("form.subject")}</Label>
              <Input id="ticket-subject" name="subject" defaultValue={sent.subject ?? ""} maxLength={SUBJECT_MAX} required aria-invalid={invalid("subject")} />
              <ErrorText errors={errors?.subject} />
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor="ticket-message">{t("form.message")}</Label>
              <Textarea id="ticket-message" name="message" rows={6} defaultValue={sent.message ?? ""} maxLength={MESSAGE_MAX} aria-invalid={invalid("message")} />
              <ErrorText errors={errors?.message} />
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor="ticket-file">{t("form.file")}</Label>
              <input
                id="ticket-file"
                name="file"
                type="file"
                accept={FILE_ACCEPT}
                aria-describedby="ticket-file-hint"
                aria-invalid={invalid("file")}
                className="block w-full text-sm file:mr-2 file:rounded-md file:border file:bg-background file:px-3 file:py-1 file:text-sm"
              />
              <p id="ticket-file-hint" className="text-xs text-muted-foreground">
                {t("form.fileHint", { mb: FILE_MAX_BYTES / (1024 * 1024) })}
              </p>
              <ErrorText errors={errors?.file} />
            </div>
            <Button type="submit" disabled={busy}>
              {t("form.submit")}
            </Button>
          </Form>
        </CardContent>
      </Card>
    </div>
  );
}
