/**
 * The parts both sides' ticket screens share (routes/support/ and the admin ticket screens): the
 * status badge, the conversation with its attachments, and the message form (multipart: a
 * message and an optional file; a plain form that works without JavaScript, the text fields
 * before the file so the server reads them first).
 */
import { Form, useRouteLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { CsrfInput, ErrorText, FormErrors } from "~/components/forms/fields";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Label } from "~/components/ui/label";
import { Textarea } from "~/components/ui/textarea";
import { formatDate } from "~/lib/format";
import { useTranslation } from "~/lib/react-i18n";
import type { RootData } from "~/root";

export type ThreadMessage = {
  id: string;
  side: "customer" | "staff";
  body: string;
  author_name: string | null;
  created_at: string;
  files: Array<{ id: string; name: string; size: number; url: string }>;
};

const VARIANT = { open: "warning", in_progress: "secondary", answered: "success", closed: "outline" } as const;

export function TicketStatus({ status }: { status: string }) {
  const { t } = useTranslation("support");
  return (
    <Badge variant={VARIANT[status as keyof typeof VARIANT] ?? "outline"} data-status={status}>
      {t(`statuses.${status}`)}
    </Badge>
  );
}

export function useLng() {
  return useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR";
}

/** The conversation, oldest first; each message says its side, author and time, its files as download links. */
export function Thread({ messages, viewer }: { messages: ThreadMessage[]; viewer: "customer" | "staff" }) {
  const { t } = useTranslation("support");
  const lng = useLng();
  if (messages.length === 0) return <p className="text-sm text-muted-foreground">{t("ticket.noMessages")}</p>;
  return (
    <ol className="space-y-3" aria-label={t("ticket.thread")}>
      {messages.map((m) => (
        <li key={m.id} data-message-id={m.id} data-side={m.side} className={`rounded-md border p-3 text-sm ${m.side === viewer ? "ml-6 bg-muted/40" : "mr-6 bg-background"}`}>
          <p className="mb-1 text-xs text-muted-foreground">
            <span className="font-medium text-foreground">{m.author_name ?? t(`sides.${m.side}`)}</span> · {t(`sides.${m.side}`)} ·{" "}
            <time dateTime={m.created_at}>{formatDate(m.created_at, lng, true)}</time>
          </p>
          <p className="whitespace-pre-wrap break-words">{m.body}</p>
          {m.files.length ? (
            <ul className="mt-2 space-y-1">
              {m.files.map((f) => (
                <li key={f.id}>
                  <a href={f.url} className="text-xs underline" download={f.name} aria-label={t("ticket.download", { name: f.name })}>
                    {f.name}
                  </a>{" "}
                  <span className="text-xs text-muted-foreground">{t("ticket.kb", { size: Math.max(1, Math.round(f.size / 1024)) })}</span>
                </li>
              ))}
            </ul>
          ) : null}
        </li>
      ))}
    </ol>
  );
}

/** The message form: `intent` "reply", a message, an optional file, and whatever `extra` fields the side adds (the staff's status). */
export function MessageForm({
  idPrefix,
  errors,
  formErrors,
  busy,
  label,
  submit,
  maxLength,
  fileHint,
  accept,
  extra,
}: {
  idPrefix: string;
  errors?: Record<string, string[] | null | undefined>;
  formErrors?: string[] | null;
  busy: boolean;
  label: string;
  submit: string;
  maxLength: number;
  fileHint: string;
  accept: string;
  extra?: ReactNode;
}) {
  const { t } = useTranslation("support");
  return (
    <Form method="post" encType="multipart/form-data" className="space-y-3" aria-label={t("ticket.reply")}>
      <CsrfInput />
      <input type="hidden" name="intent" value="reply" />
      <FormErrors errors={formErrors} />
      <div className="grid gap-1.5">
        <Label htmlFor={`${idPrefix}-message`}>{label}</Label>
        <Textarea
          id={`${idPrefix}-message`}
          name="message"
          rows={4}
          maxLength={maxLength}
          aria-invalid={Boolean(errors?.message?.length) || undefined}
          aria-describedby={errors?.message?.length ? `${idPrefix}-message-error` : undefined}
        />
        <ErrorText id={`${idPrefix}-message-error`} errors={errors?.message} />
      </div>
      {extra}
      <div className="grid gap-1.5">
        <Label htmlFor={`${idPrefix}-file`}>{t("form.file")}</Label>
        <input
          id={`${idPrefix}-file`}
          name="file"
          type="file"
          accept={accept}
          aria-describedby={`${idPrefix}-file-hint${errors?.file?.length ? ` ${idPrefix}-file-error` : ""}`}
          className="block w-full text-sm file:mr-2 file:rounded-md file:border file:bg-background file:px-3 file:py-1 file:text-sm"
        />
        <p id={`${idPrefix}-file-hint`} className="text-xs text-muted-foreground">
          {fileHint}
        </p>
        <ErrorText id={`${idPrefix}-file-error`} errors={errors?.file} />
      </div>
      <Button type="submit" disabled={busy}>
        {submit}
      </Button>
    </Form>
  );
}
