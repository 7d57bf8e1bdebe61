/** The response check (./response-check): a route whose answer drifts from its documented schema fails loudly in tests. */
import { Elysia, t, type AnyElysia } from "elysia";
import { afterEach, describe, expect, it } from "vitest";
import { errors } from "./errors";
import { createdResponse, successResponse } from "./openapi";
import { created } from "./created";
import { responseCheck } from "./response-check";

function appWith(answer: unknown) {
  let self: AnyElysia | undefined;
  const Item = t.Object({ id: t.String(), at: t.String({ format: "date-time" }) });
  const app = new Elysia()
    .use(errors)
    .use(responseCheck(() => self as AnyElysia))
    .get("/items/:id", () => answer, { detail: { responses: successResponse(Item) } })
    .post("/items", ({ set }) => created(set, "/items/1", answer), { detail: { responses: createdResponse(Item) } })
    .get("/free", () => answer);
  self = app;
  return app;
}

const saved = process.env.API_RESPONSE_CHECK;
afterEach(() => {
  if (saved === undefined) delete process.env.API_RESPONSE_CHECK;
  else process.env.API_RESPONSE_CHECK = saved;
});

describe("responseCheck", () => {
  it("lets a documented answer through (Dates as the client reads them)", async () => {
    process.env.API_RESPONSE_CHECK = "1";
    const app = appWith({ id: "1", at: new Date("2026-01-01T00:00:00Z") });
    const res = await app.handle(new Request("http://localhost/items/1"));
    expect(res.status).toBe(200);
    const post = await app.handle(new Request("http://localhost/items", { method: "POST" }));
    expect(post.status).toBe(201);
    expect(post.headers.get("location")).toBe("/items/1");
  });

  it("answers 500 RESPONSE_SCHEMA naming the route and the difference when the answer drifted", async () => {
    process.env.API_RESPONSE_CHECK = "1";
    const app = appWith({ id: 1, at: "yesterday" });
    for (const req of [new Request("http://localhost/items/1"), new Request("http://localhost/items", { method: "POST" })]) {
      const res = await app.handle(req);
      expect(res.status).toBe(500);
      const body = (await res.json()) as { error: { code: string; params: { route: string; problems: string } } };
      expect(body.error.code).toBe("RESPONSE_SCHEMA");
      expect(body.error.params.problems).toContain("/id");
      expect(body.error.params.problems).toContain("/at");
    }
    // A route that declares nothing is not checked (the document's completeness test covers it).
    expect((await app.handle(new Request("http://localhost/free"))).status).toBe(200);
  });

  it("is off unless turned on (production)", async () => {
    process.env.API_RESPONSE_CHECK = "0";
    const res = await appWith({ id: 1 }).handle(new Request("http://localhost/items/1"));
    expect(res.status).toBe(200);
  });
});
