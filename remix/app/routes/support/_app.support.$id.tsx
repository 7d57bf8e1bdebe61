/**
 * /support/{id} (issue 23, ADR 061): one ticket of the account — its details, the conversation
 * with attachments, the message form (a message and/or a file; the platform's turn again), "Close
 * ticket" while it is open, and once closed the rating form (0 to 5, a comment, once). Plain forms
 * switched by `intent`; everything works without JavaScript; each success redirects with a toast.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "~api/lib/zod";
import { COMMENT_MAX, FILE_ACCEPT, FILE_MAX_BYTES, MESSAGE_MAX, RATING_MAX, RATING_MIN } from "~api/support/constants";
import { closeTicket, getTicket, rateSchema, rateTicket, replySchema, replyToTicket } from "~api/support/tickets";
import { CsrfInput, ErrorText, FormErrors } from "~/components/forms/fields";
import { IntentForm } from "~/components/forms/intent-form";
import { PageHeader } from "~/components/shell/page-header";
import { MessageForm, Thread, TicketStatus, useLng } from "~/components/support/ticket-parts";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Label } from "~/components/ui/label";
import { Textarea } from "~/components/ui/textarea";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { formatDate } from "~/lib/format";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { useTranslation } from "~/lib/react-i18n";
import { formWithFile } from "~/lib/support.server";
import { redirectWithToast } from "~/lib/toast.server";

export const handle = {
  crumb: (data: unknown) => ({ key: "support:ticket.title", params: { number: (data as { ticket?: { number?: number } } | undefined)?.ticket?.number ?? "" } }),
};

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request, "/support");
  const { data } = await orHttpError(getTicket(ctx, params.id ?? ""));
  return json({ ticket: data }, { headers: { "Cache-Control": "private, no-store" } });
}

const closeSchema = z.object({ intent: z.literal("close") });
const rateFormSchema = rateSchema.extend({ intent: z.literal("rate") });

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireRoute(request, "/support");
  const id = params.id ?? "";
  const path = `/support/${id}`;
  if (/^multipart\/form-data;/i.test(request.headers.get("Content-Type") ?? "")) {
    return formWithFile(request, replySchema.partial().extend({ intent: z.literal("reply") }), async ({ intent: _i, ...v }, file) => {
      await replyToTicket(ctx, id, v, file);
      return redirectWithToast(request, path, { type: "success", title: "support:ticket.sent" });
    });
  }
  const intent = (await request.clone().formData()).get("intent");
  if (intent === "close") {
    return handleForm(request, closeSchema, async () => {
      await closeTicket(ctx, id);
      return redirectWithToast(request, path, { type: "success", title: "support:ticket.closedToast" });
    });
  }
  return handleForm(request, rateFormSchema, async ({ intent: _i, ...v }) => {
    await rateTicket(ctx, id, v);
    return redirectWithToast(request, path, { type: "success", title: "support:rating.thanks" });
  });
}

export default function SupportTicket() {
  const { ticket: k } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation("support");
  const lng = useLng();
  const sent = (last?.result.initialValue ?? {}) as Record<string, string>;
  const errorsOf = (intent: string) => (sent.intent === intent || (!sent.intent && intent === "reply") ? last?.result.error : undefined);
  const closed = k.status === "closed";
  return (
    <div className="space-y-6" data-ticket-id={k.id}>
      <PageHeader
        description={k.subject}
        actions={
          <Button asChild variant="outline" size="sm">
            <Link to="/support">{t("allTickets")}</Link>
          </Button>
        }
      />
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <Card className="min-w-0">
          <CardHeader>
            <CardTitle>
              <h2>{t("ticket.thread")}</h2>
            </CardTitle>
          </CardHeader>
          <CardContent className="space-y-6">
            <Thread messages={k.thread} viewer="customer" />
            {closed ? (
              <p className="rounded-md border bg-muted/40 p-3 text-sm" data-closed>
                {t("ticket.closedNote")}
              </p>
            ) : (
              <MessageForm
                idPrefix="reply"
                errors={errorsOf("reply") ?? undefined}
                formErrors={errorsOf("reply")?.[""]}
                busy={busy}
                label={t("ticket.message")}
                submit={t("ticket.send")}
                maxLength={MESSAGE_MAX}
                accept={FILE_ACCEPT}
                fileHint={t("form.fileHint", { mb: FILE_MAX_BYTES / (1024 * 1024) })}
              />
            )}
          </CardContent>
        </Card>
        <div className="space-y-6">
          <Card>
            <CardHeader>
              <CardTitle>
                <h2>{t("ticket.details")}</h2>
              </CardTitle>
            </CardHeader>
            <CardContent>
              <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-2 text-sm">
                <dt className="text-muted-foreground">{t("ticket.status")}</dt>
                <dd>
                  <TicketStatus status={k.status} />
                </dd>
                <dt className="text-muted-foreground">{t("ticket.category")}</dt>
                <dd>{t(`categories.${k.category}`)}</dd>
                <dt className="text-muted-foreground">{t("ticket.assigned")}</dt>
                <dd>{k.assigned_to_name ?? t("ticket.nobody")}</dd>
              </dl>
              <p className="mt-3 text-xs text-muted-foreground">
                {t("ticket.openedBy", { name: k.opened_by_name ?? k.opened_by_email ?? "—", date: formatDate(k.created_at, lng, true) })}
              </p>
            </CardContent>
          </Card>
          {!closed ? (
            <Card>
              <CardHeader>
                <CardDescription>{t("ticket.closeHint")}</CardDescription>
              </CardHeader>
              <CardContent>
                <FormErrors errors={errorsOf("close")?.[""]} />
                <IntentForm intent="close">
                  <Button type="submit" variant="outline" disabled={busy}>
                    {t("ticket.close")}
                  </Button>
                </IntentForm>
              </CardContent>
            </Card>
          ) : (
            <Card>
              <CardHeader>
                <CardTitle>
                  <h2>{t("rating.title")}</h2>
                </CardTitle>
                <CardDescription>{t("rating.description")}</CardDescription>
              </CardHeader>
              <CardContent>
                {k.rating !== null ? (
                  <div className="space-y-1 text-sm" data-rating={k.rating}>
                    <p className="font-medium">{t("rating.value", { rating: k.rating })}</p>
                    {k.rating_comment ? <p className="whitespace-pre-wrap text-muted-foreground">{k.rating_comment}</p> : null}
                  </div>
                ) : (
                  <Form method="post" className="space-y-3" aria-label={t("rating.title")}>
                    <CsrfInput />
                    <input type="hidden" name="intent" value="rate" />
                    <FormErrors errors={errorsOf("rate")?.[""]} />
                    <fieldset className="space-y-1.5">
                      <legend className="text-sm font-medium">{t("rating.label")}</legend>
                      <div className="flex flex-wrap gap-3">
                        {Array.from({ length: RATING_MAX - RATING_MIN + 1 }, (_, i) => RATING_MIN + i).map((n) => (
                          <label key={n} className="flex items-center gap-1 text-sm">
                            <input type="radio" name="rating" value={n} required defaultChecked={sent.rating === String(n)} />
                            {n}
                          </label>
                        ))}
                      </div>
                      <ErrorText errors={errorsOf("rate")?.rating} />
                    </fieldset>
                    <div className="grid gap-1.5">
                      <Label htmlFor="rating-comment">{t("rating.comment")}</Label>
                      <Textarea id="rating-comment" name="comment" rows={3} maxLength={COMMENT_MAX} defaultValue={sent.comment ?? ""} />
                      <ErrorText errors={errorsOf("rate")?.comment} />
                    </div>
                    <Button type="submit" disabled={busy}>
                      {t("rating.submit")}
                    </Button>
                  </Form>
                )}
              </CardContent>
            </Card>
          )}
        </div>
      </div>
    </div>
  );
}
