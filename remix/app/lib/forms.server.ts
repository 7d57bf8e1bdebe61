/**
 * Thin adapter between a Remix action and a use-case: CSRF check, schema parse (the same zod
 * schema the browser validates with), the use-case call, AppError -> field/form errors.
 */
import { json } from "@remix-run/node";
import { parseWithZod } from "@conform-to/zod/v4";
import type { SubmissionResult } from "@conform-to/react";
import { z } from "~api/lib/zod";
import { AppError, isAppError } from "~api/lib/errors";
import { requireCsrf } from "./csrf.server";

export type FormReply = { result: SubmissionResult<string[]> };

const PASSWORD_FIELDS = ["password", "confirmPassword", "currentPassword"];

/**
 * opts.hideFields: more fields (secrets) never sent back to the form on an error. opts.formData:
 * the fields when the body was already read (a streamed multipart upload: ./uploads.server.ts).
 */
export async function handleForm<S extends z.ZodType, R>(
  request: Request,
  schema: S | null,
  run: (value: z.infer<S>, formData: FormData) => Promise<R>,
  opts: { hideFields?: string[]; formData?: FormData } = {},
): Promise<R | ReturnType<typeof json<FormReply>>> {
  const hideFields = [...PASSWORD_FIELDS, ...(opts.hideFields ?? [])];
  const formData = opts.formData ?? (await request.formData());
  const submission = schema ? parseWithZod(formData, { schema }) : null;
  try {
    await requireCsrf(request, formData);
  } catch {
    return json({ result: submission ? submission.reply({ formErrors: ["errors.CSRF"] }) : { status: "error", error: { "": ["errors.CSRF"] } } } as FormReply, { status: 403 });
  }
  if (submission && submission.status !== "success") {
    return json({ result: submission.reply({ hideFields }) } as FormReply, { status: 422 });
  }
  try {
    return await run((submission?.value ?? {}) as z.infer<S>, formData);
  } catch (e) {
    if (e instanceof Response) throw e;
    if (!isAppError(e)) throw e;
    const formErrors = e.fields ? [] : [`errors.${e.code}`];
    const reply = submission
      ? submission.reply({ formErrors, fieldErrors: e.fields, hideFields })
      : ({ status: "error", error: { "": formErrors, ...(e.fields ?? {}) } } as SubmissionResult<string[]>);
    return json({ result: reply, params: e.params } as FormReply, { status: e.status });
  }
}

/** The row-delete form of list screens (ConfirmDelete posts intent=delete and the row id). */
export const deleteIntentSchema = z.object({ intent: z.literal("delete"), id: z.string().min(1, "validation.required") });

/** An API field path ("rules.1.template.variables.0") as a form names the field ("rules[1].template.variables[0]"). */
export const formPath = (name: string) => name.replace(/\.(\d+)(?=\.|$)/g, "[$1]");

/** A use-case's refusal with its fields named as the form names them: `await withFormPaths(useCase(…))`. */
export async function withFormPaths<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (e) {
    if (!isAppError(e) || !e.fields) throw e;
    throw new AppError(e.code, { fields: Object.fromEntries(Object.entries(e.fields).map(([k, v]) => [formPath(k), v])), params: e.params });
  }
}
