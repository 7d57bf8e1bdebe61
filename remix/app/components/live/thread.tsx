/**
 * The open room's thread: messages (markup rendered safely), attachments by type, status ticks on
 * the agent's messages. Server-rendered as a plain list (works without JavaScript); once hydrated
 * it is virtualized with @tanstack/react-virtual, loads older pages when scrolled to the top and
 * follows new messages while the agent is near the end.
 */
import { useVirtualizer } from "@tanstack/react-virtual";
import { AlertCircle, Check, CheckCheck, Clock, FileText } from "lucide-react";
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { useTranslation } from "~/lib/react-i18n";
import type { MessageView } from "~/lib/live-state";
import { renderMarkup } from "~/lib/markup";
import { formatDate } from "~/lib/format";
import type { Lng } from "~/lib/i18n";
import { cn } from "~/lib/utils";

const useIsoLayoutEffect = typeof window === "undefined" ? useEffect : useLayoutEffect;

export function StatusTicks({ status }: { status: MessageView["status"] }) {
  const { t } = useTranslation("liveDesk");
  const label = t(`messageStatus.${status}`);
  const common = "size-3.5 shrink-0";
  const icon =
    status === "PENDING" ? (
      <Clock className={common} aria-hidden="true" />
    ) : status === "SENT" ? (
      <Check className={common} aria-hidden="true" />
    ) : status === "DELIVERED" ? (
      <CheckCheck className={common} aria-hidden="true" />
    ) : status === "READ" ? (
      <CheckCheck className={cn(common, "text-sky-500")} aria-hidden="true" />
    ) : (
      <AlertCircle className={cn(common, "text-destructive")} aria-hidden="true" />
    );
  return (
    <span title={label} data-status={status} className="inline-flex items-center">
      {icon}
      <span className="sr-only">{label}</span>
    </span>
  );
}

function Attachments({ items }: { items: MessageView["attachments"] }) {
  const { t } = useTranslation("liveDesk");
  if (!items?.length) return null;
  return (
    <div className="mt-1 space-y-1">
      {items.map((a, i) => {
        const key = `${a.uri}-${i}`;
        switch (a.type) {
          case "image":
            return (
              <a key={key} href={a.uri} target="_blank" rel="noopener noreferrer">
                <img src={a.uri} alt={a.name || t("attachment.image")} loading="lazy" className="max-h-64 max-w-full rounded" />
              </a>
            );
          case "sticker":
            return <img key={key} src={a.uri} alt={t("attachment.sticker")} loading="lazy" className="size-32 object-contain" />;
          case "audio":
            // biome-ignore lint/a11y/useMediaCaption: a recording someone sent in the chat: no captions exist for it
            return <audio key={key} controls preload="none" src={a.uri} className="max-w-full" aria-label={a.name || t("attachment.audio")} />;
          case "video":
            // biome-ignore lint/a11y/useMediaCaption: a video someone sent in the chat: no captions exist for it
            return <video key={key} controls preload="metadata" src={a.uri} className="max-h-64 max-w-full rounded" aria-label={a.name || t("attachment.video")} />;
          default:
            return (
              <a key={key} href={a.uri} target="_blank" rel="noopener noreferrer" className="inline-flex items-center gap-1 underline">
                <FileText className="size-4" aria-hidden="true" />
                {a.name || t("attachment.document")}
              </a>
            );
        }
      })}
    </div>
  );
}

/** Suggestion buttons as the visitor sees them (in the thread and the composer's preview: not clickable here). */
export function SuggestionChips({ items }: { items: readonly string[] }) {
  const { t } = useTranslation("liveDesk");
  return (
    <ul className="mt-1 flex flex-wrap gap-1" aria-label={t("composer.suggestions.summary")} data-suggestions>
      {items.map((s) => (
        <li key={s} className="rounded-full border border-primary/40 px-2 py-0.5 text-xs text-primary">
          {s}
        </li>
      ))}
    </ul>
  );
}

export function MessageBubble({ m, lng, authorName }: { m: MessageView; lng: Lng; authorName?: string }) {
  const { t } = useTranslation("liveDesk");
  const mine = m.author === "agent" || m.author === "bot";
  if (m.author === "system") {
    return (
      <p className="py-1 text-center text-xs text-muted-foreground" data-message={m.id}>
        {m.body}
      </p>
    );
  }
  return (
    <div className={cn("flex py-1", mine ? "justify-end" : "justify-start")} data-message={m.id} data-author={m.author}>
      <div className={cn("max-w-[75%] rounded-lg px-3 py-2 text-sm shadow-xs", mine ? "bg-primary/10" : "bg-muted")}>
        {authorName || m.author === "bot" ? <p className="mb-0.5 text-xs font-medium text-muted-foreground">{authorName ?? t("thread.bot")}</p> : null}
        {m.status === "DELETED" ? (
          <p className="italic text-muted-foreground">{t("thread.deleted")}</p>
        ) : (
          <div
            className="break-words [&_a]:underline [&_code]:rounded [&_code]:bg-background/60 [&_code]:px-1 [&_pre]:overflow-x-auto"
            // biome-ignore lint/security/noDangerouslySetInnerHtml: renderMarkup escapes every character of the body first and only then adds its own tags (remix/app/lib/markup.ts, tested)
            dangerouslySetInnerHTML={{ __html: renderMarkup(m.body) }}
          />
        )}
        <Attachments items={m.attachments} />
        {m.suggestions?.length ? <SuggestionChips items={m.suggestions} /> : null}
        <p className="mt-1 flex items-center justify-end gap-1 text-[0.7rem] text-muted-foreground">
          {m.edited ? <span>{t("thread.edited")}</span> : null}
          <time dateTime={m.created_at}>{formatDate(m.created_at, lng, true)}</time>
          {mine ? <StatusTicks status={m.status} /> : null}
        </p>
      </div>
    </div>
  );
}

export function Thread({
  messages,
  more,
  lng,
  olderHref,
  onLoadOlder,
  loadingOlder,
  names,
}: {
  messages: MessageView[];
  more: boolean;
  lng: Lng;
  /** Without JavaScript: a link to the previous page. */
  olderHref: string | null;
  onLoadOlder?: () => void;
  loadingOlder?: boolean;
  names: Record<string, string>;
}) {
  const { t } = useTranslation("liveDesk");
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const authorName = (m: MessageView) => (m.author === "agent" && m.user_id ? names[m.user_id] : undefined);

  if (!hydrated) {
    return (
      <div className="flex-1 overflow-y-auto px-4 py-2" data-testid="thread" role="log" aria-label={t("thread.label")}>
        {more && olderHref ? (
          <p className="py-2 text-center">
            <a href={olderHref} className="text-sm underline">
              {t("thread.older")}
            </a>
          </p>
        ) : null}
        {messages.length === 0 ? <p className="py-8 text-center text-sm text-muted-foreground">{t("thread.empty")}</p> : null}
        {messages.map((m) => (
          <MessageBubble key={m.id} m={m} lng={lng} authorName={authorName(m)} />
        ))}
      </div>
    );
  }
  return <VirtualThread messages={messages} more={more} lng={lng} onLoadOlder={onLoadOlder} loadingOlder={loadingOlder} authorName={authorName} />;
}

/** Spec section 9: the thread follows new messages when within 600 px of the end. */
const AUTO_SCROLL_PX = 600;

function VirtualThread({
  messages,
  more,
  lng,
  onLoadOlder,
  loadingOlder,
  authorName,
}: {
  messages: MessageView[];
  more: boolean;
  lng: Lng;
  onLoadOlder?: () => void;
  loadingOlder?: boolean;
  authorName: (m: MessageView) => string | undefined;
}) {
  const { t } = useTranslation("liveDesk");
  const parent = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: messages.length,
    getScrollElement: () => parent.current,
    estimateSize: () => 72,
    overscan: 8,
    getItemKey: (i) => messages[i].id,
  });
  const firstId = messages[0]?.id;
  const lastId = messages.at(-1)?.id;
  const prevFirst = useRef(firstId);
  const prevCount = useRef(messages.length);
  const nearEnd = useRef(true);

  useIsoLayoutEffect(() => {
    const added = messages.length - prevCount.current;
    if (prevFirst.current !== firstId && added > 0 && prevFirst.current) {
      // An older page arrived on top: keep the message the agent was reading in place.
      const index = messages.findIndex((m) => m.id === prevFirst.current);
      if (index > 0) virtualizer.scrollToIndex(index, { align: "start" });
    } else if ((nearEnd.current || lastId?.startsWith("pending:")) && messages.length) {
      // Follow the conversation when the agent was near the end (spec: within 600 px) or just wrote.
      virtualizer.scrollToIndex(messages.length - 1, { align: "end" });
    }
    prevFirst.current = firstId;
    prevCount.current = messages.length;
  }, [firstId, lastId, messages.length]);

  const onScroll = () => {
    const el = parent.current;
    if (!el) return;
    nearEnd.current = el.scrollHeight - el.scrollTop - el.clientHeight < AUTO_SCROLL_PX;
    if (el.scrollTop < 80 && more && !loadingOlder) onLoadOlder?.();
  };

  return (
    <div
      ref={parent}
      onScroll={onScroll}
      className="flex-1 overflow-y-auto px-4 py-2"
      data-testid="thread"
      role="log"
      aria-label={t("thread.label")}
      aria-busy={loadingOlder || undefined}
    >
      {more ? <p className="py-1 text-center text-xs text-muted-foreground">{loadingOlder ? t("thread.loading") : t("thread.scrollOlder")}</p> : null}
      {messages.length === 0 ? <p className="py-8 text-center text-sm text-muted-foreground">{t("thread.empty")}</p> : null}
      <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
        {virtualizer.getVirtualItems().map((item) => {
          const m = messages[item.index];
          return (
            <div
              key={item.key}
              data-index={item.index}
              ref={virtualizer.measureElement}
              style={{ position: "absolute", top: 0, left: 0, width: "100%", transform: `translateY(${item.start}px)` }}
            >
              <MessageBubble m={m} lng={lng} authorName={authorName(m)} />
            </div>
          );
        })}
      </div>
    </div>
  );
}
