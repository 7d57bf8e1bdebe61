/** Loader and action of the anti-fraud screens (/sms/antifraude for the account, /admin/antifraud for platform staff). */
import type { SignedInCtx } from "../../../../api/lib/context";
import { z } from "../../../../api/lib/zod";
import { isModerationStaff } from "../../../../api/moderation/access";
import { approve, getApproval, listApprovals, reject, updateApprovalNote } from "../../../../api/moderation/approvals";
import type { TermKind } from "../../../../api/moderation/match";
import { approvalNoteSchema, rejectSchema } from "../../../../api/moderation/schemas";
import { addTerm, listTerms, removeTerm } from "../../../../api/moderation/terms";
import { orHttpError } from "~/lib/auth.server";
import { handleForm } from "~/lib/forms.server";
import { redirectWithToast } from "~/lib/toast.server";

const kind = z.enum(["word", "url"], "validation.option");
const target = z.object({ kind, id: z.string().min(1, "validation.required") });

export async function loadReviews(ctx: SignedInCtx, url: URL, opts: { terms: boolean }) {
  const status = url.searchParams.get("status") ?? "pending";
  const query = { status: status === "all" ? "" : status, page: url.searchParams.get("page") ?? undefined };
  const staff = isModerationStaff(ctx.actor);
  const groups = await Promise.all(
    (["word", "url"] as TermKind[]).map(async (k) => {
      const list = await orHttpError(listApprovals(ctx, k, query));
      const detailed = await Promise.all(list.data.map(async (a) => (await orHttpError(getApproval(ctx, k, a.id))).data));
      return { kind: k, approvals: detailed, page: list.page, lastPage: list.last_page };
    }),
  );
  const terms = opts.terms && staff ? { word: (await orHttpError(listTerms(ctx, "word"))).data, url: (await orHttpError(listTerms(ctx, "url"))).data } : null;
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
