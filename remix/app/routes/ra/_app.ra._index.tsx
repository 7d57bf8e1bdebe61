/**
 * /ra (issue 23, ADR 067): Reclame Aqui's overview — the connection form (owner and admin) or the
 * connection's status with "Sync now", the complaints counted by status, the latest ones. Plain
 * forms switched by `intent` (connect, sync, disconnect): no JavaScript needed; errors next to
 * their field, translated; each success redirects with a toast.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { ComplaintsTable } from "~/components/ra/parts";
import { CsrfInput, FormErrors, useErrorText } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { FormField, fieldErrorId } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { requireRoute } from "~/lib/auth.server";
import { requireCsrf } from "~/lib/csrf.server";
import { formatDate } from "~/lib/format";
import { useTranslation } from "~/lib/react-i18n";
import { redirectWithToast } from "~/lib/toast.server";
import type { RootData } from "~/root";
import { raSimulated } from "~api/ra/client";
import { RA_STATUSES } from "~api/ra/constants";
import { connect, disconnect, mayAnswer, mayManage, overview, syncNow } from "~api/ra/services";
import { type RaReply, replyOf } from "~/components/ra/reply.server";

export const handle = { crumb: "ra:overview.crumb" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request, "/ra");
  const data = await overview(ctx);
  return json({ ...data, canManage: mayManage(ctx), canSync: mayAnswer(ctx), simulated: raSimulated() }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request, "/ra");
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  try {
    await requireCsrf(request, form);
  } catch {
    return json<RaReply>({ intent, formErrors: ["errors.CSRF"] }, { status: 403 });
  }
  const values = { company_id: String(form.get("company_id") ?? ""), client_id: String(form.get("client_id") ?? "") };
  try {
    if (intent === "connect") {
      await connect(ctx, { ...values, client_secret: String(form.get("client_secret") ?? "") });
      return redirectWithToast(request, "/ra", { type: "success", title: "ra:overview.connected" });
    }
    if (intent === "disconnect") {
      await disconnect(ctx);
      return redirectWithToast(request, "/ra", { type: "success", title: "ra:overview.disconnected" });
    }
    const r = await syncNow(ctx);
    return redirectWithToast(request, "/ra", {
      type: "success",
      title: "ra:overview.synced",
      description: "ra:overview.syncedCounts",
      params: { imported: r.imported, updated: r.updated },
    });
  } catch (e) {
    return replyOf(e, intent || "sync", values);
  }
}

export default function RaOverview() {
  const { connection: c, counts, total, latest, canManage, canSync, simulated } = useLoaderData<typeof loader>();
  const reply = useActionData<RaReply>();
  const lng = useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR";
  const { t } = useTranslation("ra");
  const errorText = useErrorText();
  const busy = useNavigation().state === "submitting";
  const of = (intent: string) => (reply?.intent === intent ? reply : undefined);
  const fieldError = (intent: string, name: string) => of(intent)?.fields?.[name]?.map((e) => errorText(e));
  const connectForm = (
    <Form method="post" action="/ra?index" className="space-y-3" aria-label={t("connect.title")}>
      <CsrfInput />
      <input type="hidden" name="intent" value="connect" />
      <FormErrors errors={of("connect")?.formErrors} />
      <FormField label={t("connect.companyId")} htmlFor="ra-company" error={fieldError("connect", "company_id")} description={t("connect.companyIdHint")}>
        <Input
          id="ra-company"
          name="company_id"
          inputMode="numeric"
          required
          defaultValue={of("connect")?.values?.company_id ?? c?.company_id ?? ""}
          aria-describedby={fieldErrorId("ra-company")}
        />
      </FormField>
      <FormField label={t("connect.clientId")} htmlFor="ra-client" error={fieldError("connect", "client_id")}>
        <Input id="ra-client" name="client_id" required defaultValue={of("connect")?.values?.client_id ?? c?.client_id ?? ""} aria-describedby={fieldErrorId("ra-client")} />
      </FormField>
      <FormField label={t("connect.clientSecret")} htmlFor="ra-secret" error={fieldError("connect", "client_secret")}>
        <Input id="ra-secret" name="client_secret" type="password" required autoComplete="off" aria-describedby={fieldErrorId("ra-secret")} />
      </FormField>
      {simulated ? <p className="text-xs text-muted-foreground">{t("connect.simulated")}</p> : null}
      <Button type="submit" disabled={busy}>
        {c ? t("connect.update") : t("connect.submit")}
      </Button>
    </Form>
  );
  return (
    <div className="space-y-6">
      <PageHeader
        description={t("overview.description")}
        actions={
          <div className="flex flex-wrap gap-2">
            <Button asChild variant="outline">
              <Link to="/ra/all">{t("nav.all")}</Link>
            </Button>
            <Button asChild variant="outline">
              <Link to="/ra/report">{t("nav.report")}</Link>
            </Button>
          </div>
        }
      />
      <Card data-connection={c ? c.status : "none"}>
        <CardHeader>
          <CardTitle>
            <h2>{t("connect.title")}</h2>
          </CardTitle>
          <CardDescription>{c ? t("connect.connectedTo", { company: c.company_id }) : t("connect.description")}</CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          {c ? (
            <>
              <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-2 text-sm">
                <dt className="text-muted-foreground">{t("connect.status")}</dt>
                <dd data-status={c.status}>{t(`connect.statuses.${c.status}`)}</dd>
                <dt className="text-muted-foreground">{t("connect.lastSync")}</dt>
                <dd>{c.last_sync_at ? formatDate(c.last_sync_at, lng, true) : t("connect.never")}</dd>
              </dl>
              {c.status === "failing" && c.last_error ? (
                <p role="alert" className="text-sm text-destructive" data-last-error>
                  {errorText(c.last_error)}
                </p>
              ) : null}
              <FormErrors errors={of("sync")?.formErrors} />
              {of("sync")?.fields?.connection ? (
                <p role="alert" className="text-sm text-destructive">
                  {of("sync")!
                    .fields!.connection.map((e) => errorText(e))
                    .join(" ")}
                </p>
              ) : null}
              <div className="flex flex-wrap gap-2">
                {canSync ? (
                  <Form method="post" action="/ra?index">
                    <CsrfInput />
                    <input type="hidden" name="intent" value="sync" />
                    <Button type="submit" disabled={busy}>
                      {t("overview.syncNow")}
                    </Button>
                  </Form>
                ) : null}
                {canManage ? (
                  <Form method="post" action="/ra?index">
                    <CsrfInput />
                    <input type="hidden" name="intent" value="disconnect" />
                    <Button type="submit" variant="outline" disabled={busy}>
                      {t("connect.disconnect")}
                    </Button>
                  </Form>
                ) : null}
              </div>
              {canManage ? (
                <details open={!!of("connect")}>
                  <summary className="cursor-pointer text-sm">{t("connect.change")}</summary>
                  <div className="mt-3">{connectForm}</div>
                </details>
              ) : null}
            </>
          ) : canManage ? (
            connectForm
          ) : (
            <p className="text-sm text-muted-foreground">{t("connect.askAdmin")}</p>
          )}
        </CardContent>
      </Card>
      <div className="grid grid-cols-2 gap-4 md:grid-cols-5">
        <Card>
          <CardHeader>
            <CardDescription>{t("overview.total")}</CardDescription>
            <CardTitle className="text-2xl" data-count="total">
              {total}
            </CardTitle>
          </CardHeader>
        </Card>
        {RA_STATUSES.map((s) => (
          <Card key={s}>
            <CardHeader>
              <CardDescription>
                <Link to={`/ra/all?status=${s}`} className="hover:underline">
                  {t(`status.${s}`)}
                </Link>
              </CardDescription>
              <CardTitle className="text-2xl" data-count={s}>
                {counts[s]}
              </CardTitle>
            </CardHeader>
          </Card>
        ))}
      </div>
      <Card>
        <CardHeader>
          <CardTitle>
            <h2>{t("overview.latest")}</h2>
          </CardTitle>
        </CardHeader>
        <CardContent>
          <ComplaintsTable complaints={latest} lng={lng} />
        </CardContent>
      </Card>
    </div>
  );
}
