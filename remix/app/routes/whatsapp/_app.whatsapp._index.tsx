/**
 * /whatsapp: the account's WhatsApp at a glance — its Cloud API numbers (display number, verified
 * name, quality rating, messaging limit, the webhook URL Meta posts to) with a disconnect per number
 * (confirmation disclosure), the form that connects a number (checked at Meta with its token; the
 * secrets are never shown back), its templates counted by status and its last messages. Plain
 * forms: works without JavaScript. A link asks for a new number (/whatsapp/request).
 */
import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { can } from "~api/policy/policy";
import { z } from "~api/lib/zod";
import { countWhatsappTemplates } from "~api/whatsapp/history";
import { connectWhatsappNumber, disconnectWhatsappNumber } from "~api/whatsapp/numbers";
import { TEMPLATE_STATUSES } from "~api/whatsapp/templates";
import { CsrfInput, FormErrors, TextField } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { TemplateStatusBadge } from "~/components/whatsapp/badges";
import { NumbersCard } from "~/components/whatsapp/numbers-card";
import { MessagesTable } from "~/components/whatsapp/messages-table";
import { requireRoute } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { intlLocale, type Lng } from "~/lib/i18n";
import { redirectWithToast } from "~/lib/toast.server";
import { allNumbers, recentMessages } from "~/lib/whatsapp.server";
import type { RootData } from "~/root";
import { connectNumberFormSchema } from "~/forms/whatsapp";
import { useLazyValidate } from "~/lib/lazy-validate";

const RECENT = 10;
const disconnectSchema = z.object({ intent: z.literal("disconnect"), id: z.string().min(1, "validation.required") });

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const seesTemplates = can(ctx.actor, "/whatsapp/templates");
  const seesHistory = can(ctx.actor, "/whatsapp/history");
  const [numbers, counts, recent] = await Promise.all([
    allNumbers(ctx),
    seesTemplates ? countWhatsappTemplates(ctx) : Promise.resolve(null),
    seesHistory ? recentMessages(ctx, RECENT) : Promise.resolve(null),
  ]);
  return json(
    {
      numbers,
      counts,
      statuses: TEMPLATE_STATUSES,
      recent,
      can: {
        connect: can(ctx.actor, "/whatsapp/jv/numbers/new"),
        request: can(ctx.actor, "/whatsapp/request"),
        send: can(ctx.actor, "/whatsapp/send"),
        newTemplate: can(ctx.actor, "/whatsapp/templates/new"),
        templates: seesTemplates,
        history: seesHistory,
      },
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const intent = (await request.clone().formData()).get("intent");
  if (intent === "disconnect") {
    return handleForm(request, disconnectSchema, async ({ id }) => {
      await disconnectWhatsappNumber(ctx, id);
      return redirectWithToast(request, "/whatsapp", { type: "success", title: "whatsapp:numbers.disconnected" });
    });
  }
  return handleForm(
    request,
    connectNumberFormSchema,
    async ({ intent: _intent, ...input }) => {
      const { data } = await connectWhatsappNumber(ctx, input);
      return redirectWithToast(request, "/whatsapp", { type: "success", title: "whatsapp:numbers.connected", params: { number: data.display_phone_number } });
    },
    { hideFields: ["access_token", "app_secret"] },
  );
}

/** The Cloud API connect form (plain post; the secrets are never sent back to it on an error). */
function ConnectForm({ lastResult, busy }: { lastResult?: FormReply["result"]; busy: boolean }) {
  const { t } = useTranslation("whatsapp");
  const [form, fields] = useForm({
    id: "whatsapp-connect",
    lastResult,
    onValidate: useLazyValidate(() => import("~/forms/whatsapp").then((m) => m.connectNumberFormSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4" autoComplete="off">
      <CsrfInput />
      <input type="hidden" name="intent" value="connect" />
      <FormErrors errors={form.errors} />
      <TextField field={fields.phone_number_id} label={t("connect.phoneNumberId")} description={t("connect.phoneNumberIdHint")} autoComplete="off" />
      <TextField field={fields.waba_id} label={t("connect.wabaId")} autoComplete="off" />
      <TextField field={fields.access_token} label={t("connect.accessToken")} type="password" description={t("connect.accessTokenHint")} autoComplete="new-password" />
      <TextField field={fields.app_secret} label={t("connect.appSecret")} type="password" description={t("connect.appSecretHint")} autoComplete="new-password" />
      <Button type="submit" disabled={busy}>
        {t("connect.submit")}
      </Button>
    </Form>
  );
}

export default function WhatsappOverview() {
  const data = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation(["whatsapp", "common"]);
  const sent = last?.result.initialValue as { intent?: string; id?: string } | undefined;
  const disconnectReply = sent?.intent === "disconnect" ? sent.id : undefined;

  return (
    <div className="space-y-6">
      <PageHeader
        description={t("overview.description")}
        actions={
          <>
            {data.can.send ? (
              <Button asChild>
                <Link to="/whatsapp/send">{t("overview.send")}</Link>
              </Button>
            ) : null}
            {data.can.newTemplate ? (
              <Button asChild variant="outline">
                <Link to="/whatsapp/templates/new">{t("overview.newTemplate")}</Link>
              </Button>
            ) : null}
            {data.can.history ? (
              <Button asChild variant="outline">
                <Link to="/whatsapp/history">{t("overview.history")}</Link>
              </Button>
            ) : null}
            {data.can.request ? (
              <Button asChild variant="outline">
                <Link to="/whatsapp/request">{t("overview.request")}</Link>
              </Button>
            ) : null}
          </>
        }
      />

      <NumbersCard
        title={t("numbers.title")}
        description={t("numbers.description")}
        empty={t("numbers.empty")}
        numbers={data.numbers}
        columns={[
          { header: t("numbers.columns.name"), cell: (n) => n.verified_name || "—" },
          { header: t("numbers.columns.limit"), cell: (n) => t(`limit.${n.messaging_limit}`, { defaultValue: n.messaging_limit || "—" }) },
        ]}
        canDisconnect={data.can.connect}
        refused={disconnectReply ? { id: disconnectReply, errors: last?.result.error?.[""] } : undefined}
      />

      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-2">
        {data.can.connect ? (
          <Card>
            <CardHeader>
              <CardTitle>
                <h2>{t("connect.title")}</h2>
              </CardTitle>
              <CardDescription>{t("connect.description")}</CardDescription>
            </CardHeader>
            <CardContent>
              {/* A new number remounts the form: its fields start empty again. */}
              <ConnectForm key={data.numbers.map((n) => n.id).join(",")} lastResult={sent?.intent === "disconnect" ? undefined : last?.result} busy={busy} />
            </CardContent>
          </Card>
        ) : null}

        {data.counts ? (
          <Card>
            <CardHeader>
              <CardTitle>
                <h2>{t("overview.templatesTitle")}</h2>
              </CardTitle>
            </CardHeader>
            <CardContent className="space-y-4">
              <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm" data-testid="template-counts">
                {data.statuses.map((s) => (
                  <div key={s} className="contents" data-count={s}>
                    <dt>
                      <TemplateStatusBadge status={s} />
                    </dt>
                    <dd className="tabular-nums">{new Intl.NumberFormat(intlLocale[lng]).format(data.counts?.[s] ?? 0)}</dd>
                  </div>
                ))}
              </dl>
              <Button asChild variant="outline" size="sm">
                <Link to="/whatsapp/templates">{t("overview.allTemplates")}</Link>
              </Button>
            </CardContent>
          </Card>
        ) : null}
      </div>

      {data.recent ? (
        <Card>
          <CardHeader>
            <CardTitle>
              <h2>{t("overview.recentTitle")}</h2>
            </CardTitle>
            <CardDescription>{t("overview.recentDescription", { n: RECENT })}</CardDescription>
          </CardHeader>
          <CardContent>
            {data.recent.length === 0 ? (
              <p className="py-6 text-center text-sm text-muted-foreground">{t("overview.recentEmpty")}</p>
            ) : (
              <MessagesTable rows={data.recent} lng={lng} />
            )}
          </CardContent>
        </Card>
      ) : null}
    </div>
  );
}
