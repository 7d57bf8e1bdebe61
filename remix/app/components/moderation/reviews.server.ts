/** Loader and action of the anti-fraud screens (/sms/antifraude for the account, /admin/antifraud for platform staff). */
import type { SignedInCtx } from "~api/lib/context";
import { z } from "~api/lib/zod";
import { isModerationStaff } from "~api/moderation/access";
import { approve, getApproval, listApprovals, reject, updateApprovalNote } from "~api/moderation/approvals";
import type { TermKind } from "~api/moderation/match";
import { approvalNoteSchema, rejectSchema } from "~api/moderation/schemas";
import { addTerm, listTerms, removeTerm, type ModerationTerm } from "~api/moderation/terms";
import { orHttpError } from "~/lib/auth.server";
import { handleForm } from "~/lib/forms.server";
import { redirectWithToast } from "~/lib/toast.server";

const kind = z.enum(["word", "url"], "validation.option");
const target = z.object({ kind, id: z.string().min(1, "validation.required") });

/** Reviews shown per kind and page (each is read with its held messages). */
const REVIEWS_PAGE = "20";

/** Every term of a kind (the API pages them; the staff screen lists them all). */
async function allTerms(ctx: SignedInCtx, kind: TermKind) {
  const out: ModerationTerm[] = [];
  let cursor: string | undefined;
  do {
    const page = await orHttpError(listTerms(ctx, kind, { limit: "200", cursor }));
    out.push(...page.data);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return out;
}

export async function loadReviews(ctx: SignedInCtx, url: URL, opts: { terms: boolean }) {
  const status = url.searchParams.get("status") ?? "pending";
  const staff = isModerationStaff(ctx.actor);
  const groups = await Promise.all(
    (["word", "url"] as TermKind[]).map(async (k) => {
      // Each kind pages on its own: ?word_cursor= / ?url_cursor= (the API's next_cursor).
      const cursor = url.searchParams.get(`${k}_cursor`) ?? undefined;
      const list = await orHttpError(listApprovals(ctx, k, { status: status === "all" ? "" : status, limit: REVIEWS_PAGE, cursor }));
      const detailed = await Promise.all(list.data.map(async (a) => (await orHttpError(getApproval(ctx, k, a.id))).data));
      return { kind: k, approvals: detailed, cursor: cursor ?? null, nextCursor: list.next_cursor };
    }),
  );
  const terms = opts.terms && staff ? { word: await allTerms(ctx, "word"), url: await allTerms(ctx, "url") } : null;
  return { status, staff, groups, terms };
}

export async function reviewAction(request: Request, ctx: SignedInCtx, here: string) {
  const intent = (await request.clone().formData()).get("intent");
  if (intent === "approve") {
    return handleForm(request, target.extend({ intent: z.literal("approve") }), async (v) => {
      const r = await approve(ctx, v.kind, v.id);
      return redirectWithToast(request, here, { type: "success", title: "moderation:approved", params: { count: r.released } });
    });
  }
  if (intent === "reject") {
    return handleForm(request, target.extend({ intent: z.literal("reject") }).merge(rejectSchema), async (v) => {
      const r = await reject(ctx, v.kind, v.id, { reason: v.reason });
      return redirectWithToast(request, here, { type: "success", title: "moderation:rejected", params: { count: r.rejected } });
    });
  }
  if (intent === "note") {
    return handleForm(request, target.extend({ intent: z.literal("note") }).merge(approvalNoteSchema), async (v) => {
      await updateApprovalNote(ctx, v.kind, v.id, { note: v.note });
      return redirectWithToast(request, here, { type: "success", title: "moderation:noteSaved" });
    });
  }
  if (intent === "remove-term") {
    return handleForm(request, target.extend({ intent: z.literal("remove-term") }), async (v) => {
      await removeTerm(ctx, v.kind, v.id);
      return redirectWithToast(request, here, { type: "success", title: "moderation:terms.removed" });
    });
  }
  const add = z.object({ intent: z.literal("add-term"), kind, value: z.string().min(1, "validation.required"), note: z.string().optional() });
  return handleForm(request, add, async (v) => {
    await addTerm(ctx, v.kind, { value: v.value, note: v.note });
    return redirectWithToast(request, here, { type: "success", title: "moderation:terms.added" });
  });
}
