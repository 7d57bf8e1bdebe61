/** Departments API (omni plan; the use-cases enforce plan and role). */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { created } from "../http/created";
import { createdResponse as createdDoc, errorResponses, successResponse } from "../http/openapi";
import { onePage } from "../lib/page";
import * as R from "./responses";
import { createDepartment, deleteDepartment, getDepartment, listDepartments, updateDepartment } from "./services";

/** createdResponse, typed as a response object (its Location header's schema type is a plain string in api/http/openapi.ts). */
const createdResponse201 = (...a: Parameters<typeof createdDoc>) => createdDoc(...a) as unknown as ReturnType<typeof successResponse>;

const id = t.Object({ id: t.String({ format: "uuid" }) });
const body = t.Object({
  name: t.String({ maxLength: 80 }),
  description: t.Optional(t.String({ maxLength: 200 })),
  status: t.Optional(t.Union([t.Literal("active"), t.Literal("inactive")])), // not t.UnionEnum: Elysia fills an absent one with its first value
});

function view(d: { id: string; name: string; description: string; status: string; createdAt: Date; updatedAt?: Date }) {
  return { id: d.id, name: d.name, description: d.description, status: d.status, createdAt: d.createdAt };
}

export const departmentRoutes = new Elysia({ prefix: "/departments", tags: ["departments"], detail: { security: [{ bearer: [] }] } })
  .use(authenticated)
  .get("", async ({ ctx, query }) => onePage(await listDepartments(ctx, query.q)), {
    query: t.Object({ q: t.Optional(t.String({ maxLength: 100, description: "Part of the name" })) }),
    detail: {
      responses: successResponse(R.DepartmentPage),
      summary: "Departments of the acting account by name with their member counts (omni plan): all of them in one page (an account's queues, a handful)",
    },
  })
  .post(
    "",
    async ({ ctx, body, set }) => {
      const d = view(await createDepartment(ctx, body));
      return created(set, `/api/departments/${d.id}`, d);
    },
    {
      body,
      detail: {
        responses: { ...createdResponse201(R.DepartmentSaved, "Created: Location is the new department"), ...errorResponses(409) },
        summary: "Create a department (owner, admin, sales; 409 DEPARTMENT_NAME_TAKEN)",
      },
    },
  )
  .get("/:id", ({ ctx, params }) => getDepartment(ctx, params.id), {
    params: id,
    detail: { responses: successResponse(R.Department), summary: "One department of the acting account with its member count (omni plan)" },
  })
  .put("/:id", async ({ ctx, params, body }) => view(await updateDepartment(ctx, params.id, body)), {
    params: id,
    body,
    detail: { responses: { ...successResponse(R.DepartmentSaved), ...errorResponses(409) }, summary: "Edit a department (owner, admin, sales; 409 DEPARTMENT_NAME_TAKEN)" },
  })
  .delete(
    "/:id",
    async ({ ctx, params }) => {
      await deleteDepartment(ctx, params.id);
      return { ok: true as const };
    },
    { params: id, detail: { responses: successResponse(R.Ok), summary: "Delete a department; its members keep their accounts without a department" } },
  );
