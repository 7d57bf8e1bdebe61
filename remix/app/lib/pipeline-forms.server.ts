/**
 * The boards' screens' action schemas (issue 22): the use-cases' own schemas (api/pipelines/
 * schemas) with each form's intent and row id. Server-only, so the browser's first load of the
 * screens carries no zod (issue 19's budget, ADR 052): the forms load the same schemas lazily
 * (lib/lazy-validate) to check as the user types.
 */
import { z } from "~api/lib/zod";
import {
  boardSchema,
  columnSchema,
  commentSchema,
  dealProductSchema,
  dealProductUpdateSchema,
  dealSchema,
  dealUpdateSchema,
  deleteColumnSchema,
  moveSchema,
  renameSchema,
  taskSchema,
} from "~api/pipelines/schemas";

const rowId = z.string().min(1, "validation.required");
const intent = <T extends string>(name: T) => z.object({ intent: z.literal(name) });
/** "Create deal" from a live-chat room or a contact's page: the board chosen there (none: the account's first). */
const boardChoice = z.preprocess((v) => (v === "" ? undefined : v), z.string().optional());

/** /pipelines */
export const indexForms = {
  boardCreate: boardSchema,
  fromRoom: z.object({ intent: z.literal("deal-from-room"), room_id: rowId, board_id: boardChoice }),
  fromContact: z.object({ intent: z.literal("deal-from-contact"), contact_id: rowId, board_id: boardChoice }),
};

/** /pipelines/{id} */
export const boardForms = {
  boardRename: renameSchema.extend({ intent: z.literal("board-rename") }),
  boardDelete: intent("board-delete"),
  columnAdd: columnSchema.extend({ intent: z.literal("column-add") }),
  columnRename: columnSchema.extend({ intent: z.literal("column-rename"), column_id: rowId }),
  columnMove: z.object({ intent: z.literal("column-move"), column_id: rowId, direction: z.enum(["left", "right"]) }),
  columnDelete: deleteColumnSchema.extend({ intent: z.literal("column-delete"), column_id: rowId }),
  dealAdd: dealSchema.extend({ intent: z.literal("deal-add") }),
  /** `reply=json`: from the board's script (the answer only). */
  dealMove: moveSchema.extend({ intent: z.literal("deal-move"), id: rowId, reply: z.string().optional() }),
};

/** /pipelines/{id}/deals/{id} */
export const dealForms = {
  edit: dealUpdateSchema.extend({ intent: z.literal("deal-update") }),
  link: z.object({ intent: z.literal("contact-link"), contact_id: z.preprocess((v) => (v === "" ? null : v), z.string().nullable()) }),
  archive: intent("archive"),
  duplicate: intent("duplicate"),
  taskAdd: taskSchema.extend({ intent: z.literal("task-add") }),
  taskToggle: intent("task-toggle").extend({ id: rowId }),
  taskDelete: intent("task-delete").extend({ id: rowId }),
  commentAdd: commentSchema.extend({ intent: z.literal("comment-add") }),
  commentDelete: intent("comment-delete").extend({ id: rowId }),
  productAdd: dealProductSchema.extend({ intent: z.literal("product-add") }),
  productUpdate: dealProductUpdateSchema.extend({ intent: z.literal("product-update"), id: rowId }),
  productRemove: intent("product-remove").extend({ id: rowId }),
};
