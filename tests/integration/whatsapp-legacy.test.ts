/**
 * The spec's older WhatsApp API paths (issue 16; api/whatsapp/legacy-routes.ts) on the same
 * use-cases as the current ones, against the simulator's loopback peers: the v2 sends
 * (sendTextTemplate, sendMedia, sendMediaTemplate — a media header's file reaches Graph, as Meta
 * requires), the older integration's client, lists by POST, the bulk template delete, the figures,
 * the exports and the "new" paths; another account sees none of it.
 */
import { beforeAll, describe, expect, inject, it } from "vitest";
import { ONPREM_SIM_PASSWORD, ONPREM_SIM_USERNAME } from "../../api/simulator/whatsapp-onprem";
import { api, login, registerPerson } from "../support/api";
import { query } from "../support/db";
import { giveOmni, setAccount } from "../support/factories";
import { waitUntil } from "../support/loopback-peer";
import { approvedTemplate, type CloudNumber, connectCloudNumber, contactWrites, digits, peerMessages } from "../support/whatsapp";

let token: string;
let otherToken: string;
let n: CloudNumber;
let textTemplate: string;
let imageTemplate: string;
const as = (path: string, o: { method?: string; body?: unknown; lang?: string; headers?: Record<string, string> } = {}) => api(path, { token, ...o });
const contact = () => `+55119${digits(8).replace(/0001$/, "0002")}`;
const statusOf = async (id: string) => (await as(`/api/whatsapp/messages/${id}`)).body.data.status as string;

beforeAll(async () => {
  const p = await registerPerson("whatsapp-legacy");
  await giveOmni(p.accountId);
  await setAccount(p.accountId, { balance: 1_000_000 });
  token = (await login(p.email, p.password)).token;
  const other = await registerPerson("whatsapp-legacy-other");
  await giveOmni(other.accountId);
  otherToken = (await login(other.email, other.password)).token;
  n = await connectCloudNumber(token);
  textTemplate = `legado_${digits(6)}`;
  imageTemplate = `legado_img_${digits(6)}`;
  await approvedTemplate(n, { name: textTemplate, body: "Olá {{1}}, seu pedido {{2}} saiu.", body_examples: ["Ana", "42"] });
  await approvedTemplate(n, {
    name: imageTemplate,
    category: "marketing",
    header: { type: "image", url: "https://loja.example/vitrine.jpg" },
    body: "Novidades da semana, {{1}}!",
    body_examples: ["Ana"],
  });
}, 60_000);

describe("v2 sends", () => {
  it("sendTextTemplate: from by phone number id, the template with its variables reaches Graph, delivered and read; the same key answers the same message", async () => {
    const to = contact();
    const body = { from: n.phoneNumberId, to, template: textTemplate, language: "pt_BR", variables: ["Bia", "77"] };
    const key = `k-${digits(8)}`;
    const res = await as("/api/messages/sendTextTemplate", { body, headers: { "Idempotency-Key": key } });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body.data).toMatchObject({ to, status: "queued", category: "utility" });
    const again = await as("/api/messages/sendTextTemplate", { body, headers: { "Idempotency-Key": key } });
    expect(again.status).toBe(202);
    expect(again.body.data.id).toBe(res.body.data.id);
    const [sent] = await waitUntil("the peer got it", async () => {
      const m = await peerMessages(to);
      return m.length ? m : null;
    });
    expect(sent.content.template).toMatchObject({
      name: textTemplate,
      language: { code: "pt_BR" },
      components: [
        {
          type: "body",
          parameters: [
            { type: "text", text: "Bia" },
            { type: "text", text: "77" },
          ],
        },
      ],
    });
    await expect.poll(() => statusOf(res.body.data.id), { timeout: 15_000 }).toBe("read");
    const viaNew = await as(`/api/whatsapp/new/messages/${res.body.data.id}`);
    expect(viaNew.status).toBe(200);
    expect(viaNew.body.data).toMatchObject({ id: res.body.data.id, status: "read", body: "Olá Bia, seu pedido 77 saiu." });
    expect((await api(`/api/whatsapp/new/messages/${res.body.data.id}`, { token: otherToken })).status).toBe(404);
  });

  it("a template whose header is an image: sendMediaTemplate sends the file given; the current path sends the template's own example (Meta refuses one without: 132012)", async () => {
    const to = contact();
    const res = await as("/api/messages/sendMediaTemplate", {
      body: { from: n.numberId, to, template: imageTemplate, variables: ["Caio"], media: { url: "https://loja.example/promo-sexta.png" } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const plain = await as("/api/whatsapp/messages", {
      body: { from: n.numberId, to, type: "template", template: { name: imageTemplate, language: "pt_BR", variables: ["Caio"] } },
    });
    expect(plain.status, JSON.stringify(plain.body)).toBe(202);
    const sent = await waitUntil("both at the peer", async () => {
      const m = await peerMessages(to);
      return m.length === 2 ? m : null;
    });
    const headers = sent.map((m) => m.content.template.components.find((c: { type: string }) => c.type === "header")?.parameters[0]);
    expect(headers).toEqual(
      expect.arrayContaining([
        { type: "image", image: { link: "https://loja.example/promo-sexta.png" } },
        { type: "image", image: { link: "https://loja.example/vitrine.jpg" } },
      ]),
    );
    for (const id of [res.body.data.id, plain.body.data.id]) await expect.poll(() => statusOf(id), { timeout: 15_000 }).toBe("read");

    const badLink = await as("/api/messages/sendMediaTemplate", {
      body: { from: n.numberId, to, template: imageTemplate, variables: ["Caio"], media: { url: "http://10.0.0.1/x.png" } },
      lang: "en",
    });
    expect(badLink.status).toBe(422);
    expect(badLink.body.error.fields["template.header_media.link"]).toEqual(["Invalid media URL: use an https address the provider can download"]);
  });

  it("sendMedia: a file by link inside the window; outside it the rule of the window; a private address is an invalid media URL", async () => {
    const to = contact();
    const closed = await as("/api/messages/sendMedia", {
      body: { from: n.numberId, to, type: "document", url: "https://loja.example/boleto.pdf", filename: "boleto.pdf" },
      lang: "en",
    });
    expect(closed.status).toBe(422);
    expect(JSON.stringify(closed.body.error)).toContain("Please provide a template before sending");
    await contactWrites(n, to);
    const res = await as("/api/messages/sendMedia", {
      body: { from: n.numberId, to, type: "document", url: "https://loja.example/boleto.pdf", filename: "boleto.pdf", caption: "Seu boleto" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body.data).toMatchObject({ status: "queued", category: "service" });
    const [sent] = await waitUntil("the peer got it", async () => {
      const m = await peerMessages(to);
      return m.length ? m : null;
    });
    expect(sent).toMatchObject({ type: "document", content: { document: { link: "https://loja.example/boleto.pdf", filename: "boleto.pdf", caption: "Seu boleto" } } });
    const bad = await as("/api/messages/sendMedia", { body: { from: n.numberId, to, url: "https://127.0.0.1/x.jpg" }, lang: "en" });
    expect(bad.status).toBe(422);
    expect(bad.body.error.fields["image.link"]).toEqual(["Invalid media URL: use an https address the provider can download"]);
  });
});

describe("older paths of lists, templates, figures and exports", () => {
  it("whatsapp/client lists and connects only numbers of the older integration", async () => {
    const before = await as("/api/whatsapp/client");
    expect(before.status).toBe(200);
    expect(before.body.data).toEqual([]);
    const client = `5511${digits(9)}`;
    const connected = await as("/api/whatsapp/client", {
      body: { base_url: `${inject("simulatorUrl")}/whatsapp-onprem/${client}`, username: ONPREM_SIM_USERNAME, password: ONPREM_SIM_PASSWORD, phone_number: `+${client}` },
    });
    expect(connected.status, JSON.stringify(connected.body)).toBe(201);
    expect(connected.body.data).toMatchObject({ integration: "onprem", phone_number_id: client });
    const after = await as("/api/whatsapp/client");
    expect(after.body.data.map((x: { id: string }) => x.id)).toEqual([connected.body.data.id]);
    const all = await as("/api/whatsapp/numbers");
    expect(all.body.data.map((x: { integration: string }) => x.integration).sort()).toEqual(["cloud", "onprem"]);
    expect((await api("/api/whatsapp/client", { token: otherToken })).body.data).toEqual([]);
  });

  it("templates by POST list and by WABA; the bulk delete removes each named, and none when one is not the account's", async () => {
    const listed = await as("/api/whatsapp/templates/list", { body: { status: "approved", waba_id: n.wabaId } });
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.data.map((x: { name: string }) => x.name).sort()).toEqual([imageTemplate, textTemplate].sort());
    const byWaba = await as(`/api/whatsapp/new/templates/${n.wabaId}`);
    expect(byWaba.body.data).toHaveLength(2);
    expect((await as(`/api/whatsapp/new/templates/9${digits(14)}`)).body.data).toEqual([]);
    expect((await as("/api/whatsapp/templates/list", { body: { integration: "onprem" } })).body.data).toEqual([]);

    const doomed = await Promise.all(
      ["a", "b"].map(async (x) => {
        const r = await as(`/api/whatsapp/new/templates/${n.numberId}`, { body: { name: `apagar_${x}_${digits(5)}`, category: "utility", language: "pt_BR", body: "Até logo." } });
        expect(r.status, JSON.stringify(r.body)).toBe(201);
        return r.body.data.id as string;
      }),
    );
    const foreign = await as("/api/whatsapp/templates?ids=" + [doomed[0], "00000000-0000-4000-8000-000000000000"].join(","), { method: "DELETE" });
    expect(foreign.status).toBe(404);
    expect(await query("SELECT id FROM whatsapp_templates WHERE id = ANY($1::uuid[])", [doomed])).toHaveLength(2);
    const gone = await as(`/api/whatsapp/templates?ids=${doomed.join(",")}`, { method: "DELETE" });
    expect(gone.status, JSON.stringify(gone.body)).toBe(200);
    expect(gone.body).toEqual({ deleted: 2, ids: doomed });
    expect(await query("SELECT id FROM whatsapp_templates WHERE id = ANY($1::uuid[])", [doomed])).toHaveLength(0);
  });

  it("messages by POST list and the new history; charts and insights count them; an export of them by /whatsapp/reports", async () => {
    const to = contact();
    const sent = await as("/api/messages/sendTextTemplate", { body: { from: n.numberId, to, template: textTemplate, variables: ["Duda", "9"] } });
    expect(sent.status).toBe(202);
    await expect.poll(() => statusOf(sent.body.data.id), { timeout: 15_000 }).toBe("read");

    const listed = await as("/api/whatsapp/messages/list", { body: { to } });
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.data.map((m: { id: string }) => m.id)).toEqual([sent.body.data.id]);
    const history = await as(`/api/whatsapp/new/history?to=${encodeURIComponent(to)}`);
    expect(history.body.data.map((m: { id: string }) => m.id)).toEqual([sent.body.data.id]);

    const [{ count }] = await query<{ count: string }>(
      "SELECT count(*) FROM messages m JOIN whatsapp_numbers w ON w.account_id = m.account_id WHERE w.id = $1 AND m.channel = 'whatsapp' AND m.direction = 'outbound'",
      [n.numberId],
    );
    const charts = await as("/api/whatsapp/messages/charts?days=7");
    expect(charts.status, JSON.stringify(charts.body)).toBe(200);
    expect(charts.body.data).toHaveLength(7);
    expect(charts.body.totals.total).toBe(Number(count));
    const insights = await as("/api/whatsapp/messages/insights", { body: { days: 30 } });
    expect(insights.status, JSON.stringify(insights.body)).toBe(200);
    expect(insights.body).toMatchObject({ days: 30, messages: Number(count) });
    expect(insights.body.read).toBeGreaterThanOrEqual(1);

    const exported = await as("/api/whatsapp/reports", { body: { to } });
    expect(exported.status, JSON.stringify(exported.body)).toBe(201);
    const id = exported.body.data.id;
    expect(exported.headers.get("location")).toBe(`/api/whatsapp/reports/${id}`);
    await waitUntil("the export done", async () => (await as(`/api/whatsapp/reports/${id}`)).body.data.status === "done");
    expect((await as("/api/whatsapp/reports")).body.data.map((e: { id: string }) => e.id)).toContain(id);
    const file = await fetch(new URL(`/api/whatsapp/reports/${id}/file`, inject("apiUrl")), { headers: { Authorization: `Bearer ${token}` } });
    expect(file.status).toBe(200);
    const csv = await file.text();
    expect(csv).toContain(sent.body.data.id);
    expect(csv.trim().split("\n")).toHaveLength(2);
    expect((await api(`/api/whatsapp/reports/${id}`, { token: otherToken })).status).toBe(404);
    expect((await as("/api/sms/reports")).body.data.map((e: { id: string }) => e.id)).not.toContain(id);
  });

  it("a campaign of a template with an image header sends the file given to each recipient", async () => {
    const to = [contact(), contact()];
    const res = await as("/api/whatsapp/campaigns", {
      body: {
        from: n.numberId,
        template: { name: imageTemplate, language: "pt_BR", variables: ["{{mobile}}"], header_media: { link: "https://loja.example/black-friday.png" } },
        to,
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    for (const recipient of to) {
      const [sent] = await waitUntil(`the campaign's message to ${recipient} at the peer`, async () => {
        const m = await peerMessages(recipient);
        return m.length ? m : null;
      });
      expect(sent.content.template.components).toEqual(
        expect.arrayContaining([
          { type: "header", parameters: [{ type: "image", image: { link: "https://loja.example/black-friday.png" } }] },
          { type: "body", parameters: [{ type: "text", text: recipient }] },
        ]),
      );
    }
  });

  it("the new campaign list is the campaigns' list", async () => {
    const res = await as("/api/whatsapp/campaigns", { body: { from: n.numberId, template: { name: textTemplate, language: "pt_BR", variables: ["Eva", "1"] }, to: [contact()] } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const listed = await as("/api/whatsapp/new/campaign");
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.data.map((c: { id: string }) => c.id)).toContain(res.body.data.campaign_id);
  });
});
