/**
 * A campaign to 10,000 addresses (issue 17, ADR 038) delivered through the simulator's SMTP peer:
 * each address gets exactly one message and the campaign's counters equal the events. It loads the
 * e-mail pipeline (DKIM signing, the peer's DSNs back to the inbound listener) for a minute or more,
 * so a whole `npm test` runs it after the rest, alone (api/cli/boot.mjs ALONE), where it slows no
 * other e-mail test.
 */
import { beforeAll, describe, expect, inject, it } from "vitest";
import { api, login, registerPerson } from "../support/api";
import { query } from "../support/db";
import { rand, validatedDomain } from "../support/email";
import { balanceOf, setAccount } from "../support/factories";

let token: string;
let accountId: string;
let domain: string;

const campaign = (body: Record<string, unknown>) => api("/api/email/campaigns", { token, body, lang: "en" });
const peer = (path: string) =>
  fetch(new URL(path, inject("simulatorUrl")), { headers: { Authorization: `Bearer ${inject("simulatorApiKey")}` } }).then((r) => r.json() as Promise<{ data: any }>);

beforeAll(async () => {
  const p = await registerPerson("emailcamp10k");
  accountId = p.accountId;
  token = (await login(p.email, p.password)).token;
  await setAccount(accountId, { balance: 100_000 });
  domain = (await validatedDomain(token)).domain;
});

describe("a campaign to 10,000 addresses", () => {
  it("delivers through the local SMTP peer: each address exactly one message, and the campaign's counters equal the events", { timeout: 600_000 }, async () => {
    const rcptDomain = `massa-${rand()}.test`;
    const to = Array.from({ length: 10_000 }, (_, i) => `cliente${i}@${rcptDomain}`);
    const before = await balanceOf(accountId);
    const acceptedAt = Date.now();
    const res = await campaign({ from: `news@${domain}`, to, subject: "Novidades de {{email}}", html: "<p>Oferta para {{email}}</p>" });
    expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(201);
    expect(res.body.data.summary).toMatchObject({ messages: 10_000, sendable: 10_000 });
    expect(await balanceOf(accountId)).toBe(before - 10_000);
    const id = res.body.data.campaign_id;
    // 10,000 rows in one statement: their month's statistics are refreshed at once (api/messages/statistics.ts), not at autovacuum's next pass.
    const analyzed = async () =>
      (
        await query<{ at: Date | null }>(`SELECT s.last_analyze AS at FROM pg_stat_user_tables s WHERE s.relid = (SELECT tableoid FROM messages WHERE campaign_id = $1 LIMIT 1)`, [
          id,
        ])
      )[0]?.at;
    await expect.poll(async () => (await analyzed())?.getTime() ?? 0, { timeout: 20_000, interval: 200 }).toBeGreaterThanOrEqual(acceptedAt - 1000);
    const counts = async () => (await api(`/api/email/campaigns/${id}`, { token })).body.data as { counts: Record<string, number>; status: string; done: number };
    await expect.poll(async () => (await counts()).counts.delivered ?? 0, { timeout: 540_000, interval: 2000 }).toBe(10_000);
    const received = (await peer(`/email/_sim/counts?domain=${rcptDomain}`)).data as Record<string, number>;
    expect(Object.keys(received).length).toBe(10_000);
    expect(Object.values(received).every((n) => n === 1)).toBe(true);
    expect(to.every((a) => received[a] === 1)).toBe(true);
    const events = await query<{ status: string; n: number }>(
      `SELECT e.status, count(DISTINCT e.message_id)::int AS n FROM message_events e JOIN messages m ON m.id = e.message_id AND m.created_at = e.message_created_at
        WHERE m.campaign_id = $1 GROUP BY e.status ORDER BY e.status`,
      [id],
    );
    const final = await counts();
    expect(final.counts).toEqual({ delivered: 10_000 });
    // Every message delivered once by the peer's report, none failed or dropped.
    const byStatus = Object.fromEntries(events.map((e) => [e.status, e.n]));
    expect(byStatus.delivered).toBe(10_000);
    expect(Object.keys(byStatus).filter((s) => !["queued", "sent", "delivered"].includes(s))).toEqual([]);
    await expect.poll(async () => (await counts()).status, { timeout: 60_000, interval: 1000 }).toBe("completed");
  });
});
