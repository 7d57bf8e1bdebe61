/** A lookup export as a streamed CSV download, column titles in the reader's language, a BOM for spreadsheet programs. */
import type { SignedInCtx } from "~api/lib/context";
import { EXPORT_COLUMNS, exportResults } from "~api/lookup/services";
import { orHttpError } from "~/lib/auth.server";
import { i18next } from "~/lib/i18n.server";

export async function lookupCsvResponse(request: Request, ctx: SignedInCtx, listId: string | null, filename: string) {
  const t = await i18next.getFixedT(request, ["lookup"]);
  const chunks = await orHttpError(exportResults(ctx, listId, (c: (typeof EXPORT_COLUMNS)[number]) => t(`lookup:exportColumns.${c}`) as string));
  const encoder = new TextEncoder();
  let first = true;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const r = await chunks.next();
      if (r.done) return controller.close();
      controller.enqueue(encoder.encode(first ? `\uFEFF${r.value}` : r.value));
      first = false;
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
