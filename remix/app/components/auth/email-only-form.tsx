import { getFormProps, useForm } from "@conform-to/react";
import { Form, useActionData, useSearchParams } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { CsrfInput, FormErrors, TextField } from "~/components/forms/fields";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import type { FormReply } from "~/lib/forms.server";
import { useLazyValidate } from "~/lib/lazy-validate";

/** One e-mail field with a neutral "sent" notice (?sent=1): resend verification, request a reset. */
export function EmailOnlyForm({ title, body, sent, submit, children }: { title: string; body: string; sent: string; submit: string; children?: React.ReactNode }) {
  const { t } = useTranslation("auth");
  const last = useActionData<FormReply>();
  const [params] = useSearchParams();
  const [form, fields] = useForm({
    lastResult: last?.result,
    onValidate: useLazyValidate(() => import("~api/auth/schemas").then((m) => m.emailOnlySchema)),
    shouldValidate: "onBlur",
  });
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">{title}</h1>
      <p className="text-sm text-muted-foreground">{body}</p>
      {params.get("sent") ? (
        <Alert variant="success" data-testid="email-sent">
          <AlertDescription>{sent}</AlertDescription>
        </Alert>
      ) : null}
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <CsrfInput />
        <FormErrors errors={form.errors} />
        <TextField field={fields.email} label={t("login.email")} type="email" autoComplete="email" />
        <Button type="submit" className="w-full">
          {submit}
        </Button>
      </Form>
      {children}
    </div>
  );
}
