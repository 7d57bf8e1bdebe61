/**
 * /admin/support/{id} (issue 23, ADR 061): one ticket for the platform's staff — the customer and
 * who opened it, the conversation, the answer form (a message and/or a file, and the status the
 * ticket takes with it: answered unless chosen), and the manage form (status and who is on it).
 * Plain forms switched by `intent`; everything works without JavaScript.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "~api/lib/zod";
import { FILE_ACCEPT, FILE_MAX_BYTES, MESSAGE_MAX, STATUSES } from "~api/support/constants";
import { answerTicket, assignableStaff, getTicketAsStaff, staffReplySchema, updateTicket } from "~api/support/tickets";
import { CsrfInput, ErrorText, FormErrors } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { MessageForm, Thread, TicketStatus, useLng } from "~/components/support/ticket-parts";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
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
  const ctx = await requireRoute(request, "/admin/tickets");
  const [{ data }, staff] = await Promise.all([orHttpError(getTicketAsStaff(ctx, params.id ?? "")), assignableStaff(ctx)]);
  return json({ ticket: data, staff }, { headers: { "Cache-Control": "private, no-store" } });
}

const manageSchema = z.object({ intent: z.literal("manage"), status: z.enum(STATUSES, { error: "validation.option" }), assigned_to: z.string().optional() });

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireRoute(request, "/admin/tickets");
  const id = params.id ?? "";
  const path = `/admin/support/${id}`;
  if (/^multipart\/form-data;/i.test(request.headers.get("Content-Type") ?? "")) {
    return formWithFile(request, staffReplySchema.partial().extend({ intent: z.literal("reply") }), async ({ intent: _i, ...v }, file) => {
      await answerTicket(ctx, id, v, file);
      return redirectWithToast(request, path, { type: "success", title: "support:admin.answered" });
    });
  }
  return handleForm(request, manageSchema, async ({ status, assigned_to }) => {
    await updateTicket(ctx, id, { status, assigned_to: assigned_to ?? "" });
    return redirectWithToast(request, path, { type: "success", title: "support:admin.saved" });
  });
}

export default function AdminTicket() {
  const { ticket: k, staff } = useLoaderData<typeof loader>();
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
            <Link to="/admin/tickets">{t("allTickets")}</Link>
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
            <Thread messages={k.thread} viewer="staff" />
            {closed ? (
              <p className="rounded-md border bg-muted/40 p-3 text-sm" data-closed>
                {k.rating === null ? t("statuses.closed") : t("rating.value", { rating: k.rating })}
                {k.rating_comment ? ` — ${k.rating_comment}` : ""}
              </p>
            ) : (
              <MessageForm
                idPrefix="answer"
                errors={errorsOf("reply") ?? undefined}
                formErrors={errorsOf("reply")?.[""]}
                busy={busy}
                label={t("admin.reply")}
                submit={t("ticket.send")}
                maxLength={MESSAGE_MAX}
                accept={FILE_ACCEPT}
                fileHint={t("form.fileHint", { mb: FILE_MAX_BYTES / (1024 * 1024) })}
                extra={
                  <div className="grid gap-1.5">
                    <Label htmlFor="answer-status">{t("admin.answerStatus")}</Label>
                    <NativeSelect id="answer-status" name="status" defaultValue="answered">
                      {STATUSES.map((s) => (
                        <NativeSelectOption key={s} value={s}>
                          {t(`statuses.${s}`)}
                        </NativeSelectOption>
                      ))}
                    </NativeSelect>
                  </div>
                }
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
                <dt className="text-muted-foreground">{t("ticket.customer")}</dt>
                <dd data-customer>{k.account_name}</dd>
                <dt className="text-muted-foreground">{t("ticket.status")}</dt>
                <dd>
                  <TicketStatus status={k.status} />
                </dd>
                <dt className="text-muted-foreground">{t("ticket.category")}</dt>
                <dd>{t(`categories.${k.category}`)}</dd>
                <dt className="text-muted-foreground">{t("list.columns.rating")}</dt>
                <dd>{k.rating === null ? t("rating.none") : t("rating.value", { rating: k.rating })}</dd>
              </dl>
              <p className="mt-3 text-xs text-muted-foreground">{t("ticket.openedBy", { name: k.opened_by_email ?? "—", date: formatDate(k.created_at, lng, true) })}</p>
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>
                <h2>{t("admin.manage")}</h2>
              </CardTitle>
            </CardHeader>
            <CardContent>
              <Form method="post" className="space-y-3" aria-label={t("admin.manage")}>
                <CsrfInput />
                <input type="hidden" name="intent" value="manage" />
                <FormErrors errors={errorsOf("manage")?.[""]} />
                <div className="grid gap-1.5">
                  <Label htmlFor="manage-status">{t("ticket.status")}</Label>
                  <NativeSelect id="manage-status" name="status" defaultValue={k.status}>
                    {STATUSES.map((s) => (
                      <NativeSelectOption key={s} value={s}>
                        {t(`statuses.${s}`)}
                      </NativeSelectOption>
                    ))}
                  </NativeSelect>
                  <ErrorText errors={errorsOf("manage")?.status} />
                </div>
                <div className="grid gap-1.5">
                  <Label htmlFor="manage-assigned">{t("ticket.assigned")}</Label>
                  <NativeSelect id="manage-assigned" name="assigned_to" defaultValue={k.assigned_to ?? ""}>
                    <NativeSelectOption value="">{t("admin.nobody")}</NativeSelectOption>
                    {staff.map((s) => (
                      <NativeSelectOption key={s.id} value={s.id}>
                        {s.name}
                      </NativeSelectOption>
                    ))}
                  </NativeSelect>
                  <ErrorText errors={errorsOf("manage")?.assigned_to} />
                </div>
                <Button type="submit" variant="outline" disabled={busy}>
                  {t("admin.save")}
                </Button>
              </Form>
            </CardContent>
          </Card>
        </div>
      </div>
    </div>
  );
}
