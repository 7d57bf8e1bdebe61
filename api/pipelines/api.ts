/**
 * Workflow boards over the API (issue 22; spec section 2 /pipelines…): boards, columns, deals
 * (cards) with their moves, tasks, comments and products, deals of a live-chat room or a contact,
 * and the reports — one plugin, one `.use` in api/app.ts (TS2589). Thin: the use-cases
 * (./services, ./reports) check the roles of /pipelines (and /pipelines/reports), validate with
 * zod and scope every row by the acting account; the /pipelines screens call the same functions.
 * A stale move (expected_version behind the deal's) answers 409 DEAL_VERSION_CONFLICT with the
 * deal as it is now (`current`), so a screen rolls its optimistic move back to it.
 */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { created } from "../http/created";
import { createdResponse, errorResponses, successResponse, zodBody } from "../http/openapi";
import { fromAcceptLanguage, translate } from "../lib/i18n";
import * as R from "./responses";
import { boardReports } from "./reports";
import {
  addComment,
  addDealProduct,
  addTask,
  archiveDeal,
  archivedDeals,
  boardSchema,
  columnSchema,
  commentSchema,
  createBoard,
  createColumn,
  createDeal,
  createDealFromContact,
  createDealFromRoom,
  dealProductSchema,
  dealProductUpdateSchema,
  dealSchema,
  dealsForContact,
  dealsForRoom,
  dealUpdateSchema,
  deleteBoard,
  deleteColumn,
  deleteComment,
  deleteDeal,
  deleteTask,
  duplicateDeal,
  getBoard,
  getDeal,
  listBoards,
  moveDeal,
  moveSchema,
  removeDealProduct,
  renameBoard,
  renameColumn,
  renameSchema,
  reorderColumns,
  reorderSchema,
  taskSchema,
  taskUpdateSchema,
  toggleTask,
  updateDeal,
  updateDealProduct,
  updateTask,
} from "./services";

const id = t.Object({ id: t.String() });
const anyBody = t.Record(t.String(), t.Unknown());

export const pipelinesApi = new Elysia({ name: "pipelines-api", prefix: "/pipelines", tags: ["pipelines"], detail: { security: [{ bearer: [] }] } })
  .use(authenticated)
  // Boards
  .get("/boards", ({ ctx }) => listBoards(ctx), {
    detail: { responses: successResponse(R.Boards), summary: "The account's workflow boards, oldest first, with their columns, live deals and value" },
  })
  .post(
    "/boards",
    async ({ ctx, body, set }) => {
      const answer = await createBoard(ctx, body);
      return created(set, `/api/pipelines/boards/${answer.data.id}`, answer);
    },
    {
      body: anyBody,
      detail: {
        requestBody: zodBody(boardSchema),
        responses: { ...createdResponse(R.BoardOne), ...errorResponses(403, 422) },
        summary: "A new board: `name` (1..100) and optionally its first `columns` in order (at most 30, unique in any case)",
      },
    },
  )
  .get("/boards/:id", ({ ctx, params }) => getBoard(ctx, params.id), {
    params: id,
    detail: { responses: { ...successResponse(R.BoardView), ...errorResponses(404) }, summary: "A board: its columns in order, each with its live (not archived) deals in order" },
  })
  .put("/boards/:id", ({ ctx, params, body }) => renameBoard(ctx, params.id, body), {
    params: id,
    body: anyBody,
    detail: { requestBody: zodBody(renameSchema), responses: { ...successResponse(R.BoardOne), ...errorResponses(403, 404, 422) }, summary: "Rename a board" },
  })
  .delete("/boards/:id", ({ ctx, params }) => deleteBoard(ctx, params.id), {
    params: id,
    detail: { responses: { ...successResponse(R.Deleted), ...errorResponses(403, 404) }, summary: "Delete a board with its columns, deals and their history" },
  })
  .get("/boards/:id/archived", ({ ctx, params }) => archivedDeals(ctx, params.id), {
    params: id,
    detail: { responses: { ...successResponse(R.ArchivedDeals), ...errorResponses(404) }, summary: "The board's archived deals, newest archived first" },
  })
  // Columns
  .post(
    "/boards/:id/columns",
    async ({ ctx, params, body, set }) => {
      const answer = await createColumn(ctx, params.id, body);
      return created(set, `/api/pipelines/boards/${params.id}`, answer);
    },
    {
      params: id,
      body: anyBody,
      detail: {
        requestBody: zodBody(columnSchema),
        responses: { ...createdResponse(R.ColumnOne), ...errorResponses(403, 404, 422) },
        summary:
          "A column at the board's end: its `name` required (1..50) and unique on the board in any case ('A column with the same name already exists'); a 31st column is a 422 'Maximum columns reached'",
      },
    },
  )
  .put("/boards/:id/columns/order", ({ ctx, params, body }) => reorderColumns(ctx, params.id, body), {
    params: id,
    body: anyBody,
    detail: {
      requestBody: zodBody(reorderSchema),
      responses: { ...successResponse(R.Columns), ...errorResponses(403, 404, 422) },
      summary: "Reorder the board's columns: `column_ids` lists every column of the board once, in the new order",
    },
  })
  .put("/columns/:id", ({ ctx, params, body }) => renameColumn(ctx, params.id, body), {
    params: id,
    body: anyBody,
    detail: {
      requestBody: zodBody(columnSchema),
      responses: { ...successResponse(R.ColumnOne), ...errorResponses(403, 404, 422) },
      summary: "Rename a column (unique on its board)",
    },
  })
  .delete("/columns/:id", ({ ctx, params, query }) => deleteColumn(ctx, params.id, { move_cards_to: query.move_cards_to }), {
    params: id,
    query: t.Object({ move_cards_to: t.Optional(t.String({ description: "Another column of the board that receives this column's deals (required when it holds any)" })) }),
    detail: {
      responses: { ...successResponse(R.ColumnDeleted), ...errorResponses(403, 404, 422) },
      summary: "Delete a column; its deals (archived ones too) move to `move_cards_to`, after that column's deals, in their order",
    },
  })
  // Deals
  .post(
    "/boards/:id/deals",
    async ({ ctx, params, body, set }) => {
      const answer = await createDeal(ctx, params.id, body);
      return created(set, `/api/pipelines/deals/${answer.data.id}`, answer);
    },
    {
      params: id,
      body: anyBody,
      detail: {
        requestBody: zodBody(dealSchema),
        responses: { ...createdResponse(R.DealOne), ...errorResponses(403, 404, 422) },
        summary:
          "A deal at the end of `column_id` (default: the first column): lead_name (≤25) and description (≤200) required, priority (low, normal, high, urgent) and due_date required; value_cents in the account's currency; owner (default: the caller), contact and live room optional",
      },
    },
  )
  .get("/deals/:id", ({ ctx, params }) => getDeal(ctx, params.id), {
    params: id,
    detail: {
      responses: { ...successResponse(R.DealDetail), ...errorResponses(404) },
      summary: "A deal with its tasks, comments, products and their total, contact and live room",
    },
  })
  .put("/deals/:id", ({ ctx, params, body }) => updateDeal(ctx, params.id, body), {
    params: id,
    body: anyBody,
    detail: {
      requestBody: zodBody(dealUpdateSchema),
      responses: { ...successResponse(R.DealOne), ...errorResponses(403, 404, 422) },
      summary: "Change a deal's fields (absent ones kept); `outcome` sold or lost (null reopens)",
    },
  })
  .delete("/deals/:id", ({ ctx, params }) => deleteDeal(ctx, params.id), {
    params: id,
    detail: { responses: { ...successResponse(R.Deleted), ...errorResponses(403, 404) }, summary: "Delete a deal with its tasks, comments, products and history" },
  })
  .post(
    "/deals/:id/move",
    async ({ ctx, params, body, set, request }) => {
      const result = await moveDeal(ctx, params.id, body);
      if (result.ok) return result;
      set.status = 409;
      const locale = ctx.locale ?? fromAcceptLanguage(request.headers.get("accept-language"));
      return { error: { code: "DEAL_VERSION_CONFLICT" as const, message: translate(locale, "pipelines:errors.moveConflict") }, current: result.current };
    },
    {
      params: id,
      body: anyBody,
      detail: {
        requestBody: zodBody(moveSchema),
        responses: {
          ...successResponse(R.Moved),
          ...successResponse(R.MoveConflict, "Stale move: nothing written; `current` is the deal as it is now", 409),
          ...errorResponses(403, 404, 422),
        },
        summary:
          "Move a deal to `to_column_id` (a column of its board), before `before_deal_id` or at index `position`, else at the end. `expected_version` is the deal's version the mover saw: 409 with the current deal when it changed since",
      },
    },
  )
  .post("/deals/:id/archive", ({ ctx, params }) => archiveDeal(ctx, params.id, true), {
    params: id,
    detail: { responses: { ...successResponse(R.DealOne), ...errorResponses(403, 404) }, summary: "Archive a deal (off the board, kept with its history)" },
  })
  .post("/deals/:id/restore", ({ ctx, params }) => archiveDeal(ctx, params.id, false), {
    params: id,
    detail: { responses: { ...successResponse(R.DealOne), ...errorResponses(403, 404) }, summary: "Restore an archived deal at its column's end" },
  })
  .post(
    "/deals/:id/duplicate",
    async ({ ctx, params, set }) => {
      const answer = await duplicateDeal(ctx, params.id);
      return created(set, `/api/pipelines/deals/${answer.data.id}`, answer);
    },
    {
      params: id,
      detail: {
        responses: { ...createdResponse(R.DealOne), ...errorResponses(403, 404) },
        summary: "A copy of a deal right after it: its fields (no outcome), tasks (undone) and products; not its comments",
      },
    },
  )
  // Tasks
  .post(
    "/deals/:id/tasks",
    async ({ ctx, params, body, set }) => {
      const answer = await addTask(ctx, params.id, body);
      return created(set, `/api/pipelines/deals/${params.id}`, answer);
    },
    {
      params: id,
      body: anyBody,
      detail: {
        requestBody: zodBody(taskSchema),
        responses: { ...createdResponse(R.TaskOne), ...errorResponses(403, 404, 422) },
        summary: "A task of the deal: title, description (≤200), priority and due_at required (spec section 5); its owner (default: the deal's) is notified once when it is due",
      },
    },
  )
  .put("/tasks/:id", ({ ctx, params, body }) => updateTask(ctx, params.id, body), {
    params: id,
    body: anyBody,
    detail: {
      requestBody: zodBody(taskUpdateSchema),
      responses: { ...successResponse(R.TaskOne), ...errorResponses(403, 404, 422) },
      summary: "Change a task (a new due time is notified again)",
    },
  })
  .post("/tasks/:id/toggle", ({ ctx, params, body }) => toggleTask(ctx, params.id, typeof body?.done === "boolean" ? body.done : undefined), {
    params: id,
    body: t.Optional(t.Object({ done: t.Optional(t.Boolean({ description: "Done or undone; absent: the other state" })) })),
    detail: { responses: { ...successResponse(R.TaskOne), ...errorResponses(403, 404) }, summary: "Mark a task done or undone" },
  })
  .delete("/tasks/:id", ({ ctx, params }) => deleteTask(ctx, params.id), {
    params: id,
    detail: { responses: { ...successResponse(R.Deleted), ...errorResponses(403, 404) }, summary: "Delete a task" },
  })
  // Comments
  .post(
    "/deals/:id/comments",
    async ({ ctx, params, body, set }) => {
      const answer = await addComment(ctx, params.id, body);
      return created(set, `/api/pipelines/deals/${params.id}`, answer);
    },
    {
      params: id,
      body: anyBody,
      detail: {
        requestBody: zodBody(commentSchema),
        responses: { ...createdResponse(R.CommentOne), ...errorResponses(403, 404, 422) },
        summary: "Comment on a deal (1..1000 characters)",
      },
    },
  )
  .delete("/comments/:id", ({ ctx, params }) => deleteComment(ctx, params.id), {
    params: id,
    detail: { responses: { ...successResponse(R.Deleted), ...errorResponses(403, 404) }, summary: "Delete a comment: one's own, or any as the account's owner or admin" },
  })
  // Products
  .post(
    "/deals/:id/products",
    async ({ ctx, params, body, set }) => {
      const answer = await addDealProduct(ctx, params.id, body);
      return created(set, `/api/pipelines/deals/${params.id}`, answer);
    },
    {
      params: id,
      body: anyBody,
      detail: {
        requestBody: zodBody(dealProductSchema),
        responses: { ...createdResponse(R.DealProducts), ...errorResponses(403, 404, 422) },
        summary: "A catalogue product on the deal: `product_id`, `quantity` (1..100000), `discount_cents` (at most the line); answers the deal's products and total",
      },
    },
  )
  .put("/deal-products/:id", ({ ctx, params, body }) => updateDealProduct(ctx, params.id, body), {
    params: id,
    body: anyBody,
    detail: {
      requestBody: zodBody(dealProductUpdateSchema),
      responses: { ...successResponse(R.DealProducts), ...errorResponses(403, 404, 422) },
      summary: "Change a deal product's quantity or discount; answers the deal's products and total",
    },
  })
  .delete("/deal-products/:id", ({ ctx, params }) => removeDealProduct(ctx, params.id), {
    params: id,
    detail: { responses: { ...successResponse(R.DealProducts), ...errorResponses(403, 404) }, summary: "Remove a product from its deal; answers the deal's products and total" },
  })
  // Conversations and contacts
  .post(
    "/rooms/:id/deals",
    async ({ ctx, params, body, set }) => {
      const answer = await createDealFromRoom(ctx, params.id, body ?? {});
      return created(set, `/api/pipelines/deals/${answer.data.id}`, answer);
    },
    {
      params: id,
      body: t.Optional(anyBody),
      detail: {
        requestBody: zodBody(dealSchema.partial().extend({ board_id: dealSchema.shape.owner_id })),
        responses: { ...createdResponse(R.DealOne), ...errorResponses(403, 404, 422) },
        summary: "A deal from a live-chat room, linked to it and its contact: `board_id` (default: the first board) and any deal field (defaults from the room)",
      },
    },
  )
  .get("/rooms/:id/deals", ({ ctx, params }) => dealsForRoom(ctx, params.id), {
    params: id,
    detail: { responses: { ...successResponse(R.LinkedDeals), ...errorResponses(404) }, summary: "The deals of a live-chat room" },
  })
  .post(
    "/contacts/:id/deals",
    async ({ ctx, params, body, set }) => {
      const answer = await createDealFromContact(ctx, params.id, body ?? {});
      return created(set, `/api/pipelines/deals/${answer.data.id}`, answer);
    },
    {
      params: id,
      body: t.Optional(anyBody),
      detail: {
        requestBody: zodBody(dealSchema.partial().extend({ board_id: dealSchema.shape.owner_id })),
        responses: { ...createdResponse(R.DealOne), ...errorResponses(403, 404, 422) },
        summary: "A deal from a contact, linked to it: `board_id` (default: the first board) and any deal field (defaults from the contact)",
      },
    },
  )
  .get("/contacts/:id/deals", ({ ctx, params }) => dealsForContact(ctx, params.id), {
    params: id,
    detail: { responses: { ...successResponse(R.LinkedDeals), ...errorResponses(404) }, summary: "The deals of a contact" },
  })
  // Reports
  .get("/reports", ({ ctx, query }) => boardReports(ctx, query), {
    query: t.Object({
      board_id: t.Optional(t.String({ description: "One board (default: every board)" })),
      owner_id: t.Optional(t.String({ description: "One owner's deals" })),
      from: t.Optional(t.String({ description: "YYYY-MM-DD, São Paulo (default: 29 days ago)" })),
      to: t.Optional(t.String({ description: "YYYY-MM-DD, São Paulo (default: today)" })),
      group: t.Optional(t.String({ description: "Won/lost per day, week or month (default day)" })),
    }),
    detail: {
      responses: { ...successResponse(R.Reports), ...errorResponses(403, 404, 422) },
      summary: "Board reports: value per column and per owner (live deals), won/lost by period, average time in column (stays ended in the period)",
    },
  });
