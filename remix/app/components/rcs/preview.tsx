/**
 * An RCS message as a handset shows it (spec section 2: text, link with buttons, media, standalone
 * card, card carousel), inside a phone-shaped frame with the agent's name, logo initial and color
 * in the header and the suggestion chips under the message. Pure React and Tailwind; used by the
 * composer (/rcs/send: live as one types, and server-rendered after "Preview" without JavaScript),
 * the success screen and the history detail (server-rendered, shows without JavaScript).
 *
 * Media links are the customer's URLs on other hosts: the page's Content-Security-Policy loads
 * images only from our own origin, so a picture comes through /rcs/media (fetched for the reader
 * by the guarded client, api/rcs/media-preview.ts) over a tile naming its file, which stays in
 * sight when the picture cannot be had (a host that does not answer, not an image): the <img> has
 * an empty alt, so a broken one draws nothing. Video, audio and other files are a file chip with
 * the link.
 */
import { useTranslation } from "~/lib/react-i18n";
import { cn } from "~/lib/utils";

/** A suggestion as the preview needs it (the composer's half-typed ones too: every field optional). */
export type PreviewSuggestion = { type?: string; text?: string; url?: string; phoneNumber?: string; title?: string };
export type PreviewCard = { uri?: string; title?: string; description?: string; suggestions?: PreviewSuggestion[] };
/** The spec's content (api/rcs/content.ts RcsContent), loosely: what is typed so far. */
export type PreviewContent = {
  type?: string;
  messageText?: string;
  messageDescription?: string;
  imageUrl?: string;
  fileUrl?: string;
  suggestions?: PreviewSuggestion[];
  images?: PreviewCard[];
};
export type PreviewAgent = { name: string; color?: string | null; logo_url?: string | null };

const HEX = /^#[0-9a-f]{6}$/i;

/** The handset's kind of a media link, by its path's extension (api/rcs/content.ts mediaKind, without importing the schema into the bundle). */
function kindOf(url: string): "image" | "video" | "audio" | "file" {
  let path = url.toLowerCase();
  try {
    path = new URL(url).pathname.toLowerCase();
  } catch {}
  if (/\.(jpe?g|png|gif|webp)$/.test(path)) return "image";
  if (/\.(mp4|webm)$/.test(path)) return "video";
  if (/\.mp3$/.test(path)) return "audio";
  return "file";
}

function fileName(url: string): string {
  try {
    const last = new URL(url).pathname.split("/").filter(Boolean).pop();
    return last ? decodeURIComponent(last) : url;
  } catch {
    return url;
  }
}

const safeHref = (url: string | undefined) => (url && /^https?:\/\//i.test(url) ? url : undefined);

const GLYPH: Record<string, string> = { url: "↗", dial: "☎", location: "⌖", calendar: "▦", reply: "" };

/** A picture (drawn as a tile naming its file, see the module comment) or a file chip, linking to the media. */
function Media({ url, tall }: { url: string; tall?: boolean }) {
  const { t } = useTranslation("rcs");
  const kind = kindOf(url);
  const href = safeHref(url);
  if (kind === "image") {
    return (
      <a
        href={href}
        target="_blank"
        rel="noopener noreferrer"
        className={cn(
          "relative flex w-full flex-col items-center justify-center gap-1 overflow-hidden bg-gradient-to-br from-slate-200 to-slate-300 px-2 text-center text-slate-600",
          tall ? "h-36" : "h-24",
        )}
        data-preview="image"
        title={url}
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" className="size-7" fill="none" stroke="currentColor" strokeWidth="1.5">
          <rect x="3" y="4" width="18" height="16" rx="2" />
          <circle cx="9" cy="10" r="2" />
          <path d="m21 17-5-5-8 8" />
        </svg>
        <span className="max-w-full truncate text-[11px]">{t("preview.image", { name: fileName(url) })}</span>
        {/^https:\/\//i.test(url) ? (
          <img src={`/rcs/media?u=${encodeURIComponent(url)}`} alt="" loading="lazy" className="absolute inset-0 size-full object-cover" data-preview="picture" />
        ) : null}
      </a>
    );
  }
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      className="flex items-center gap-2 rounded-lg border border-slate-200 bg-white px-3 py-2 text-xs text-slate-700"
      data-preview="file"
      title={url}
    >
      <span aria-hidden="true" className="grid size-7 shrink-0 place-items-center rounded bg-slate-100 text-[10px] font-semibold uppercase">
        {kind === "video" ? "▶" : kind === "audio" ? "♪" : (fileName(url).split(".").pop() ?? "").slice(0, 4)}
      </span>
      <span className="min-w-0">
        <span className="block truncate font-medium">{fileName(url)}</span>
        <span className="block text-[10px] text-slate-500">{t(`preview.kind.${kind}`)}</span>
      </span>
    </a>
  );
}

/** A card's button (its suggestions): a full-width line in the agent's color. */
function CardButtons({ suggestions, color }: { suggestions: PreviewSuggestion[]; color: string }) {
  if (!suggestions.length) return null;
  return (
    <ul className="divide-y divide-slate-100 border-t border-slate-100">
      {suggestions.map((s, i) => (
        <li key={i} className="truncate px-3 py-1.5 text-center text-xs font-medium" style={{ color }} data-preview="card-button">
          {GLYPH[s.type ?? ""] ? <span aria-hidden="true">{GLYPH[s.type ?? ""]} </span> : null}
          {s.text || "…"}
        </li>
      ))}
    </ul>
  );
}

function Bubble({ children, className }: { children: React.ReactNode; className?: string }) {
  return (
    <div className={cn("max-w-[85%] whitespace-pre-wrap break-words rounded-2xl rounded-tl-sm bg-white px-3 py-2 text-sm text-slate-900 shadow-sm", className)}>{children}</div>
  );
}

function CardView({ card, color, width }: { card: PreviewCard & { media?: string }; color: string; width?: string }) {
  return (
    <article className={cn("flex shrink-0 snap-start flex-col overflow-hidden rounded-2xl bg-white text-slate-900 shadow-sm", width ?? "w-[85%]")} data-preview="card">
      {card.media ? <Media url={card.media} tall={!width} /> : null}
      {card.title || card.description ? (
        <div className="space-y-0.5 px-3 py-2">
          {card.title ? (
            <h4 className="break-words text-sm font-semibold" data-preview="card-title">
              {card.title}
            </h4>
          ) : null}
          {card.description ? <p className="line-clamp-4 whitespace-pre-wrap break-words text-xs text-slate-600">{card.description}</p> : null}
        </div>
      ) : null}
      <div className="mt-auto">
        <CardButtons suggestions={card.suggestions ?? []} color={color} />
      </div>
    </article>
  );
}

/** The message body (without the chips). */
function Message({ content, color }: { content: PreviewContent; color: string }) {
  const { t } = useTranslation("rcs");
  const text = content.messageText?.trim();
  switch (content.type) {
    case "link": {
      const buttons = (content.suggestions ?? []).filter((s) => s.type === "url");
      return (
        <div className="max-w-[85%] overflow-hidden rounded-2xl rounded-tl-sm bg-white text-slate-900 shadow-sm" data-preview="link">
          <p className="whitespace-pre-wrap break-words px-3 py-2 text-sm">{text || "…"}</p>
          <CardButtons suggestions={buttons} color={color} />
        </div>
      );
    }
    case "midia": {
      const media = content.fileUrl?.trim() || content.imageUrl?.trim();
      return (
        <div className="space-y-1.5">
          {media ? (
            <div className={cn("max-w-[85%] overflow-hidden rounded-2xl", kindOf(media) === "image" ? "" : "bg-transparent")}>
              <Media url={media} tall />
            </div>
          ) : (
            <Bubble className="italic text-slate-500">{t("preview.noMedia")}</Bubble>
          )}
          {text ? <Bubble>{text}</Bubble> : null}
        </div>
      );
    }
    case "card":
      return (
        <CardView card={{ title: text, description: content.messageDescription?.trim(), media: content.imageUrl?.trim() || content.fileUrl?.trim() || undefined }} color={color} />
      );
    case "card-carousel": {
      const cards = content.images ?? [];
      if (!cards.length) return <Bubble className="italic text-slate-500">{t("preview.noCards")}</Bubble>;
      return (
        <section className="-mx-3 flex snap-x gap-2 overflow-x-auto px-3 pb-1" data-preview="carousel" aria-label={t("preview.carousel", { n: cards.length })}>
          {cards.map((c, i) => (
            <CardView key={i} card={{ ...c, media: c.uri?.trim() || undefined }} color={color} width="w-44" />
          ))}
        </section>
      );
    }
    default:
      return <Bubble>{text || "…"}</Bubble>;
  }
}

/**
 * The phone. `content` null or without a type: an empty conversation. `agent` null: a neutral
 * header. `compact`: a narrower frame (history lists).
 */
export function RcsPreview({ content, agent, className }: { content: PreviewContent | null; agent: PreviewAgent | null; className?: string }) {
  const { t } = useTranslation("rcs");
  const color = agent?.color && HEX.test(agent.color) ? agent.color : "#0A7CFF";
  const chips = content?.type === "link" ? (content.suggestions ?? []).filter((s) => s.type !== "url") : (content?.suggestions ?? []);
  const name = agent?.name || t("preview.agent");
  return (
    <figure
      className={cn("mx-auto w-full max-w-[320px] rounded-[2.25rem] border-[10px] border-slate-900 bg-slate-900 shadow-lg", className)}
      aria-label={t("preview.label")}
      data-testid="rcs-preview"
      data-type={content?.type ?? ""}
    >
      <div className="overflow-hidden rounded-[1.6rem] bg-slate-100">
        <div className="flex justify-center bg-white pt-1.5">
          <span aria-hidden="true" className="h-1.5 w-16 rounded-full bg-slate-300" />
        </div>
        <header className="flex items-center gap-2 border-b bg-white px-3 py-2">
          <span aria-hidden="true" className="grid size-8 shrink-0 place-items-center rounded-full text-sm font-semibold text-white" style={{ backgroundColor: color }}>
            {name.slice(0, 1).toUpperCase()}
          </span>
          <span className="min-w-0">
            <span className="block truncate text-sm font-semibold text-slate-900" data-preview="agent">
              {name}
            </span>
            <span className="flex items-center gap-1 text-[10px] text-slate-500">
              <span aria-hidden="true" style={{ color }}>
                ✔
              </span>
              {t("preview.verified")}
            </span>
          </span>
        </header>
        <div className="flex min-h-[360px] flex-col justify-end gap-2 overflow-hidden p-3">
          {content?.type ? (
            <>
              <Message content={content} color={color} />
              {chips.length ? (
                <ul className="-mx-3 flex gap-1.5 overflow-x-auto px-3 pb-1" aria-label={t("preview.suggestions")}>
                  {chips.map((s, i) => (
                    <li
                      key={i}
                      className="shrink-0 whitespace-nowrap rounded-full border bg-white px-3 py-1 text-xs font-medium"
                      style={{ borderColor: color, color }}
                      data-preview="chip"
                    >
                      {GLYPH[s.type ?? ""] ? <span aria-hidden="true">{GLYPH[s.type ?? ""]} </span> : null}
                      {s.text || "…"}
                    </li>
                  ))}
                </ul>
              ) : null}
            </>
          ) : (
            <p className="self-center text-xs text-slate-500">{t("preview.empty")}</p>
          )}
        </div>
      </div>
      <figcaption className="sr-only">{t("preview.caption", { name })}</figcaption>
    </figure>
  );
}
