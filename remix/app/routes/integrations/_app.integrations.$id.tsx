/**
 * /integrations/{id} (issue 23, ADR 066, 072): one installed integration — its credentials (blank keeps
 * them), senders and the message each order event sends (channel, subject and text, or a WhatsApp
 * template with its variables' values and number: components/integrations/rule-fields.tsx; on/off), the
 * test (a test order at the store for you), uninstall, and the events received with the message
 * each produced and its status. Plain forms switched by `intent`; everything works without
 * JavaScript; refused fields are shown beside them; each success redirects with a toast.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { ORDER_EVENTS, RULE_VARIABLES, templateKey } from "~api/integrations/constants";
import {
  getIntegration,
  integrationWhatsappChoices,
  listIntegrationEvents,
  testIntegration,
  uninstallIntegration,
  updateFormSchema,
  updateIntegration,
} from "~/lib/integrations.server";
import { z } from "~api/lib/zod";
import { canWrite } from "~api/policy/policy";
import { CsrfInput, ErrorText, FormErrors, useErrorText } from "~/components/forms/fields";
import { IntentForm } from "~/components/forms/intent-form";
import { type RuleFormValue, RuleFields } from "~/components/integrations/rule-fields";
import { PageHeader } from "~/components/shell/page-header";
import { useLng } from "~/components/support/ticket-parts";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { formatDate } from "~/lib/format";
import { handleForm, type FormReply, withFormPaths } from "~/lib/forms.server";
import { useTranslation } from "~/lib/react-i18n";
import { redirectWithToast } from "~/lib/toast.server";

export const handle = {
  crumb: (data: unknown) => ({
    key: "integrations:detail.title",
    params: { name: (data as { integration?: { name?: string; label?: string } } | undefined)?.integration?.name || "Nuvemshop" },
  }),
};

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const { data } = await orHttpError(getIntegration(ctx, params.id ?? ""));
  const [events, whatsapp] = await Promise.all([listIntegrationEvents(ctx, data.id, 50), integrationWhatsappChoices(ctx)]);
  return json({ integration: data, events: events.data, whatsapp, canManage: canWrite(ctx.actor, "integrations") }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const id = params.id ?? "";
  const path = `/integrations/${id}`;
  const intent = (await request.clone().formData()).get("intent");
  const intentOnly = (name: string) => z.object({ intent: z.literal(name) });
  if (intent === "test") {
    return handleForm(request, intentOnly("test"), async () => {
      await testIntegration(ctx, id);
      return redirectWithToast(request, path, { type: "success", title: "integrations:detail.tested" });
    });
  }
  if (intent === "uninstall") {
    return handleForm(request, intentOnly("uninstall"), async () => {
      await uninstallIntegration(ctx, id);
      return redirectWithToast(request, "/integrations/installed", { type: "success", title: "integrations:detail.uninstalled" });
    });
  }
  return handleForm(
    request,
    updateFormSchema.extend({ intent: z.literal("settings") }),
    async ({ intent: _i, ...v }) => {
      await withFormPaths(updateIntegration(ctx, id, { ...v, sms_from: v.sms_from ?? "", email_from: v.email_from ?? "" }));
      return redirectWithToast(request, path, { type: "success", title: "integrations:detail.saved" });
    },
    { hideFields: ["access_token", "app_secret"] },
  );
}

export default function IntegrationPage() {
  const { integration: i, events, whatsapp, canManage } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation("integrations");
  const errorText = useErrorText();
  const lng = useLng();
  type Typed = Record<string, string | undefined> & { template?: { key?: string; variables?: Array<string | undefined>; header_variable?: string; button_variable?: string } };
  const sent = (last?.result.initialValue ?? {}) as { intent?: string; sms_from?: string; email_from?: string; rules?: Array<Typed | undefined> };
  const errors = sent.intent === "settings" || !sent.intent ? last?.result.error : undefined;
  const invalid = (name: string) => Boolean(errors?.[name]?.length) || undefined;
  const rules = ORDER_EVENTS.map((event, n): RuleFormValue => {
    const stored = i.rules.find((r) => r.event === event);
    const typed = sent.rules?.[n];
    if (typed) {
      return {
        event,
        channel: typed.channel ?? "sms",
        enabled: typed.enabled === "on",
        subject: typed.subject ?? "",
        text: typed.text ?? "",
        number_id: typed.number_id ?? "",
        template_key: typed.template?.key ?? "",
        variables: (typed.template?.variables ?? []).map((v) => v ?? ""),
        header_variable: typed.template?.header_variable ?? "",
        button_variable: typed.template?.button_variable ?? "",
      };
    }
    return {
      event,
      channel: stored?.channel ?? "sms",
      enabled: stored?.enabled ?? false,
      subject: stored?.subject ?? "",
      text: stored?.text ?? "",
      number_id: stored?.number_id ?? "",
      template_key: stored?.template ? templateKey(stored.template) : "",
      variables: stored?.template?.variables ?? [],
      header_variable: stored?.template?.header_variable ?? "",
      button_variable: stored?.template?.button_variable ?? "",
    };
  });
  const vars = RULE_VARIABLES.map((v) => `{{${v}}}`).join(" ");
  return (
    <div className="space-y-6" data-integration-id={i.id}>
      <PageHeader
        description={`${i.label} · #${i.store_id}`}
        actions={
          <div className="flex items-center gap-2">
            <Badge variant={i.status === "active" ? "success" : "destructive"}>{t(`status.${i.status}`)}</Badge>
            <Button asChild variant="outline" size="sm">
              <Link to="/integrations/installed">{t("installedTitle")}</Link>
            </Button>
          </div>
        }
      />
      <Card>
        <CardHeader>
          <CardTitle>{i.name || i.label}</CardTitle>
          <CardDescription>
            {t("detail.webhookUrl")}: <code className="break-all">{i.webhook_url}</code>
          </CardDescription>
        </CardHeader>
        <CardContent>
          {!canManage ? <p className="mb-4 text-sm text-muted-foreground">{t("detail.readOnly")}</p> : null}
          <Form method="post" className="space-y-6" aria-label={t("detail.save")}>
            <CsrfInput />
            <input type="hidden" name="intent" value="settings" />
            <FormErrors errors={errors?.[""]} />
            <fieldset className="grid gap-4 md:grid-cols-2" disabled={!canManage}>
              <legend className="mb-2 font-medium">{t("detail.credentials")}</legend>
              <p className="text-sm text-muted-foreground md:col-span-2">{t("detail.credentialsHint")}</p>
              <div className="grid gap-1.5">
                <Label htmlFor="int-token">{t("install.accessToken")}</Label>
                <Input id="int-token" name="access_token" type="password" autoComplete="off" aria-invalid={invalid("access_token")} />
                <ErrorText errors={errors?.access_token} />
              </div>
              <div className="grid gap-1.5">
                <Label htmlFor="int-secret">{t("install.appSecret")}</Label>
                <Input id="int-secret" name="app_secret" type="password" autoComplete="off" aria-invalid={invalid("app_secret")} />
                <ErrorText errors={errors?.app_secret} />
              </div>
            </fieldset>
            <fieldset className="grid gap-4 md:grid-cols-2" disabled={!canManage}>
              <legend className="mb-2 font-medium">{t("detail.senders")}</legend>
              <div className="grid gap-1.5">
                <Label htmlFor="int-sms-from">{t("detail.smsFrom")}</Label>
                <Input id="int-sms-from" name="sms_from" defaultValue={sent.sms_from ?? i.settings.sms_from ?? ""} maxLength={20} aria-invalid={invalid("sms_from")} />
                <ErrorText errors={errors?.sms_from} />
              </div>
              <div className="grid gap-1.5">
                <Label htmlFor="int-email-from">{t("detail.emailFrom")}</Label>
                <Input id="int-email-from" name="email_from" type="email" defaultValue={sent.email_from ?? i.settings.email_from ?? ""} aria-invalid={invalid("email_from")} />
                <ErrorText errors={errors?.email_from} />
              </div>
            </fieldset>
            <fieldset className="space-y-4" disabled={!canManage}>
              <legend className="mb-2 font-medium">{t("detail.rules")}</legend>
              <p className="text-sm text-muted-foreground">{t("detail.rulesHint", { vars })}</p>
              {rules.map((r, n) => (
                <RuleFields key={r.event} n={n} rule={r} errors={errors} choices={whatsapp} vars={vars} />
              ))}
            </fieldset>
            {canManage ? (
              <Button type="submit" disabled={busy}>
                {t("detail.save")}
              </Button>
            ) : null}
          </Form>
        </CardContent>
      </Card>
      {canManage ? (
        <div className="grid gap-4 md:grid-cols-2">
          <Card>
            <CardHeader>
              <CardTitle>{t("detail.test")}</CardTitle>
              <CardDescription>{t("detail.testHint")}</CardDescription>
            </CardHeader>
            <CardContent>
              <FormErrors errors={sent.intent === "test" ? last?.result.error?.[""] : undefined} />
              <IntentForm intent="test">
                <Button type="submit" variant="outline" disabled={busy}>
                  {t("detail.test")}
                </Button>
              </IntentForm>
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>{t("detail.uninstall")}</CardTitle>
              <CardDescription>{t("detail.uninstallHint")}</CardDescription>
            </CardHeader>
            <CardContent>
              <IntentForm intent="uninstall">
                <Button type="submit" variant="destructive" disabled={busy}>
                  {t("detail.uninstall")}
                </Button>
              </IntentForm>
            </CardContent>
          </Card>
        </div>
      ) : null}
      <Card>
        <CardHeader>
          <CardTitle>{t("detail.events")}</CardTitle>
        </CardHeader>
        <CardContent>
          {events.length === 0 ? (
            <p className="text-sm text-muted-foreground">{t("detail.noEvents")}</p>
          ) : (
            <Table region={t("detail.events")}>
              <TableHeader>
                <TableRow>
                  <TableHead>{t("detail.received")}</TableHead>
                  <TableHead>{t("detail.event")}</TableHead>
                  <TableHead>{t("detail.order")}</TableHead>
                  <TableHead>{t("detail.recipient")}</TableHead>
                  <TableHead>{t("detail.message")}</TableHead>
                  <TableHead>{t("detail.result")}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {events.map((e) => (
                  <TableRow key={e.id} data-event-id={e.id} data-status={e.message_status ?? e.status}>
                    <TableCell>{formatDate(e.received_at, lng, true)}</TableCell>
                    <TableCell>{t(`events.${e.event}`)}</TableCell>
                    <TableCell>{e.order_number ?? e.order_id}</TableCell>
                    <TableCell>
                      {e.channel ? `${t(`channels.${e.channel}`)} · ` : ""}
                      {e.recipient ?? ""}
                    </TableCell>
                    <TableCell className="max-w-md whitespace-pre-wrap">{e.text ?? ""}</TableCell>
                    <TableCell>
                      {t(`status.${e.message_status ?? e.status}`)}
                      {e.error ? <span className="block text-xs text-destructive">{errorText(e.error)}</span> : null}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
