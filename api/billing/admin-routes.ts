/**
 * Invoices and products across customers for the staff (issue 23, ADR 064): GET /api/admin/invoices,
 * GET /api/customers/{id}/invoices, GET /api/admin/products. Thin: the use-cases check who (reach)
 * and validate.
 */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { errorResponses, successResponse } from "../http/openapi";
import { Page, pageQuery } from "../lib/page-schema";
import { listAllProducts } from "../products/across";
import { Product } from "../products/responses";
import { listAdminInvoices, listCustomerInvoices } from "./admin-invoices";
import { Invoice } from "./routes";

const bearer = [{ bearer: [] }];
const Customer = { account_id: t.String({ format: "uuid" }), customer_name: t.String() };
const AdminInvoice = t.Composite([Invoice, t.Object(Customer)]);
const AdminProduct = t.Composite([Product, t.Object({ customer_name: t.String() })]);

const invoiceFilters = {
  status: t.Optional(t.String({ description: "pending, paid or fail" })),
  due_from: t.Optional(t.String({ description: "First due day (São Paulo), YYYY-MM-DD" })),
  due_to: t.Optional(t.String({ description: "Last due day (São Paulo), YYYY-MM-DD, included" })),
  ...pageQuery,
};

export const adminBillingRoutes = new Elysia({ tags: ["billing"], detail: { security: bearer } })
  .use(authenticated)
  .get("/admin/invoices", ({ ctx, query }) => listAdminInvoices(ctx, query), {
    query: t.Object({ customer_id: t.Optional(t.String({ description: "One customer's (uuid)" })), ...invoiceFilters }),
    detail: {
      responses: { ...successResponse(Page(AdminInvoice, "Invoices, latest due date first, keyset paged")), ...errorResponses(403, 422) },
      summary: "Invoices of every customer the caller may see (platform staff: all; a reseller's owner or admin: its own customers'), by status, customer and due date range",
    },
  })
  .get("/customers/:id/invoices", ({ ctx, params, query }) => listCustomerInvoices(ctx, params.id, query), {
    params: t.Object({ id: t.String() }),
    query: t.Object(invoiceFilters),
    detail: {
      responses: { ...successResponse(Page(AdminInvoice, "The customer's invoices, latest due date first")), ...errorResponses(403, 404, 422) },
      summary: "One customer's invoices (platform staff; a reseller's owner or admin for its own customers)",
    },
  })
  .get("/admin/products", ({ ctx, query }) => listAllProducts(ctx, query), {
    query: t.Object({
      customer_id: t.Optional(t.String({ description: "One customer's (uuid)" })),
      status: t.Optional(t.String({ description: "active, suspended or cancelled" })),
      ...pageQuery,
    }),
    detail: {
      responses: { ...successResponse(Page(AdminProduct, "Products, newest first, keyset paged")), ...errorResponses(403, 422) },
      summary: "Every customer product the caller may see (platform staff: all; a reseller's owner or admin: its own customers'), by customer and status",
    },
  });
