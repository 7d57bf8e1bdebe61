/** Departments API (omni plan; the use-cases enforce plan and role). */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { createDepartment, deleteDepartment, listDepartments, updateDepartment } from "./services";

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
  .get("", ({ ctx, query }) => listDepartments(ctx, query.q), {
    query: t.Object({ q: t.Optional(t.String({ maxLength: 100 })) }),
    detail: { summary: "Departments of the acting account with their member counts (omni plan)" },
  })
  .post("", async ({ ctx, body }) => view(await createDepartment(ctx, body)), { body, detail: { summary: "Create a department (owner, admin, sales)" } })
  .put("/:id", async ({ ctx, params, body }) => view(await updateDepartment(ctx, params.id, body)), {
    params: id,
    body,
    detail: { summary: "Edit a department (owner, admin, sales)" },
  })
  .delete(
    "/:id",
    async ({ ctx, params }) => {
      await deleteDepartment(ctx, params.id);
      return { ok: true };
    },
    { params: id, detail: { summary: "Delete a department; its members keep their accounts without a department" } },
  );
