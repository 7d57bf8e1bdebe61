/**
 * Refunds and campaign control over the run's real processes (api, worker, simulator):
 * - a message refused or dead-lettered BEFORE the provider took it is refunded exactly once, in
 *   its status change's transaction, with a `refund` event; what the provider accepted is not;
 * - GET/PUT/DELETE /api/sms/campaigns: pause holds the campaign's messages `queued`, resume sends
 *   them, cancel fails the unsent ones as `canceled` (translated reason) and refunds them, delete
 *   only when finished (messages keep their history), tenancy, validation and permission.
 */
import { beforeAll, describe, expect, inject, it } from "vitest";
import { simulatedOutcome } from "../../api/simulator/outcome";
import { api, login, registerPerson, type Person } from "../support/api";
import { balanceOf, createCampaign, enqueueSms, tally, waitUntil } from "../support/campaigns";
import { randomBytes } from "node:crypto";
import { db, query } from "../support/db";
import { dispatchSettled } from "../support/wait";
import { makeMessages, setAccount, setMember } from "../support/factories";

const FINAL = ["delivered", "failed", "unavailable", "rejected", "optout"];
type Msg = { id: string; status: string; error_code: string | null; error_message: string | null; price: string; provider_message_id: string | null };

async function person(tag: string, balance: number) {
  const p = await registerPerson(tag);
  await setAccount(p.accountId, { balance });
  return { ...p, token: (await login(p.email, p.password)).token };
}

const messages = (ids: string[]) => query<Msg>("SELECT id, status, error_code, error_message, price, provider_message_id FROM messages WHERE id = ANY($1::uuid[])", [ids]);
const allFinal = (ids: string[], ms = 40_000) =>
  waitUntil(
    `${ids.length} final`,
    () => messages(ids),
    (rows) => rows.length === ids.length && rows.every((r) => FINAL.includes(r.status)),
    ms,
  );
const refunds = (ids: string[]) =>
  query<{ message_id: string; payload: { price: number; currency: string; reason: string } }>(
    "SELECT message_id, payload FROM message_events WHERE message_id = ANY($1::uuid[]) AND status = 'refund' ORDER BY id",
    [ids],
  );

let owner: Person & { token: string };

beforeAll(async () => {
  owner = await person("dispctl", 1_000_000);
});

describe("refunds of messages that never reached the provider", () => {
  it("a permanent refusal at submit fails the message and refunds its price once, with a refund event", async () => {
    const before = await balanceOf(owner.accountId);
    const [refused] = await enqueueSms(owner.accountId, { recipients: ["+15005550001"], price: 16 });
    const [ok] = await enqueueSms(owner.accountId, { count: 1, price: 16 });
    expect(await balanceOf(owner.accountId)).toBe(before - 32);
    const rows = await allFinal([refused, ok]);
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(refused)).toMatchObject({ status: "failed", error_code: "invalid_number", provider_message_id: null });
    // The accepted one is the provider's business (delivered, failed or unavailable): never refunded by us.
    expect(byId.get(ok)!.status).toBe(simulatedOutcome(ok));
    expect(byId.get(ok)!.provider_message_id).toMatch(/^sim_/);
    const events = await refunds([refused, ok]);
    expect(events).toEqual([{ message_id: refused, payload: { price: 16, currency: "BRL", reason: "invalid_number" } }]);
    expect(await balanceOf(owner.accountId)).toBe(before - 16);
  });

  it("a dead-lettered message (provider down on every attempt) is refunded once", async () => {
    const before = await balanceOf(owner.accountId);
    const [id] = await enqueueSms(owner.accountId, { recipients: ["+15005550503"], price: 24 });
    const [row] = await waitUntil(
      "dead letter",
      () => messages([id]),
      (r) => r[0]?.status === "failed",
      40_000,
    );
    expect(row.error_code).toBe("dispatch_failed");
    // Signal: the runner dead-lettered the entry (acked and deleted it from the stream) after the
    // message failed, so no redelivery can handle it again; the sweep republishes only queued or
    // sending messages. Then the refund is single.
    await dispatchSettled([id]);
    expect(await refunds([id])).toEqual([{ message_id: id, payload: { price: 24, currency: "BRL", reason: "dispatch_failed" } }]);
    expect(await balanceOf(owner.accountId)).toBe(before);
  }, 60_000);
});

describe("/api/sms/campaigns", () => {
  it("pause holds the messages queued, resume sends each exactly once, the campaign completes with exact counts", async () => {
    const id = await createCampaign(owner.accountId, { total: 60, status: "paused", name: "Pausada" });
    const ids = await enqueueSms(owner.accountId, { count: 60, campaignId: id });
    // The relay publishes them; the dispatcher acks the entries and leaves them queued. Signal:
    // every outbox row published and no stream entry left for them (each read, held, deleted).
    await dispatchSettled(ids);
    expect(tally((await messages(ids)).map((m) => m.status))).toEqual({ queued: 60 });

    const shown = await api(`/api/sms/campaigns/${id}`, { token: owner.token });
    expect(shown.status).toBe(200);
    expect(shown.body.data).toMatchObject({ id, status: "paused", total: 60, counts: { queued: 60 }, done: 0, progress: 0 });

    const resumed = await api(`/api/sms/campaigns/${id}`, { method: "PUT", token: owner.token, body: { status: "running" } });
    expect(resumed.status, JSON.stringify(resumed.body)).toBe(200);
    expect(resumed.body.meta).toMatchObject({ changed: true, republished: 60 });
    const rows = await allFinal(ids);
    expect(tally(rows.map((r) => r.status))).toEqual(tally(ids.map((m) => simulatedOutcome(m))));
    const stats = await fetch(new URL("/v1/stats", inject("simulatorUrl")), {
      headers: { Authorization: `Bearer ${inject("simulatorApiKey")}` },
    }).then((r) => r.json() as Promise<{ references: Record<string, number> }>);
    expect(ids.map((m) => stats.references[m])).toEqual(ids.map(() => 1));

    const done = await waitUntil(
      "completed",
      () => api(`/api/sms/campaigns/${id}`, { token: owner.token }),
      (r) => r.body.data?.status === "completed",
      15_000,
    );
    expect(done.body.data.counts).toEqual(tally(ids.map((m) => simulatedOutcome(m))));
    expect(done.body.data).toMatchObject({ done: 60, progress: 100 });
    expect(done.body.data.completed_at).toBeTruthy();
    // The same PUT on a completed campaign: impossible.
    const again = await api(`/api/sms/campaigns/${id}`, { method: "PUT", token: owner.token, body: { status: "paused" }, lang: "en" });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("CAMPAIGN_STATE");
  }, 60_000);

  it("cancel fails the unsent messages as `canceled` with the translated reason and refunds each once", async () => {
    const before = await balanceOf(owner.accountId);
    const id = await createCampaign(owner.accountId, { total: 40, status: "paused", name: "Cancelada" });
    const ids = await enqueueSms(owner.accountId, { count: 40, campaignId: id, price: 9 });
    expect(await balanceOf(owner.accountId)).toBe(before - 360);
    const res = await api(`/api/sms/campaigns/${id}`, { method: "PUT", token: owner.token, body: { status: "canceled" } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.meta).toMatchObject({ changed: true, canceled: 40, refunded: 360 });
    expect(res.body.data).toMatchObject({ status: "canceled", counts: { failed: 40 }, progress: 100 });
    expect(await balanceOf(owner.accountId)).toBe(before);
    const rows = await messages(ids);
    for (const r of rows) expect(r).toMatchObject({ status: "failed", error_code: "canceled", error_message: "errors.CAMPAIGN_CANCELED" });
    expect((await refunds(ids)).length).toBe(40);
    // Cancel again: nothing changes, nothing refunded twice; the worker never submits them.
    const again = await api(`/api/sms/campaigns/${id}`, { method: "PUT", token: owner.token, body: { status: "canceled" } });
    expect(again.body.meta).toMatchObject({ changed: false, refunded: 0 });
    // Signal: the relay published their outbox rows and the dispatcher read and dropped every entry
    // (the claim refuses a failed message), so nothing is left that could submit or refund them.
    await dispatchSettled(ids);
    expect(await balanceOf(owner.accountId)).toBe(before);
    expect((await refunds(ids)).length).toBe(40);
    const [{ n }] = await query<{ n: string }>("SELECT count(*) AS n FROM messages WHERE id = ANY($1::uuid[]) AND provider_message_id IS NOT NULL", [ids]);
    expect(n).toBe("0");
    // The reason is translated for people (errors namespace).
    const pt = await import("../../public/locales/pt-BR/errors.json");
    expect((pt as any).default?.CAMPAIGN_CANCELED ?? (pt as any).CAMPAIGN_CANCELED).toMatch(/cancelada/);
    // The API answers it in the caller's language, in the message and in its failed event; error_code stays the code.
    const en = await api(`/api/sms/messages/${ids[0]}`, { token: owner.token, lang: "en" });
    expect(en.body.data).toMatchObject({ error_code: "canceled", error_message: "The campaign was canceled before sending; the amount was refunded" });
    expect(en.body.data.events.find((e: { status: string }) => e.status === "failed").details.error_message).toBe(
      "The campaign was canceled before sending; the amount was refunded",
    );
    const zh = await api(`/api/sms/messages/${ids[0]}`, { token: owner.token, lang: "zh-CN" });
    expect(zh.body.data).toMatchObject({ error_code: "canceled", error_message: "活动在发送前已取消；费用已退还" });

    // Delete a finished campaign: the messages stay with their history.
    const del = await api(`/api/sms/campaigns/${id}`, { method: "DELETE", token: owner.token });
    expect(del.status).toBe(200);
    expect((await api(`/api/sms/campaigns/${id}`, { token: owner.token })).status).toBe(404);
    const kept = await query<{ campaign_id: string | null }>("SELECT campaign_id FROM messages WHERE id = ANY($1::uuid[])", [ids]);
    expect(kept).toHaveLength(40);
    expect(kept.every((k) => k.campaign_id === null)).toBe(true);
  });

  it("delete meets a receipt batch holding the campaign's messages (locked in id order) and still succeeds, without a lock cycle", async () => {
    const id = await createCampaign(owner.accountId, { total: 12, status: "completed", name: "Recibos" });
    const ids = (
      await makeMessages(
        owner.accountId,
        Array.from({ length: 12 }, () => ({ status: "sent" as const, campaignId: id })),
      )
    ).map((m) => m.id);
    // The smallest id is the row written last, so the foreign key's SET NULL, in its scan order,
    // would reach it after the others (the order a delete locked them in before it locked them by id).
    const first = `00000000-0000-4000-8000-${randomBytes(6).toString("hex")}`;
    await query("UPDATE messages SET id = $1 WHERE id = $2", [first, ids[11]]);
    const receipts = await db().connect();
    try {
      // A receipt batch (api/messages/receipts.ts) holds the first message while the delete starts…
      await receipts.query("BEGIN");
      await receipts.query("SELECT 1 FROM messages WHERE id = $1 FOR UPDATE", [first]);
      const del = api(`/api/sms/campaigns/${id}`, { method: "DELETE", token: owner.token });
      await waitUntil(
        "the delete waiting on a message lock",
        () =>
          query<{ n: number }>(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND (query LIKE 'SELECT 1 FROM messages WHERE campaign_id%' OR query LIKE 'DELETE FROM campaigns%')",
          ),
        ([r]) => r.n > 0,
        20_000,
      );
      // …then locks the rest in id order, as every batch does: a delete holding some of them would close a cycle.
      await receipts.query("SELECT 1 FROM messages WHERE campaign_id = $1 ORDER BY id FOR UPDATE", [id]);
      await receipts.query("COMMIT");
      const res = await del;
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    } finally {
      receipts.release();
    }
    expect((await query("SELECT 1 FROM campaigns WHERE id = $1", [id])).length).toBe(0);
    expect((await query<{ n: number }>("SELECT count(*)::int AS n FROM messages WHERE id = ANY($1::uuid[]) AND campaign_id IS NULL", [[first, ...ids.slice(0, 11)]]))[0].n).toBe(
      12,
    );
  });

  it("list with counts and paging; delete refused while running; validation, tenancy and permission", async () => {
    const p = await person("dispcamps", 100_000);
    const ids: string[] = [];
    for (let i = 0; i < 22; i++) ids.push(await createCampaign(p.accountId, { total: 2, status: "paused", name: `C${i}` }));
    await enqueueSms(p.accountId, { count: 2, campaignId: ids[21] });
    const page1 = await api("/api/sms/campaigns", { token: p.token });
    expect(page1.status).toBe(200);
    expect(page1.body).toMatchObject({ page: 1, total: 22, last_page: 2 });
    expect(page1.body.data).toHaveLength(20);
    expect(page1.body.data[0]).toMatchObject({ id: ids[21], name: "C21", total: 2, counts: { queued: 2 } });
    const page2 = await api("/api/sms/campaigns?page=2", { token: p.token });
    expect(page2.body.data.map((c: { name: string }) => c.name)).toEqual(["C1", "C0"]);
    // The cursor (keyset) walks the same order: page 1's next_cursor opens page 2; null at the end.
    expect(page1.body.data[0]).toMatchObject({ from: page1.body.data[0].sender });
    const byCursor = await api(`/api/sms/campaigns?cursor=${page1.body.next_cursor}`, { token: p.token });
    expect(byCursor.body).toMatchObject({ next_cursor: null });
    expect(byCursor.body.data.map((c: { name: string }) => c.name)).toEqual(["C1", "C0"]);
    const sized = await api("/api/sms/campaigns?limit=15", { token: p.token });
    expect(sized.body).toMatchObject({ per_page: 15, last_page: 2 });
    expect(sized.body.data).toHaveLength(15);
    expect((await api("/api/sms/campaigns?cursor=eyJ4IjoxfQ", { token: p.token })).status).toBe(422);
    expect((await api("/api/sms/campaigns?status=canceled", { token: p.token })).body.total).toBe(0);

    const bad = await api(`/api/sms/campaigns/${ids[0]}`, { method: "PUT", token: p.token, body: { status: "completed" } });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.error.fields)).toEqual(["status"]);
    const running = await api(`/api/sms/campaigns/${ids[0]}`, { method: "PUT", token: p.token, body: { status: "running" } });
    expect(running.status).toBe(200);
    expect((await api(`/api/sms/campaigns/${ids[0]}`, { method: "DELETE", token: p.token })).status).toBe(409);

    // Another account's campaign does not exist for this one.
    expect((await api(`/api/sms/campaigns/${ids[1]}`, { token: owner.token })).status).toBe(404);
    expect((await api(`/api/sms/campaigns/${ids[1]}`, { method: "PUT", token: owner.token, body: { status: "canceled" } })).status).toBe(404);
    expect((await api("/api/sms/campaigns/not-a-uuid", { token: p.token })).status).toBe(404);
    expect((await api("/api/sms/campaigns", { token: owner.token })).body.data.some((c: { id: string }) => ids.includes(c.id))).toBe(false);

    // A developer may read campaigns but not stop or restart a send (no /sms/send).
    await setMember(p.accountId, p.userId, { role: "developer" });
    const dev = (await login(p.email, p.password)).token;
    expect((await api("/api/sms/campaigns", { token: dev })).status).toBe(200);
    expect((await api(`/api/sms/campaigns/${ids[2]}`, { method: "PUT", token: dev, body: { status: "canceled" } })).status).toBe(403);
    const [{ status }] = await query<{ status: string }>("SELECT status FROM campaigns WHERE id = $1", [ids[2]]);
    expect(status).toBe("paused");
  });
});
