/**
 * The success answers of the departments routes (routes.ts), as TypeBox schemas for the OpenAPI
 * document (api/http/openapi.ts successResponse). In tests every answer is checked against them.
 */
import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { Page } from "../lib/page-schema";

const fields = {
  id: t.String({ format: "uuid" }),
  name: t.String({ description: "Unique in the account (ignoring case)" }),
  description: t.String({ description: "Empty when none" }),
  status: t.Union([t.Literal("active"), t.Literal("inactive")]),
  createdAt: t.String({ format: "date-time" }),
};

/** A department as saved (create, edit). */
export const DepartmentSaved = t.Object(fields);

/** A department with its member count (list, read). */
export const Department = t.Object({ ...fields, members: Type.Integer({ description: "People of the account in this department" }) });

export const DepartmentPage = Page(Department, "Every department of the account by name (one page)");

export const Ok = t.Object({ ok: t.Literal(true) });
