/**
 * /webhooks/:id: one endpoint — edit (URL, events, enabled), delete, the signing secret (reveal
 * with ?reveal=1, rotate), send a test event, and its deliveries with every attempt (São Paulo
 * time, status code, duration, error) and a retry button. Every action is a plain POST form.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { z } from "~api/lib/zod";
import { listDeliveries, retryDelivery, sendTestEvent } from "~api/webhooks/deliveries";
import { deleteEndpoint, getEndpoint, revealSecret, rotateSecret, updateEndpoint } from "~api/webhooks/endpoints";
import { ConfirmDelete } from "~/components/forms/confirm-delete";
import { CsrfInput, FormErrors } from "~/components/forms/fields";
import { EndpointForm } from "~/components/webhooks/endpoint-form";
import { webhookFormSchema } from "~/components/webhooks/form-schema";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { Pager } from "~/components/ui/pager";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { formatDate } from "~/lib/format";
import { deleteIntentSchema, handleForm, type FormReply } from "~/lib/forms.server";
import { redirectWithToast } from "~/lib/toast.server";
import type { RootData } from "~/root";

export const handle = { crumb: "webhooks:endpoint" };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const url = new URL(request.url);
  const id = params.id!;
  const { data: endpoint } = await orHttpError(getEndpoint(ctx, id));
  const deliveries = await orHttpError(listDeliveries(ctx, id, { page: url.searchParams.get("page") ?? undefined, status: url.searchParams.get("status") ?? undefined }));
  const secret = url.searchParams.get("reveal") === "1" ? (await orHttpError(revealSecret(ctx, id))).data.secret : null;
  return json({ endpoint, deliveries, secret });
}

const idIntent = (intent: string) => z.object({ intent: z.literal(intent), id: z.string().optional() });

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const id = params.id!;
  const here = `/webhooks/${id}`;
  const intent = (await request.clone().formData()).get("intent");
  if (intent === "delete") {
    return handleForm(request, deleteIntentSchema, async () => {
      await deleteEndpoint(ctx, id);
      return redirectWithToast(request, "/webhooks", { type: "success", title: "webhooks:deleted" });
    });
  }
  if (intent === "rotate") {
    return handleForm(request, idIntent("rotate"), async () => {
      await rotateSecret(ctx, id);
      return redirectWithToast(request, `${here}?reveal=1`, { type: "success", title: "webhooks:secret.rotated" });
    });
  }
  if (intent === "test") {
    return handleForm(request, idIntent("test"), async () => {
      await sendTestEvent(ctx, id);
      return redirectWithToast(request, here, { type: "success", title: "webhooks:test.queued" });
    });
  }
  if (intent === "retry") {
    return handleForm(request, idIntent("retry"), async ({ id: deliveryId }) => {
      await retryDelivery(ctx, deliveryId ?? "");
      return redirectWithToast(request, here, { type: "success", title: "webhooks:deliveries.retried" });
    });
  }
  return handleForm(request, webhookFormSchema, async (value) => {
    await updateEndpoint(ctx, id, value);
    return redirectWithToast(request, here, { type: "success", title: "webhooks:saved" });
  });
}

const STATUS_VARIANT = { pending: "warning", succeeded: "success", failed: "destructive" } as const;

export default function WebhookDetail() {
  const { endpoint, deliveries, secret } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const lng = useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR";
  const { t } = useTranslation(["webhooks", "common"]);
  const sent = last?.result.initialValue as { intent?: string } | undefined;
  const formReply = sent?.intent === "update" ? last?.result : undefined;
  const otherErrors = sent && sent.intent !== "update" ? (last?.result.error?.[""] ?? null) : null;
  const hrefFor = (p: number) => `/webhooks/${endpoint.id}?page=${p}`;
  return (
    <div className="space-y-6">
      <PageHeader
        description={t("detail.description")}
        actions={
          <div className="flex flex-wrap items-start gap-2">
            <Form method="post">
              <CsrfInput />
              <input type="hidden" name="intent" value="test" />
              <Button type="submit" variant="outline" disabled={busy}>
                {t("test.submit")}
              </Button>
            </Form>
            <ConfirmDelete
              id={endpoint.id}
              summary={t("delete.summary")}
              label={t("delete.label")}
              body={t("delete.body")}
              confirm={t("delete.confirm")}
              errors={sent?.intent === "delete" ? otherErrors : null}
            />
          </div>
        }
      />
      <FormErrors errors={otherErrors} />
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <h2 className="leading-none font-semibold">{t("edit.title")}</h2>
          </CardHeader>
          <CardContent>
            <EndpointForm
              id="webhook-edit"
              intent="update"
              lastResult={formReply}
              defaults={{ url: endpoint.url, description: endpoint.description, events: endpoint.events, enabled: endpoint.enabled }}
              submit={t("edit.submit")}
              busy={busy}
            />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <h2 className="leading-none font-semibold">{t("secret.title")}</h2>
            <CardDescription>{t("secret.description")}</CardDescription>
          </CardHeader>
          <CardContent className="space-y-4">
            {secret ? (
              <code data-testid="webhook-secret" className="block rounded-md border bg-muted p-3 text-sm break-all select-all">
                {secret}
              </code>
            ) : (
              <Link to={`/webhooks/${endpoint.id}?reveal=1`} className="inline-flex h-9 items-center rounded-md border px-4 text-sm font-medium hover:bg-accent">
                {t("secret.reveal")}
              </Link>
            )}
            <Form method="post">
              <CsrfInput />
              <input type="hidden" name="intent" value="rotate" />
              <Button type="submit" variant="outline" disabled={busy}>
                {t("secret.rotate")}
              </Button>
            </Form>
            <p className="text-sm text-muted-foreground">{t("secret.help")}</p>
          </CardContent>
        </Card>
      </div>
      <Card>
        <CardHeader>
          <h2 className="leading-none font-semibold">{t("deliveries.title")}</h2>
          <CardDescription>{t("deliveries.description")}</CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          {deliveries.data.length === 0 ? (
            <p className="py-8 text-center text-sm text-muted-foreground">{t("deliveries.empty")}</p>
          ) : (
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>{t("deliveries.event")}</TableHead>
                  <TableHead>{t("deliveries.status")}</TableHead>
                  <TableHead>{t("deliveries.attempts")}</TableHead>
                  <TableHead>{t("deliveries.next")}</TableHead>
                  <TableHead />
                </TableRow>
              </TableHeader>
              <TableBody>
                {deliveries.data.map((d) => (
                  <TableRow key={d.id} data-testid="webhook-delivery">
                    <TableCell className="align-top">
                      <p className="font-medium">{d.event_type}</p>
                      <p className="text-xs text-muted-foreground">{formatDate(d.created_at, lng, true)}</p>
                      <details className="text-xs">
                        <summary className="cursor-pointer text-muted-foreground">{t("deliveries.payload")}</summary>
                        <pre className="mt-1 max-w-md overflow-x-auto rounded bg-muted p-2">{JSON.stringify(d.payload, null, 2)}</pre>
                      </details>
                    </TableCell>
                    <TableCell className="align-top">
                      <Badge variant={STATUS_VARIANT[d.status]}>{t(`deliveries.statuses.${d.status}`)}</Badge>
                    </TableCell>
                    <TableCell className="align-top">
                      <ol className="space-y-1 text-xs">
                        {d.attempt_log.map((a, i) => (
                          <li key={a.id} data-testid="webhook-attempt">
                            {t("deliveries.attempt", {
                              n: i + 1,
                              at: formatDate(a.started_at, lng, true),
                              code: a.status_code ?? "—",
                              ms: a.duration_ms,
                            })}
                            {a.error ? <span className="text-destructive"> — {a.error}</span> : null}
                          </li>
                        ))}
                      </ol>
                    </TableCell>
                    <TableCell className="align-top text-xs">{d.status === "pending" && d.next_attempt_at ? formatDate(d.next_attempt_at, lng, true) : "—"}</TableCell>
                    <TableCell className="align-top text-right">
                      <Form method="post">
                        <CsrfInput />
                        <input type="hidden" name="intent" value="retry" />
                        <input type="hidden" name="id" value={d.id} />
                        <Button type="submit" size="sm" variant="outline" disabled={busy}>
                          {t("deliveries.retry")}
                        </Button>
                      </Form>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
          <Pager
            page={deliveries.page}
            pageCount={deliveries.last_page}
            hrefFor={hrefFor}
            aria-label={t("common:pager.label")}
            labels={{ previous: t("common:pager.previous"), next: t("common:pager.next"), page: (n) => t("common:pager.page", { n }), more: t("common:pager.more") }}
          />
        </CardContent>
      </Card>
    </div>
  );
}
