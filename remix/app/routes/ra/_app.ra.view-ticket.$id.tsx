/**
 * /ra/view-ticket/{id} (issue 23, ADR 067): one imported complaint — the consumer's text, its
 * public and private interactions in order, the evaluation — and the two answer forms: a public
 * answer (everyone on Reclame Aqui sees it; none once evaluated) and a private message to the
 * consumer. Each is posted to RA first and recorded once RA took it; RA's errors are shown
 * translated next to the message. Plain forms: no JavaScript needed.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { RaStatusBadge } from "~/components/ra/parts";
import { type RaReply, replyOf } from "~/components/ra/reply.server";
import { CsrfInput, ErrorText, FormErrors } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Label } from "~/components/ui/label";
import { Textarea } from "~/components/ui/textarea";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { requireCsrf } from "~/lib/csrf.server";
import { formatDate } from "~/lib/format";
import { useTranslation } from "~/lib/react-i18n";
import { redirectWithToast } from "~/lib/toast.server";
import type { RootData } from "~/root";
import { ANSWER_MAX } from "~api/ra/constants";
import { answerComplaint, getComplaint, mayAnswer } from "~api/ra/services";

export const handle = {
  crumb: (data: unknown) => ({ key: "ra:ticket.crumb", params: { id: (data as { complaint?: { ra_id?: string } } | undefined)?.complaint?.ra_id ?? "" } }),
};

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request, `/ra/view-ticket/${params.id ?? ""}`);
  const complaint = await orHttpError(getComplaint(ctx, params.id ?? ""));
  return json({ complaint, canAnswer: mayAnswer(ctx) }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const id = params.id ?? "";
  const ctx = await requireRoute(request, `/ra/view-ticket/${id}`);
  const form = await request.formData();
  const visibility = String(form.get("visibility") ?? "");
  try {
    await requireCsrf(request, form);
  } catch {
    return json<RaReply>({ intent: visibility, formErrors: ["errors.CSRF"] }, { status: 403 });
  }
  const message = String(form.get("message") ?? "");
  try {
    await answerComplaint(ctx, id, { visibility, message });
    return redirectWithToast(request, `/ra/view-ticket/${id}`, { type: "success", title: visibility === "public" ? "ra:ticket.answered" : "ra:ticket.messaged" });
  } catch (e) {
    return replyOf(e, visibility, { message });
  }
}

function AnswerForm({ visibility, reply, busy }: { visibility: "public" | "private"; reply?: RaReply; busy: boolean }) {
  const { t } = useTranslation("ra");
  const mine = reply?.intent === visibility ? reply : undefined;
  const fid = `ra-${visibility}`;
  return (
    <Form method="post" className="space-y-3" aria-label={t(`ticket.${visibility}.title`)}>
      <CsrfInput />
      <input type="hidden" name="visibility" value={visibility} />
      <FormErrors errors={mine?.formErrors} />
      <div className="grid gap-1.5">
        <Label htmlFor={fid}>{t(`ticket.${visibility}.label`)}</Label>
        <Textarea id={fid} name="message" rows={5} maxLength={ANSWER_MAX} required defaultValue={mine?.values?.message ?? ""} aria-describedby={`${fid}-error`} />
        <ErrorText id={`${fid}-error`} errors={mine?.fields?.message ?? mine?.fields?.visibility} />
      </div>
      <Button type="submit" disabled={busy} variant={visibility === "public" ? "default" : "outline"}>
        {t(`ticket.${visibility}.submit`)}
      </Button>
    </Form>
  );
}

export default function RaTicket() {
  const { complaint: c, canAnswer } = useLoaderData<typeof loader>();
  const reply = useActionData<RaReply>();
  const busy = useNavigation().state === "submitting";
  const lng = useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR";
  const { t } = useTranslation("ra");
  return (
    <div className="space-y-6" data-complaint={c.ra_id}>
      <PageHeader
        description={c.title}
        actions={
          <Button asChild variant="outline" size="sm">
            <Link to="/ra/all">{t("nav.all")}</Link>
          </Button>
        }
      />
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="min-w-0 space-y-6">
          <Card>
            <CardHeader>
              <CardTitle>
                <h2>{c.title}</h2>
              </CardTitle>
              <CardDescription>{t("ticket.by", { name: c.consumer_name ?? "—", date: formatDate(c.created_at, lng, true) })}</CardDescription>
            </CardHeader>
            <CardContent className="space-y-4">
              <p className="whitespace-pre-wrap text-sm" data-description>
                {c.description}
              </p>
              <ol className="space-y-3" aria-label={t("ticket.interactions")}>
                {c.interactions.map((i) => (
                  <li
                    key={i.id}
                    data-interaction={i.ra_id}
                    data-visibility={i.visibility}
                    data-author={i.author}
                    className={`rounded-md border p-3 text-sm ${i.author === "company" ? "ml-6 bg-muted/40" : "mr-6"}`}
                  >
                    <div className="mb-1 flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
                      <span className="font-medium text-foreground">{t(`ticket.author.${i.author}`)}</span>
                      <Badge variant={i.visibility === "private" ? "warning" : "outline"}>{t(`ticket.visibility.${i.visibility}`)}</Badge>
                      <span>{formatDate(i.created_at, lng, true)}</span>
                    </div>
                    <p className="whitespace-pre-wrap">{i.body}</p>
                  </li>
                ))}
              </ol>
              {c.interactions.length === 0 ? <p className="text-sm text-muted-foreground">{t("ticket.noInteractions")}</p> : null}
            </CardContent>
          </Card>
          {canAnswer ? (
            <>
              <Card>
                <CardHeader>
                  <CardTitle>
                    <h2>{t("ticket.public.title")}</h2>
                  </CardTitle>
                  <CardDescription>{t("ticket.public.hint")}</CardDescription>
                </CardHeader>
                <CardContent>
                  {c.status === "evaluated" ? (
                    <p className="text-sm text-muted-foreground">{t("ticket.public.closed")}</p>
                  ) : (
                    <AnswerForm visibility="public" reply={reply} busy={busy} />
                  )}
                </CardContent>
              </Card>
              <Card>
                <CardHeader>
                  <CardTitle>
                    <h2>{t("ticket.private.title")}</h2>
                  </CardTitle>
                  <CardDescription>{t("ticket.private.hint")}</CardDescription>
                </CardHeader>
                <CardContent>
                  <AnswerForm visibility="private" reply={reply} busy={busy} />
                </CardContent>
              </Card>
            </>
          ) : null}
        </div>
        <Card>
          <CardHeader>
            <CardTitle>
              <h2>{t("ticket.details")}</h2>
            </CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-2 text-sm">
              <dt className="text-muted-foreground">{t("list.status")}</dt>
              <dd>
                <RaStatusBadge status={c.status} />
              </dd>
              <dt className="text-muted-foreground">{t("ticket.raId")}</dt>
              <dd>#{c.ra_id}</dd>
              <dt className="text-muted-foreground">{t("list.consumer")}</dt>
              <dd>{c.consumer_name ?? "—"}</dd>
              <dt className="text-muted-foreground">{t("ticket.email")}</dt>
              <dd className="break-all">{c.consumer_email ?? "—"}</dd>
              <dt className="text-muted-foreground">{t("ticket.phone")}</dt>
              <dd>{c.consumer_phone ?? "—"}</dd>
              <dt className="text-muted-foreground">{t("ticket.firstAnswer")}</dt>
              <dd>{c.first_answer_at ? formatDate(c.first_answer_at, lng, true) : "—"}</dd>
              <dt className="text-muted-foreground">{t("list.score")}</dt>
              <dd data-score>{c.score ?? "—"}</dd>
              <dt className="text-muted-foreground">{t("ticket.resolved")}</dt>
              <dd>{c.resolved === null ? "—" : t(c.resolved ? "ticket.yes" : "ticket.no")}</dd>
              <dt className="text-muted-foreground">{t("ticket.wouldReturn")}</dt>
              <dd>{c.would_return === null ? "—" : t(c.would_return ? "ticket.yes" : "ticket.no")}</dd>
            </dl>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
