/**
 * The TypeBox side of the API's one list style (api/lib/page.ts): the query parameters and the
 * answer of a paged list, for routes' documentation and coercion. Apart from page.ts so that the
 * zod and cursor helpers there, which screens' schemas reach, never pull Elysia into the browser.
 */
import { t, type TSchema } from "elysia";
import { DEFAULT_LIMIT, MAX_LIMIT } from "./page";

/** The query parameters of a paged list, for a route's TypeBox `query` (documentation and coercion-free strings). */
export const pageQuery = {
  cursor: t.Optional(t.String({ description: "The `next_cursor` of the previous answer (send the same filters)" })),
  // Checked by pageInput's intParam (a translated "must be an integer / at most 200" on `limit`).
  limit: t.Optional(t.String({ description: `Page size, 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT})` })),
};

/** The answer of a paged list, for `successResponse(Page(Item))`. */
export const Page = <T extends TSchema>(item: T, description?: string) =>
  t.Object(
    {
      data: t.Array(item),
      next_cursor: t.Union([t.String(), t.Null()], { description: "Send it back as `cursor` for the next page; null on the last page" }),
    },
    description ? { description } : {},
  );
