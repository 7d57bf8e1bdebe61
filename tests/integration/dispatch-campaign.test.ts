/**
 * A campaign of 10,000 recipients through the run's real processes: accepted through
 * POST /api/sms/messages (1,000 a request; the campaigns row and messages.campaign_id are set as
 * a fixture, the send engineer's accept creates them), dispatched by the worker, receipts from the
 * simulator — the campaign completes with the EXACT per-status counts the simulator's mix predicts
 * for those message ids (api/simulator/outcome.ts), each message submitted once, and the list and
 * detail API show the same counts.
 */
import { beforeAll, describe, expect, inject, it } from "vitest";
import { DEV_SIMULATOR_API_KEY } from "../../api/lib/env";
import { simulatedOutcome } from "../../api/simulator/outcome";
import { api, login, registerPerson, type Person } from "../support/api";
import { balanceOf, createCampaign, tally, waitUntil } from "../support/campaigns";
import { query } from "../support/db";

const N = 10_000;
let p: Person & { token: string };

beforeAll(async () => {
  const person = await registerPerson("campaign10k");
  await query("UPDATE accounts SET balance = 10000000 WHERE id = $1", [person.accountId]);
  p = { ...person, token: (await login(person.email, person.password)).token };
});

describe("a 10,000-recipient campaign", () => {
  it("completes with exact per-status counts, each message submitted once, charged once", async () => {
    const before = await balanceOf(p.accountId);
    const campaignId = await createCampaign(p.accountId, { total: N, name: "Black Friday 10k" });
    const ids: string[] = [];
    let charged = 0;
    for (let i = 0; i < N; i += 1000) {
      const to = Array.from({ length: 1000 }, (_, k) => `+55319${String(20000000 + i + k).padStart(8, "0")}`);
      const res = await api("/api/sms/messages", { token: p.token, body: { to, body: "Ofertas de hoje: até 50% off", from: "LOJA" } });
      expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
      const batch = res.body.data.map((m: { id: string }) => m.id);
      await query("UPDATE messages SET campaign_id = $1 WHERE id = ANY($2::uuid[])", [campaignId, batch]);
      ids.push(...batch);
      charged += res.body.total_price;
    }
    expect(new Set(ids).size).toBe(N);
    const expected = tally(ids.map((id) => simulatedOutcome(id)));

    // Completed once nothing is left to send (every message at the provider)…
    const completed = await waitUntil(
      "campaign completed",
      () => api(`/api/sms/campaigns/${campaignId}`, { token: p.token }),
      (r) => r.body.data?.status === "completed",
      150_000,
      1000,
    );
    expect(Object.keys(completed.body.data.counts).filter((s) => ["queued", "sending", "pending", "scheduled"].includes(s))).toEqual([]);
    // …and once every receipt is in, the exact per-status counts of the simulator's mix.
    const done = await waitUntil(
      "every receipt applied",
      () => api(`/api/sms/campaigns/${campaignId}`, { token: p.token }),
      (r) => !r.body.data?.counts?.sent,
      150_000,
      1000,
    );
    expect(done.body.data.counts).toEqual(expected);
    expect(done.body.data).toMatchObject({ total: N, done: N, progress: 100 });
    const listed = (await api("/api/sms/campaigns", { token: p.token })).body.data.find((c: { id: string }) => c.id === campaignId);
    expect(listed.counts).toEqual(expected);

    const stats = await fetch(new URL("/v1/stats", inject("simulatorUrl")), {
      headers: { Authorization: `Bearer ${process.env.SIMULATOR_API_KEY || DEV_SIMULATOR_API_KEY}` },
    }).then((r) => r.json() as Promise<{ references: Record<string, number> }>);
    expect(tally(ids.map((id) => String(stats.references[id] ?? 0)))).toEqual({ "1": N });
    expect(await balanceOf(p.accountId)).toBe(before - charged);
  }, 360_000);
});
