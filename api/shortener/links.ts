/**
 * Short links (issue 22, ADR 057; spec: "Shortened link: title, original_url, slug (optional),
 * domain"). Use-cases for the API (./routes.ts) and the /shortener screens: create, read with its
 * click count, list, delete, QR code. Scoped by account: another account's link is not found.
 * Whoever reaches /shortener/links (the policy) reads and writes them; changes are audited.
 */
import QRCode from "qrcode";
import type { Transaction } from "sequelize";
import { sequelize } from "../../models";
import { recordAudit } from "../audit/record";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { assertId } from "../lib/owned";
import { keyset, pageInput } from "../lib/page";
import { escapeLike, row, rows } from "../lib/sql";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import { timeIdCursor, POSITION_SQL } from "../sms/cursor";
import { allow } from "../sms/reports";
import { CUSTOM_SLUG, defaultShortDomain, generateSlug, originalUrlProblem, platformShortDomains, shortUrl } from "./fields";
import { forget } from "./redirect";

export const LINKS_SCREEN = "/shortener/links";

export type ShortLink = {
  id: string;
  title: string;
  original_url: string;
  domain: string;
  slug: string;
  custom_slug: boolean;
  short_url: string;
  clicks: number;
  created_at: Date;
};
type LinkRow = Omit<ShortLink, "short_url" | "clicks"> & { clicks: string | number };

const BASE_COLUMNS = "l.id, l.title, l.original_url, l.domain, l.slug, l.custom_slug, l.created_at";
const COLUMNS = `${BASE_COLUMNS}, (SELECT count(*) FROM shortener_clicks c WHERE c.link_id = l.id) AS clicks`;
const present = ({ clicks, ...r }: LinkRow): ShortLink => ({ ...r, short_url: shortUrl(r.domain, r.slug), clicks: Number(clicks) });

const blankToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

/** The create form's and the API's fields (the same schema validates the form in the browser). */
export const createLinkSchema = z.object({
  title: z.string().trim().min(1, "validation.required").max(120, "validation.maxLength::120"),
  original_url: z
    .string()
    .trim()
    .min(1, "validation.required")
    .superRefine((v, ctx) => {
      const problem = originalUrlProblem(v);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
  slug: z.preprocess(blankToUndefined, z.string().trim().regex(CUSTOM_SLUG, "shortener.errors.slugFormat").optional()),
  domain: z.preprocess(blankToUndefined, z.string().trim().toLowerCase().max(253).optional()),
});
export type CreateLinkInput = z.input<typeof createLinkSchema>;

const slugTaken = () => new AppError("SLUG_TAKEN", { fields: { slug: ["shortener.errors.slugTaken"] } });

/** POST: a short link of the account; a custom slug taken on its domain is a 409 on `slug`. */
export async function createLink(ctx: SignedInCtx, input: unknown): Promise<{ data: ShortLink }> {
  allow(ctx, LINKS_SCREEN);
  const d = validate(createLinkSchema, input ?? {});
  const domain = d.domain ?? defaultShortDomain();
  if (!platformShortDomains().includes(domain)) throw new AppError("VALIDATION", { fields: { domain: ["shortener.errors.domain"] } });
  const originalUrl = new URL(d.original_url).href;
  const created = await sequelize().transaction(async (transaction) => {
    // A generated slug that happens to be taken is drawn again (62^7 slugs: practically never twice).
    for (let attempt = 0; attempt < 5; attempt++) {
      const slug = d.slug ?? generateSlug();
      const r = await row<LinkRow>(
        `INSERT INTO shortener_links AS l (account_id, title, original_url, domain, slug, custom_slug, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (domain, slug) DO NOTHING
         RETURNING ${BASE_COLUMNS}, 0 AS clicks`,
        [ctx.actor.accountId, d.title, originalUrl, domain, slug, d.slug !== undefined, ctx.actor.userId],
        { transaction },
      );
      if (r) {
        await recordAudit({ ...ctx, transaction }, "shortener.link_created", { meta: { id: r.id, domain, slug } });
        return r;
      }
      if (d.slug !== undefined) throw slugTaken();
    }
    throw new AppError("INTERNAL", { message: "no free slug after 5 draws" });
  });
  // A visit before the link existed may have cached "no such slug".
  await forget(created.domain, created.slug);
  return { data: present(created) };
}

/** GET one: a link of the account with its click count (404 otherwise). */
export async function getLink(ctx: SignedInCtx, id: string, transaction?: Transaction): Promise<{ data: ShortLink }> {
  allow(ctx, LINKS_SCREEN);
  assertId(id);
  const r = await row<LinkRow>(`SELECT ${COLUMNS} FROM shortener_links l WHERE l.id = $1 AND l.account_id = $2`, [id, ctx.actor.accountId], { transaction });
  if (!r) throw new AppError("NOT_FOUND");
  return { data: present(r) };
}

const listSchema = z.object({ q: z.string().trim().max(100, "validation.maxLength::100").optional(), ...pageInput });

/** GET list: the account's links, newest first, by part of the title, slug or original URL. */
export async function listLinks(ctx: SignedInCtx, input: unknown = {}) {
  allow(ctx, LINKS_SCREEN);
  const q = validate(listSchema, input ?? {});
  const after = timeIdCursor(q.cursor);
  const found = await rows<LinkRow & { position: string }>(
    `SELECT ${COLUMNS}, ${POSITION_SQL("l.created_at")} AS position FROM shortener_links l
      WHERE l.account_id = $1
        AND ($2::text IS NULL OR l.title ILIKE '%' || $2 || '%' OR l.slug ILIKE '%' || $2 || '%' OR l.original_url ILIKE '%' || $2 || '%')
        ${after ? "AND (l.created_at, l.id) < ($4::timestamptz, $5::uuid)" : ""}
      ORDER BY l.created_at DESC, l.id DESC LIMIT $3`,
    [ctx.actor.accountId, q.q ? escapeLike(q.q) : null, q.limit + 1, ...(after ?? [])],
  );
  return keyset(
    found,
    q.limit,
    (r) => [r.position, r.id],
    ({ position: _p, ...r }) => present(r),
  );
}

/** DELETE: a link of the account, its clicks with it; the redirect stops at once (its cached answer dropped). */
export async function deleteLink(ctx: SignedInCtx, id: string): Promise<{ deleted: number }> {
  allow(ctx, LINKS_SCREEN);
  assertId(id);
  const gone = await sequelize().transaction(async (transaction) => {
    const g = await row<{ domain: string; slug: string }>(`DELETE FROM shortener_links WHERE id = $1 AND account_id = $2 RETURNING domain, slug`, [id, ctx.actor.accountId], {
      transaction,
    });
    if (!g) throw new AppError("NOT_FOUND");
    await recordAudit({ ...ctx, transaction }, "shortener.link_deleted", { meta: { id, domain: g.domain, slug: g.slug } });
    return g;
  });
  await forget(gone.domain, gone.slug);
  return { deleted: 1 };
}

/** The QR code of a link's short URL: SVG (the page shows it inline; a download) or PNG (512 px). */
export async function linkQr(ctx: SignedInCtx, id: string, format: "svg" | "png"): Promise<{ link: ShortLink; body: string | Uint8Array }> {
  const { data } = await getLink(ctx, id);
  const body =
    format === "svg" ? await qrSvg(data.short_url) : new Uint8Array(await QRCode.toBuffer(data.short_url, { type: "png", width: 512, margin: 2, errorCorrectionLevel: "M" }));
  return { link: data, body };
}

/** An SVG QR code of `text` (server-side: no library reaches the browser). */
export function qrSvg(text: string): Promise<string> {
  return QRCode.toString(text, { type: "svg", margin: 2, errorCorrectionLevel: "M" });
}

/**
 * The QR code of `text` as one SVG path over a size×size grid (a dark module is a 1×1 square), for
 * a screen to draw as JSX: the page gets no QR library and no HTML from a string.
 */
export function qrPath(text: string): { size: number; d: string } {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: "M" });
  let d = "";
  for (let y = 0; y < modules.size; y++) {
    for (let x = 0; x < modules.size; x++) if (modules.get(x, y)) d += `M${x} ${y}h1v1h-1z`;
  }
  return { size: modules.size, d };
}
