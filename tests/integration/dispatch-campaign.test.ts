/**
 * A campaign of 10,000 recipients end to end, on a private process stack (its own database, api,
 * worker and simulator — so its 10,000 submits and receipts never slow other test files down):
 * a contact group of 10,000 (fixture rows, as an import would leave them) is sent to through
 * POST /api/sms/messages {group_id}, which creates the campaign; the worker dispatches, the
 * simulator answers and posts receipts — the campaign completes with the EXACT per-status counts
 * the simulator's mix predicts for those message ids (api/simulator/outcome.ts), each message is
 * submitted once, the list and detail API show the same counts and the balance moved once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { simulatedOutcome } from "../../api/simulator/outcome";
import { tally, waitUntil } from "../support/campaigns";
import { startStack, type Stack } from "../support/stack";
import { makeGroupWithContacts, setAccount } from "../support/factories";

const N = 10_000;
let stack: Stack;
let token: string;
let accountId: string;

beforeAll(async () => {
  stack = await startStack({ env: { SIMULATOR_DELAY_MS: "50" } });
  const owner = await stack.signInDemoOwner();
  token = owner.token;
  accountId = owner.accountId;
  await setAccount(accountId, { balance: 10000000 }, stack.query);
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

const balance = async () => Number((await stack.query<{ balance: string }>("SELECT balance FROM account_balances WHERE account_id = $1", [accountId]))[0].balance);

describe("a 10,000-recipient campaign", () => {
  it("completes with exact per-status counts, each message submitted once, charged once", async () => {
    const contacts = Array.from({ length: N }, (_, i) => ({ mobileNumber: `+55319${String(20000000 + i).padStart(8, "0")}`, firstName: `Cliente ${i}` }));
    const group = { id: (await makeGroupWithContacts(accountId, "Black Friday 10k", contacts, stack.query)).groupId };
    const before = await balance();
    const res = await stack.api("/api/sms/messages", { token, body: { group_id: group.id, body: "Ofertas de hoje: até 50% off", campaign_name: "Black Friday 10k" } });
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    const campaignId = res.body.campaign_id as string;
    expect(res.body.summary).toMatchObject({ messages: N, sendable: N });
    const charged = res.body.total_price as number;
    const ids = (await stack.query<{ id: string }>("SELECT id FROM messages WHERE campaign_id = $1", [campaignId])).map((r) => r.id);
    expect(ids).toHaveLength(N);
    const expected = tally(ids.map((id) => simulatedOutcome(id)));

    // Completed once nothing is left to send (every message at the provider)…
    const completed = await waitUntil(
      "campaign completed",
      () => stack.api(`/api/sms/campaigns/${campaignId}`, { token }),
      (r) => r.body.data?.status === "completed",
      200_000,
      1000,
    );
    expect(Object.keys(completed.body.data.counts).filter((s) => ["queued", "sending", "pending", "scheduled"].includes(s))).toEqual([]);
    // …and once every receipt is in, the exact per-status counts of the simulator's mix.
    const done = await waitUntil(
      "every receipt applied",
      () => stack.api(`/api/sms/campaigns/${campaignId}`, { token }),
      (r) => !r.body.data?.counts?.sent,
      150_000,
      1000,
    );
    expect(done.body.data.counts).toEqual(expected);
    expect(done.body.data).toMatchObject({ total: N, done: N, progress: 100 });
    const listed = (await stack.api("/api/sms/campaigns", { token })).body.data.find((c: { id: string }) => c.id === campaignId);
    expect(listed.counts).toEqual(expected);

    const stats = await stack.simulator<{ references: Record<string, number> }>();
    expect(tally(ids.map((id) => String(stats.references[id] ?? 0)))).toEqual({ "1": N });
    expect(await balance()).toBe(before - charged);
    expect(charged).toBe(N * 7); // the demo tenant's T1 price, 7 centavos a segment
  }, 420_000);
});
