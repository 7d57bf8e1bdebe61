/**
 * The RCS campaign screens without JavaScript (plain form posts through the web process):
 * /rcs/campaigns/new starts a campaign to a contact group or a CSV file (multipart, CSRF first);
 * a card without title and media comes back with the rule under its field and nothing charged;
 * /rcs/campaigns lists it with its agent, status and live counters and pauses, resumes, cancels
 * (refunded) and deletes it from its row; /rcs/campaigns/{id} shows counters, cost and the content
 * (type and plain text). Who may not send RCS does not reach the new campaign form.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { query } from "../support/db";
import { makeGroupWithContacts, makeRcsAgent } from "../support/factories";
import { location, signedInCustomer, type WebCustomer } from "../support/web";

let owner: WebCustomer;
let agentId: string;
let groupId: string;
const numbers = Array.from({ length: 30 }, (_, i) => `+55119${String(40_000_000 + Math.floor(Math.random() * 9_000_000) + i * 1_000).slice(0, 8)}`);
const balanceOf = async (accountId: string) => Number((await query<{ balance: string }>("SELECT balance FROM account_balances WHERE account_id = $1", [accountId]))[0].balance);
const decode = (html: string) =>
  html
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">");

/** The new campaign form as a browser without JavaScript posts it: multipart, CSRF first (postMultipart), then mode, then the rest, then the file. */
function campaignForm(fields: Record<string, string>, file?: { name: string; text: string }) {
  const form = new FormData();
  form.append("mode", fields.mode ?? "group");
  for (const [k, v] of Object.entries(fields)) if (k !== "mode") form.append(k, v);
  form.append("file", file ? new Blob([file.text], { type: "text/csv" }) : new Blob([]), file?.name ?? "");
  return form;
}

beforeAll(async () => {
  owner = await signedInCustomer("rcsweb", { balance: 100_000, company: "RCS" });
  agentId = (await makeRcsAgent(owner.accountId, { name: "Loja Web" })).id;
  groupId = (
    await makeGroupWithContacts(
      owner.accountId,
      "Clientes web",
      [...new Set(numbers)].map((mobileNumber) => ({ mobileNumber })),
    )
  ).groupId;
});

describe("RCS campaign screens without JavaScript", () => {
  it("start a campaign to a group from /rcs/campaigns/new; a card without title and media is refused under its field, nothing charged", async () => {
    const c = owner.client;
    const empty = await c.page("/rcs/campaigns");
    expect(empty.res.status).toBe(200);
    expect(empty.html).toContain("Nenhuma campanha RCS ainda.");
    const form = await c.page("/rcs/campaigns/new");
    expect(form.res.status).toBe(200);
    expect(form.html).toContain("Loja Web");
    expect(form.html).toContain("Clientes web");

    const before = await balanceOf(owner.accountId);
    const bad = await c.postMultipart("/rcs/campaigns/new", campaignForm({ agent_id: agentId, group_id: groupId, kind: "card", messageDescription: "Só descrição" }));
    expect(bad.status).toBe(422);
    expect(decode(await bad.text())).toContain("Um card precisa de um título ou de uma mídia");
    expect(await balanceOf(owner.accountId)).toBe(before);

    const sent = await c.postMultipart(
      "/rcs/campaigns/new",
      campaignForm({ agent_id: agentId, group_id: groupId, kind: "text", messageText: "Promoção de sábado", name: "Sábado", fallback_sms: "on" }),
    );
    expect(sent.status, await sent.clone().text()).toBe(302);
    const id = /^\/rcs\/campaigns\/([0-9a-f-]{36})$/.exec(location(sent) ?? "")?.[1];
    expect(id).toBeTruthy();
    const members = new Set(numbers).size;
    const [row] = await query<{ n: number; sum: string; content: any }>(
      `SELECT count(*)::int AS n, sum(price)::text AS sum, (array_agg(content))[1] AS content FROM messages WHERE campaign_id = $1`,
      [id],
    );
    expect(row).toMatchObject({ n: members, sum: String(members * 6) });
    expect(row.content).toEqual({ type: "text", messageText: "Promoção de sábado", fallbackSms: true });
    expect(await balanceOf(owner.accountId)).toBe(before - members * 6);

    const detail = await c.page(`/rcs/campaigns/${id}`);
    expect(detail.res.status).toBe(200);
    const html = decode(detail.html);
    expect(html).toContain("Promoção de sábado");
    expect(html).toMatch(/data-info="type"[^>]*>Texto</);
    expect(html).toMatch(/data-info="priceClass"[^>]*>Básica</);
    expect(html).toMatch(/data-info="agent"[^>]*>Loja Web</);
  });

  it("the list shows agent, status and counters, and pauses, resumes, cancels (refunded) and deletes from the row with plain posts", async () => {
    const c = owner.client;
    // A group large enough that the dispatcher cannot finish it between the resume and the cancel
    // posts (with 30 contacts a rehearsal saw it completed first, and the cancel refused).
    const base = 50_000_000 + Math.floor(Math.random() * 40_000_000);
    const { groupId: bigGroup } = await makeGroupWithContacts(
      owner.accountId,
      "Clientes controle",
      Array.from({ length: 3_000 }, (_, i) => ({ mobileNumber: `+55119${String(base + i * 3).slice(0, 8)}` })),
    );
    const before = await balanceOf(owner.accountId);
    const sent = await c.postMultipart("/rcs/campaigns/new", campaignForm({ agent_id: agentId, group_id: bigGroup, kind: "text", messageText: "Oi", name: "Controle" }));
    expect(sent.status).toBe(302);
    const id = location(sent)!.split("/").pop()!;
    const cost = before - (await balanceOf(owner.accountId));
    expect(cost).toBeGreaterThan(0);
    const list = decode((await c.page("/rcs/campaigns")).html);
    const row = new RegExp(`<tr[^>]*data-campaign="${id}"[\\s\\S]*?</tr>`).exec(list)?.[0] ?? "";
    expect(row).toContain("Controle");
    expect(row).toMatch(/data-cell="agent"[^>]*>Loja Web</);
    expect(row).toContain('data-action="paused"');

    const status = async () => (await query<{ status: string }>(`SELECT status FROM campaigns WHERE id = $1`, [id]))[0]?.status;
    expect(location(await c.post("/rcs/campaigns", { intent: "control", id, status: "paused" }))).toBe("/rcs/campaigns");
    expect(await status()).toBe("paused");
    expect(decode((await c.page("/rcs/campaigns")).html)).toMatch(new RegExp(`data-campaign="${id}"[\\s\\S]*?data-action="running"`));
    expect(location(await c.post("/rcs/campaigns", { intent: "control", id, status: "running" }))).toBe("/rcs/campaigns");
    expect(await status()).toBe("running");
    // The cancel meets the dispatcher claiming the campaign's messages: it still succeeds (a lock cycle is run again).
    const cancel = await c.post("/rcs/campaigns", { intent: "control", id, status: "canceled" });
    expect(cancel.status, await cancel.clone().text()).toBe(302);
    expect(location(cancel)).toBe("/rcs/campaigns");
    expect(await status()).toBe("canceled");
    // Every message not sent yet is refunded (canceled, or failed before RBM took it); the ones RBM took (the worker dispatches at once) stay paid.
    const [kept] = await query<{ paid: number }>(
      `SELECT ((SELECT coalesce(sum(price), 0) FROM messages WHERE campaign_id = $1)
             - (SELECT coalesce(sum((e.payload->>'price')::bigint), 0) FROM message_events e JOIN messages m ON m.id = e.message_id AND m.created_at = e.message_created_at
                 WHERE m.campaign_id = $1 AND e.status = 'refund'))::int AS paid`,
      [id],
    );
    expect(await balanceOf(owner.accountId)).toBe(before - kept.paid);
    // Without the CSRF token nothing happens.
    const forged = await c.post("/rcs/campaigns", { intent: "delete", id }, { csrf: null });
    expect(forged.status).toBe(403);
    expect(await status()).toBe("canceled");
    const deleted = await c.post("/rcs/campaigns", { intent: "delete", id });
    expect(deleted.status, await deleted.clone().text()).toBe(302);
    expect(await status()).toBeUndefined();
  });

  it("a CSV file from the form: its rows sent, the row without a valid number counted", async () => {
    const c = owner.client;
    const csv = ["nome,celular", `Ana,${numbers[0]}`, "Bia,999", `Caio,${numbers[1]}`].join("\n");
    const sent = await c.postMultipart(
      "/rcs/campaigns/new",
      campaignForm({ mode: "file", agent_id: agentId, kind: "text", messageText: "Arquivo" }, { name: "lista.csv", text: csv }),
    );
    expect(sent.status, await sent.clone().text()).toBe(302);
    const id = location(sent)!.split("/").pop()!;
    const [r] = await query<{ n: number; invalid: number }>(
      `SELECT (SELECT count(*)::int FROM messages WHERE campaign_id = $1) AS n, (SELECT count(*)::int FROM campaign_invalid_rows WHERE campaign_id = $1 AND line = 3) AS invalid`,
      [id],
    );
    expect(r).toEqual({ n: 2, invalid: 1 });
    // The campaign's page links the report of the invalid rows; it names the line of the file.
    expect((await c.page(`/rcs/campaigns/${id}`)).html).toContain(`href="/rcs/campaigns/${id}/invalid-rows"`);
    const report = await c.get(`/rcs/campaigns/${id}/invalid-rows`);
    expect(report.status).toBe(200);
    const lines = (await report.text())
      .replace(/^\uFEFF/, "")
      .trim()
      .split(/\r\n/);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^3,999,/);
  });

  it("who may not send RCS does not reach the new campaign form; the list is the account's own", async () => {
    const billing = await signedInCustomer("rcsweb-billing", { role: "billing" });
    // Refused: sent to the /403 screen.
    const refused = await billing.client.get("/rcs/campaigns/new");
    expect([refused.status, location(refused)]).toEqual([302, "/403"]);
    const other = await signedInCustomer("rcsweb-other");
    const list = await other.client.page("/rcs/campaigns");
    expect(list.res.status).toBe(200);
    expect(list.html).not.toContain("Loja Web");
  });
});
