/**
 * What the support screens (routes/support/, routes/admin/_app.admin.tickets.tsx and
 * _app.admin.support.$id.tsx) do on the server besides calling the use-cases: the ticket and
 * message forms, which are multipart (an optional attachment) and work without JavaScript. The
 * file is streamed within 10 MB — refused by its declared length before a byte is read, else as
 * soon as it passes the limit — and handed to the use-case with the form's fields.
 */
import { json } from "@remix-run/node";
import { readLimited } from "~api/catalog/images";
import { AppError } from "~api/lib/errors";
import type { z } from "~api/lib/zod";
import { FILE_MAX_BYTES } from "~api/support/constants";
import { fileTooLarge, type IncomingAttachment } from "~api/support/files";
import { requireCsrf } from "./csrf.server";
import { handleForm, type FormReply } from "./forms.server";
import { streamUpload } from "./uploads.server";

/** Boundaries, part headers and the text fields of the form. */
const SLACK = 64 * 1024;

/** A form with an optional `file`: `run` gets the checked fields and the file (null when none was chosen). */
export async function formWithFile<S extends z.ZodType>(request: Request, schema: S, run: (value: z.infer<S>, file: IncomingAttachment | null) => Promise<Response>) {
  if (!/^multipart\/form-data;/i.test(request.headers.get("Content-Type") ?? "")) return handleForm(request, schema, (v) => run(v, null));
  const declared = Number(request.headers.get("Content-Length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > FILE_MAX_BYTES + SLACK) {
    const result = { status: "error", error: { file: fileTooLarge().fields?.file ?? [] } } as FormReply["result"];
    return json({ result } satisfies FormReply, { status: 422 });
  }
  const { fields, outcome } = await streamUpload(request, {
    fileField: "file",
    acceptFiles: (f) =>
      requireCsrf(request, f).then(
        () => true,
        () => false,
      ),
    consume: async (files) => {
      for await (const file of files) {
        const bytes = await readLimited(file.stream, FILE_MAX_BYTES).catch((e) => {
          throw e instanceof AppError ? fileTooLarge() : e;
        });
        return bytes.byteLength > 0 ? { name: file.name, bytes } : null;
      }
      return null;
    },
  });
  return handleForm(
    request,
    schema,
    async (v) => {
      if (outcome.status === "error") throw outcome.error;
      return run(v, outcome.status === "ok" ? outcome.value : null);
    },
    { formData: fields },
  );
}
