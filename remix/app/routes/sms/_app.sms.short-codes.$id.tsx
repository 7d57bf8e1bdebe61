/** /sms/short-codes/{id}: one short code — its number, carriers and status, and its nickname form. */
import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { canWrite } from "~api/policy/policy";
import { shortCodeSchema } from "~api/shortcodes/schemas";
import { getShortCode, updateShortCode } from "~api/shortcodes/services";
import { CsrfInput, FormErrors, TextField } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader } from "~/components/ui/card";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { redirectWithToast } from "~/lib/toast.server";
import { formatDate } from "~/lib/format";
import type { Lng } from "~/lib/i18n";
import { useLazyValidate } from "~/lib/lazy-validate";

export const handle = {
  crumb: (data: unknown) => {
    const c = (data as { code?: { number: string } } | undefined)?.code;
    return c ? { key: "shortCodes:detail.title", params: { number: c.number } } : "shortCodes:detail.fallbackTitle";
  },
};

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const code = await orHttpError(getShortCode(ctx, params.id ?? ""));
  return json({ code, canEdit: canWrite(ctx.actor, "shortCodes") });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const id = params.id ?? "";
  const code = await orHttpError(getShortCode(ctx, id));
  return handleForm(request, shortCodeSchema, async (value) => {
    await updateShortCode(ctx, id, value);
    return redirectWithToast(request, `/sms/short-codes/${id}`, { type: "success", title: "shortCodes:detail.saved", params: { number: code.number } });
  });
}

export default function ShortCode() {
  const { code, canEdit } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const { t, i18n } = useTranslation(["shortCodes", "common"]);
  const [form, fields] = useForm({
    id: `short-code-${code.id}`,
    lastResult: last?.result,
    defaultValue: { nickname: code.nickname },
    onValidate: useLazyValidate(() => import("~api/shortcodes/schemas").then((m) => m.shortCodeSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <div className="space-y-6">
      <PageHeader description={t("detail.description")} />
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <h2 className="leading-none font-semibold">{t("detail.facts")}</h2>
          </CardHeader>
          <CardContent>
            <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-3 text-sm" data-testid="short-code-facts">
              <dt className="text-muted-foreground">{t("columns.number")}</dt>
              <dd className="font-mono font-medium">{code.number}</dd>
              <dt className="text-muted-foreground">{t("columns.status")}</dt>
              <dd>
                <Badge variant={code.status === "active" ? "success" : "outline"}>{t(`status.${code.status}`)}</Badge>
              </dd>
              <dt className="text-muted-foreground">{t("columns.deliverability")}</dt>
              <dd className="flex flex-wrap gap-1">
                {code.deliverability.length === 0
                  ? t("noCarrier")
                  : code.deliverability.map((c) => (
                      <Badge key={c} variant="outline">
                        {c}
                      </Badge>
                    ))}
              </dd>
              <dt className="text-muted-foreground">{t("detail.assigned")}</dt>
              <dd>
                <time dateTime={code.created_at}>{formatDate(code.created_at, i18n.language as Lng, true)}</time>
              </dd>
            </dl>
            <p className="mt-4 text-sm text-muted-foreground">{t("detail.platformManaged")}</p>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <h2 className="leading-none font-semibold">{t("detail.nicknameTitle")}</h2>
          </CardHeader>
          <CardContent>
            {canEdit ? (
              <Form method="post" {...getFormProps(form)} className="space-y-4">
                <CsrfInput />
                <FormErrors errors={form.errors} />
                <TextField field={fields.nickname} label={t("columns.nickname")} description={t("detail.nicknameHelp")} />
                <div className="flex flex-wrap gap-2">
                  <Button type="submit" disabled={busy}>
                    {t("detail.save")}
                  </Button>
                  <Button asChild variant="ghost">
                    <Link to="/sms/short-codes">{t("common:actions.back")}</Link>
                  </Button>
                </div>
              </Form>
            ) : (
              <p className="text-sm">{code.nickname || t("noNickname")}</p>
            )}
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
