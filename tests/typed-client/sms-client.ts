/**
 * A typed SMS client as an integrator writes one: openapi-fetch over the types that openapi-typescript
 * generates from GET /api/docs/json (./api.d.ts, written by tests/integration/openapi.test.ts, not
 * committed). The test compiles this file with tsc against those types, then calls it: a route whose
 * request or answer the document misdescribes fails to compile here or to run there.
 */
import createClient from "openapi-fetch";
import type { paths } from "./api";

export function smsClient(baseUrl: string, token: string) {
  const client = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${token}` } });
  return {
    async send(to: string, body: string, idempotencyKey: string) {
      const { data, error, response } = await client.POST("/api/sms/messages", { body: { to, body }, params: { header: { "idempotency-key": idempotencyKey } } });
      if (!data) throw new Error(`send: ${response.status} ${error?.error.code}`);
      const first = data.data?.[0];
      if (!first) throw new Error("send: no message in the answer");
      const id: string = first.id;
      const price: number = data.total_price;
      return { id, status: first.status, price };
    },
    async status(id: string) {
      const { data, error, response } = await client.GET("/api/sms/messages/{id}", { params: { path: { id } } });
      if (!data) throw new Error(`status: ${response.status} ${error?.error.code}`);
      const history: string[] = data.data.events.map((e) => e.status);
      return { status: data.data.status, to: data.data.to, history };
    },
    async history(to: string) {
      const { data, error, response } = await client.GET("/api/sms/messages", { params: { query: { to } } });
      if (!data) throw new Error(`history: ${response.status} ${error?.error.code}`);
      const next: string | null = data.next_cursor;
      return { ids: data.data.map((m) => m.id), next };
    },
  };
}
