/**
 * Products per customer over the API (issue 18, ADR 048): the staff's
 * /customers/{id}/products… (hire, read, edit, cancel) and the account's own GET
 * /customer/products. Thin: the use-cases (./products.ts) check who and validate.
 */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { created } from "../http/created";
import { createdResponse, errorResponses, successResponse } from "../http/openapi";
import { pageQuery } from "../lib/page-schema";
import { cancelCustomerProduct, getCustomerProduct, hireProduct, listCustomerProducts, myProducts, updateCustomerProduct } from "./products";
import { ProductAnswer, ProductList } from "./responses";
import { CHANNELS, CREDITS_MAX, CYCLES, KINDS, NAME_MAX, PRICE_MAX } from "./schemas";

const bearer = [{ bearer: [] }];
const ids = t.Object({ id: t.String(), productId: t.String() });

export const productRoutes = new Elysia({ tags: ["billing"], detail: { security: bearer } })
  .use(authenticated)
  .get("/customer/products", ({ ctx, query }) => myProducts(ctx, query), {
    query: t.Object(pageQuery),
    detail: {
      responses: { ...successResponse(ProductList, "The account's products"), ...errorResponses(403, 422) },
      summary: "The account's products (credits or unlimited per channel, cycle, price, current period): owner, admin and finance",
    },
  })
  .get("/customers/:id/products", ({ ctx, params, query }) => listCustomerProducts(ctx, params.id, query), {
    params: t.Object({ id: t.String() }),
    query: t.Object(pageQuery),
    detail: { responses: { ...successResponse(ProductList, "The customer's products"), ...errorResponses(403, 404, 422) }, summary: "A customer's products (platform staff)" },
  })
  .post(
    "/customers/:id/products",
    async ({ ctx, params, body, set }) => {
      const answer = await hireProduct(ctx, params.id, body);
      return created(set, `/api/customers/${params.id}/products/${answer.data.id}`, answer);
    },
    {
      params: t.Object({ id: t.String() }),
      body: t.Object({
        channel: t.Optional(t.Unknown({ description: CHANNELS.join(", ") })),
        name: t.Optional(t.Unknown({ description: `1 to ${NAME_MAX} characters` })),
        billing_cycle: t.Optional(t.Unknown({ description: CYCLES.join(", ") })),
        currency: t.Optional(t.Unknown({ description: "BRL, USD or EUR: the account's currency" })),
        kind: t.Optional(t.Unknown({ description: KINDS.join(", ") })),
        credits: t.Optional(t.Unknown({ description: `Units per period, 1 to ${CREDITS_MAX}; required for credits` })),
        price: t.Optional(t.Unknown({ description: `Per period (prepaid: once), minor units, 0 to ${PRICE_MAX}` })),
      }),
      detail: {
        responses: { ...createdResponse(ProductAnswer, "The product; Location is the product"), ...errorResponses(402, 403, 404, 422) },
        summary:
          "Hire a product for a customer (platform staff): its price is debited at once as a `product` posting of the ledger; 402 when balance + credit limit do not cover it (nothing written)",
      },
    },
  )
  .get("/customers/:id/products/:productId", ({ ctx, params }) => getCustomerProduct(ctx, params.id, params.productId), {
    params: ids,
    detail: { responses: { ...successResponse(ProductAnswer, "The product"), ...errorResponses(403, 404) }, summary: "One product of a customer (platform staff)" },
  })
  .put("/customers/:id/products/:productId", ({ ctx, params, body }) => updateCustomerProduct(ctx, params.id, params.productId, body), {
    params: ids,
    body: t.Object({
      name: t.Optional(t.Unknown({ description: `1 to ${NAME_MAX} characters` })),
      credits: t.Optional(t.Unknown({ description: "Units per period (credits products); credits left move by the difference" })),
      price: t.Optional(t.Unknown({ description: "Per period from the next renewal, minor units" })),
    }),
    detail: {
      responses: { ...successResponse(ProductAnswer, "The product as changed"), ...errorResponses(403, 404, 422) },
      summary: "Edit a customer's product (platform staff): name, credits, price for the next periods; nothing is charged or returned now",
    },
  })
  .delete("/customers/:id/products/:productId", ({ ctx, params }) => cancelCustomerProduct(ctx, params.id, params.productId), {
    params: ids,
    detail: {
      responses: { ...successResponse(ProductAnswer, "The product, cancelled"), ...errorResponses(403, 404) },
      summary: "Cancel a customer's product at once (platform staff): it covers nothing more and does not renew; nothing is returned",
    },
  });
