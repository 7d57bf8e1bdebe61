/**
 * RCS as a live chat channel (issue 21, ADR 055 "Live chat"), on a private stack whose APP_URL is a
 * public https origin (the signed links of agents' files must be links RBM can fetch). A handset's
 * message reaches the live chat the way the RBM callback hands it over (receiveRcsInbound, run in a
 * process of its own: tests/support/rcs-inbound-run.ts):
 * - it opens a room in the queue, named by the agent and the handset, the contact matched by the
 *   number, assigned to the attending owner; a second message joins the same room; a redelivered
 *   callback adds nothing;
 * - the agent's reply is an RCS message of the pipeline (channel rcs, from the agent to the
 *   handset, priced basic/rich and debited, queued with its outbox row for the RBM adapter, no
 *   live:outbound row); its suggestion buttons are the content's reply suggestions;
 * - an agent's file goes as a `midia` whose link is our signed URL ending in the file's extension
 *   (it answers the bytes without a session); over 5,242,880 bytes, or of a type RCS does not take,
 *   it is refused with the translated error and nothing is written;
 * - an opted-out handset is refused with the reason;
 * - RBM's statuses, applied as its callback applies them (tests/support/rcs-receipt-run.ts, the
 *   receipt path with followLiveReceipts), reach the live message: delivered, read, failed with
 *   the reason; another agent's report moves nothing;
 * - a flow on channel rcs answers the first message (its question's choices as reply suggestions,
 *   not numbered) and a tapped suggestion answers the question.
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeRcsAgent } from "../support/factories";
import { liveOwner, waitUntil } from "../support/loopback-peer";
import { startStack, type Stack } from "../support/stack";

const root = resolve(__dirname, "..", "..");
const APP_URL = "https://app.mensageria.test";
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from("IHDR-fake-png-body")]);
const GIF = Buffer.concat([Buffer.from("GIF89a", "latin1"), Buffer.alloc(32)]);
const PDF = Buffer.from("%PDF-1.4\n%fake\n");
/** An EBML header whose DocType is webm. */
const WEBM = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84]), Buffer.from("webm", "latin1"), Buffer.alloc(32)]);
const SVG = Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>');
/** A lossless WebP of 1024x1024: too wide for a sticker, an image in an RCS room. */
const WEBP = (() => {
  const b = Buffer.alloc(40);
  b.write("RIFF", 0, "latin1");
  b.writeUInt32LE(32, 4);
  b.write("WEBPVP8L", 8, "latin1");
  b.writeUInt32LE(20, 16);
  b[20] = 0x2f;
  b.writeUInt32LE((1023 & 0x3fff) | ((1023 & 0x3fff) << 14), 21);
  return b;
})();
const digits = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 10)).join("");
/** A handset the peer treats normally (numbers ending 0000 are not RCS-capable, 0001 get no callbacks). */
const handset = () => `+5511${digits(9)}`.replace(/000[01]$/, "0002");

let stack: Stack;
let token: string;
let accountId: string;
let agent: { id: string; rbm_agent_id: string };
let stopSocket: () => Promise<void>;

const as = (path: string, o: { method?: string; body?: unknown; lang?: string } = {}) => stack.api(path, { ...o, token });

/** A support script of tests/support run in a process of its own with the stack's env: its last line of output, as JSON. */
function runScript<T>(script: string, input: unknown): Promise<T> {
  return new Promise((done, fail) => {
    const child = spawn(resolve(root, "node_modules", ".bin", "bun"), [script, JSON.stringify(input)], { cwd: root, env: { ...stack.env } });
    let out = "";
    child.stdout.on("data", (c) => (out += c));
    child.stderr.on("data", (c) => process.stderr.write(c));
    child.on("close", (code) => (code === 0 ? done(JSON.parse(out.trim().split("\n").pop() ?? "null")) : fail(new Error(`${script} exited ${code}`))));
  });
}

/** The handset writes (or taps a suggestion): what the RBM callback hands the live chat (tests/support/rcs-inbound-run.ts). Answers RBM's message id. */
async function handsetWrites(from: string, text: string, extra: { postbackData?: string; providerMessageId?: string } = {}): Promise<string> {
  const providerMessageId = extra.providerMessageId ?? `rbm-${randomUUID()}`;
  await runScript("tests/support/rcs-inbound-run.ts", { accountId, agent, from, text, postbackData: extra.postbackData, providerMessageId, at: new Date().toISOString() });
  return providerMessageId;
}

const roomOf = async (from: string) =>
  (
    await stack.query<Record<string, any>>(`SELECT * FROM live_rooms WHERE account_id = $1 AND channel = 'rcs' AND external_id = $2 ORDER BY created_at DESC LIMIT 1`, [
      accountId,
      `${agent.id}:${from}`,
    ])
  )[0];
const assignedRoom = (from: string) =>
  waitUntil("room opened and assigned", async () => {
    const room = await roomOf(from);
    return room?.status === "OPEN" && room.agent_id ? room : undefined;
  });
const liveMessages = (roomId: string) => stack.query<Record<string, any>>(`SELECT * FROM live_messages WHERE room_id = $1 ORDER BY created_at, id`, [roomId]);
const balance = async () => Number((await stack.query<{ balance: string }>(`SELECT balance FROM account_balances WHERE account_id = $1`, [accountId]))[0].balance);
const messageOf = async (liveId: string) =>
  (await stack.query<Record<string, any>>(`SELECT m.* FROM messages m JOIN live_messages l ON l.message_id = m.id WHERE l.id = $1`, [liveId]))[0];
const outboxOf = (messageId: string) => stack.query<{ topic: string }>(`SELECT topic FROM outbox WHERE payload->>'message_id' = $1`, [messageId]);

async function upload(roomId: string, bytes: Buffer, name: string, message = "", lang = "en") {
  const form = new FormData();
  form.set("id_room", roomId);
  form.set("message", message);
  form.set("file", new Blob([new Uint8Array(bytes)]), name);
  const res = await fetch(new URL("/api/webchat/upload", stack.apiUrl), { method: "POST", headers: { Authorization: `Bearer ${token}`, "Accept-Language": lang }, body: form });
  return { status: res.status, body: await res.json() };
}

beforeAll(async () => {
  stack = await startStack({ realtime: true, env: { APP_URL, OUTBOX_POLL_MS: "50" } });
  const owner = await liveOwner(stack);
  ({ token, accountId } = owner);
  stopSocket = async () => {
    await owner.socket.close();
  };
  const made = await makeRcsAgent(accountId, {}, stack.query);
  agent = { id: made.id, rbm_agent_id: made.rbmAgentId! };
  // Paid from the balance (the demo's RCS product, if any, would make the price 0).
  await stack.query(`UPDATE customer_products SET status = 'cancelled' WHERE account_id = $1 AND channel = 'rcs'`, [accountId]).catch(() => undefined);
  await stack.query(`UPDATE account_balances SET balance = 100000 WHERE account_id = $1`, [accountId]);
}, 120_000);

afterAll(async () => {
  await stopSocket?.().catch(() => undefined);
  await stack?.stop();
});

describe("RCS rooms", () => {
  it("a handset's message opens a room in the queue named by the agent and the handset, matched to the contact by number; a second joins it; a redelivery adds nothing", async () => {
    const from = handset();
    await stack.query(`INSERT INTO contacts (account_id, first_name, last_name, mobile_number) VALUES ($1, 'Joana', 'Prado', $2)`, [accountId, from]);
    const first = await handsetWrites(from, "Oi, quero saber do meu pedido");
    const room = await assignedRoom(from);
    const [contact] = await stack.query<{ id: string }>(`SELECT id FROM contacts WHERE account_id = $1 AND mobile_number = $2`, [accountId, from]);
    expect(room).toMatchObject({ channel: "rcs", external_id: `${agent.id}:${from}`, phone: from, contact_id: contact.id });
    expect(room.queued_at).toBeTruthy();
    await handsetWrites(from, "É o pedido 123");
    await handsetWrites(from, "Oi, quero saber do meu pedido", { providerMessageId: first });
    const list = await waitUntil("two messages", async () => {
      const l = await liveMessages(room.id);
      return l.length >= 2 ? l : undefined;
    });
    expect(list.map((m) => [m.author, m.body, m.external_id])).toEqual([
      ["visitor", "Oi, quero saber do meu pedido", first],
      ["visitor", "É o pedido 123", expect.stringMatching(/^rbm-/)],
    ]);
    expect(await stack.query(`SELECT 1 FROM live_rooms WHERE account_id = $1 AND external_id = $2`, [accountId, `${agent.id}:${from}`])).toHaveLength(1);
    // The redelivery, checked after a message that came later: still two.
    await handsetWrites(from, "Obrigada");
    await waitUntil("third message", async () => ((await liveMessages(room.id)).length >= 3 ? true : undefined));
    expect((await liveMessages(room.id)).map((m) => m.body)).toEqual(["Oi, quero saber do meu pedido", "É o pedido 123", "Obrigada"]);
  });

  it("the agent's reply is an RCS message of the pipeline: from the agent to the handset, priced and debited, queued for the RBM adapter; its buttons are reply suggestions", async () => {
    const from = handset();
    await handsetWrites(from, "Oi");
    const room = await assignedRoom(from);
    const wallet = await balance();
    const sent = await as("/api/omni/messages", { body: { room_id: room.id, message: "Olá! Seu pedido sai hoje.", client_id: "rcs-reply-1" } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body).toMatchObject({ author: "agent", body: "Olá! Seu pedido sai hoje." });
    const msg = await messageOf(sent.body.id);
    expect(msg).toMatchObject({
      channel: "rcs",
      direction: "outbound",
      sender: agent.rbm_agent_id,
      recipient: from,
      type: "text",
      body: "Olá! Seu pedido sai hoje.",
      // Queued for the RBM adapter, which the stack's worker may already have reached.
      status: expect.stringMatching(/^(queued|sending|sent)$/),
      provider: "rbm",
      route: "basic",
      content: { type: "text", messageText: "Olá! Seu pedido sai hoje." },
    });
    expect(Number(msg.price)).toBe(6);
    expect(await balance()).toBe(wallet - 6);
    expect((await outboxOf(msg.id)).map((o) => o.topic)).toEqual([expect.stringMatching(/rcs/)]);
    expect(await outboxOf(sent.body.id)).toEqual([]);
    // The same client id again answers the same message: nothing written twice.
    const again = await as("/api/omni/messages", { body: { room_id: room.id, message: "Olá! Seu pedido sai hoje.", client_id: "rcs-reply-1" } });
    expect(again.body.id).toBe(sent.body.id);
    expect(await stack.query(`SELECT 1 FROM messages WHERE account_id = $1 AND recipient = $2 AND direction = 'outbound'`, [accountId, from])).toHaveLength(1);

    const offered = await as("/api/omni/messages", { body: { room_id: room.id, message: "Posso ajudar em algo mais?", suggestions: ["Sim", "Não, obrigado"] } });
    expect(offered.status, JSON.stringify(offered.body)).toBe(200);
    expect(offered.body.suggestions).toEqual(["Sim", "Não, obrigado"]);
    const rich = await messageOf(offered.body.id);
    expect(rich.content).toMatchObject({
      type: "text",
      messageText: "Posso ajudar em algo mais?",
      suggestions: [
        { type: "reply", text: "Sim", postbackData: "Sim" },
        { type: "reply", text: "Não, obrigado", postbackData: "Não, obrigado" },
      ],
    });
    // Suggestions make it rich (Google bills them so).
    expect(rich.route).toBe("rich");
    expect(Number(rich.price)).toBe(18);
  });

  it("an agent's file goes as a midia by our signed link ending in its extension; over 5,242,880 bytes or of another type it is refused, translated, nothing written", async () => {
    const from = handset();
    await handsetWrites(from, "Manda a foto?");
    const room = await assignedRoom(from);
    const res = await upload(room.id, PNG, "foto.png", "segue a foto");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.attachments[0]).toMatchObject({ type: "image", media_type: "image/png", size: PNG.length });
    const msg = await messageOf(res.body.id);
    expect(msg).toMatchObject({ channel: "rcs", type: "midia", route: "rich", content: { type: "midia", messageText: "segue a foto" } });
    const link = new URL(msg.content.fileUrl);
    expect(link.origin).toBe(APP_URL);
    expect(link.pathname).toMatch(/^\/api\/live\/files\/[0-9a-f-]{36}\.png$/);
    // The link is ours, signed: it answers the very bytes without a session; another extension is not it.
    const file = await fetch(new URL(`${link.pathname}${link.search}`, stack.apiUrl));
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await file.arrayBuffer()).equals(PNG)).toBe(true);
    expect((await fetch(new URL(`${link.pathname.replace(/\.png$/, ".pdf")}${link.search}`, stack.apiUrl))).status).toBe(404);

    // GIF, WebM and SVG are RCS files (not webchat ones); a WebP is an image there, not a sticker (no 512x512 rule).
    const rcsFiles: Array<[Buffer, string, string, string]> = [
      [GIF, "oi.gif", "image", "gif"],
      [WEBM, "video.webm", "video", "webm"],
      [SVG, "logo.svg", "image", "svg"],
      [WEBP, "grande.webp", "image", "webp"],
    ];
    for (const [bytes, name, type, ext] of rcsFiles) {
      const got = await upload(room.id, bytes, name);
      expect(got.status, `${name}: ${JSON.stringify(got.body)}`).toBe(200);
      expect(got.body.attachments[0]).toMatchObject({ type, media_type: { gif: "image/gif", webm: "video/webm", svg: "image/svg+xml", webp: "image/webp" }[ext] });
      expect((await messageOf(got.body.id)).content.fileUrl).toMatch(new RegExp(`\\.${ext}\\?exp=`));
    }

    const before = (await liveMessages(room.id)).length;
    const messages = async () => (await stack.query(`SELECT 1 FROM messages WHERE account_id = $1 AND recipient = $2`, [accountId, from])).length;
    const sentBefore = await messages();
    const big = Buffer.concat([PNG, Buffer.alloc(5_242_881 - PNG.length)]);
    const over = await upload(room.id, big, "grande.png", "", "en");
    expect(over.status).toBe(413);
    expect(over.body.error.code).toBe("LIVE_FILE_TOO_LARGE");
    expect(over.body.error.message).toContain("5,242,880");
    const pdf = await upload(room.id, PDF, "contrato.pdf", "", "pt-BR");
    expect(pdf.status).toBe(415);
    expect(pdf.body.error.code).toBe("LIVE_FILE_TYPE_CHANNEL");
    expect(pdf.body.error.message).toBe("Formato não aceito neste canal: envie MP4, WebM, JPEG, GIF, PNG, WebP, SVG");
    expect((await liveMessages(room.id)).length).toBe(before);
    expect(await messages()).toBe(sentBefore);
    // Exactly the limit passes.
    const max = await upload(room.id, Buffer.concat([PNG, Buffer.alloc(5_242_880 - PNG.length)]), "max.png");
    expect(max.status, JSON.stringify(max.body).slice(0, 300)).toBe(200);
  });

  it("an opted-out handset is refused with the reason; nothing is written or charged", async () => {
    const from = handset();
    await handsetWrites(from, "Oi");
    const room = await assignedRoom(from);
    await stack.query(`INSERT INTO optouts (account_id, recipient, channel, source) VALUES ($1, $2, 'rcs', 'manual')`, [accountId, from]);
    const wallet = await balance();
    const refused = await as("/api/omni/messages", { body: { room_id: room.id, message: "Ainda está aí?" }, lang: "en" });
    expect(refused.status).toBe(422);
    expect(refused.body.error.fields.body[0]).toBe("This contact opted out of RCS messages (or is on the deny list)");
    expect(await stack.query(`SELECT 1 FROM messages WHERE account_id = $1 AND recipient = $2`, [accountId, from])).toHaveLength(0);
    expect((await liveMessages(room.id)).map((m) => m.author)).toEqual(["visitor"]);
    expect(await balance()).toBe(wallet);
  });
});

describe("RCS statuses in the room", () => {
  /** RBM's statuses of the agent's (`sender`) messages as its callback applies them (tests/support/rcs-receipt-run.ts). */
  const rbmReports = (receipts: Array<{ providerMessageId: string; status: string; errorCode?: string; errorMessage?: string }>, sender = agent.rbm_agent_id) =>
    runScript<string[]>("tests/support/rcs-receipt-run.ts", { accountId, sender, receipts });
  /** The dispatcher sends it through the RBM adapter to the stack's loopback peer: its `sent`, and RBM's id (the peer's callbacks go to APP_URL, not here). */
  const sentByRbm = async (messageId: string) => {
    await expect.poll(async () => (await stack.query<{ status: string }>(`SELECT status FROM messages WHERE id = $1`, [messageId]))[0]?.status, { timeout: 20_000 }).toBe("sent");
    return (await stack.query<{ provider_message_id: string }>(`SELECT provider_message_id FROM messages WHERE id = $1`, [messageId]))[0].provider_message_id;
  };
  const liveStatus = async (id: string) => (await stack.query<{ status: string; error: string | null }>(`SELECT status, error FROM live_messages WHERE id = $1`, [id]))[0];

  it("the loopback RBM peer's own DELIVERED and READ reach the agent's live message", async () => {
    const from = handset();
    await handsetWrites(from, "Oi");
    const room = await assignedRoom(from);
    const sent = await as("/api/omni/messages", { body: { room_id: room.id, message: "Seu pedido saiu." } });
    expect(sent.status).toBe(200);
    await expect.poll(async () => (await liveStatus(sent.body.id)).status, { timeout: 20_000 }).toBe("READ");
    expect((await messageOf(sent.body.id)).status).toBe("read");
  });

  it("delivered and read reach the agent's live message, forward only; a failure turns it FAIL with RBM's reason; another agent's report moves nothing", async () => {
    // The peer posts no callbacks for a number ending 0001: RBM's reports are the test's.
    const from = `${handset().slice(0, -4)}0001`;
    await handsetWrites(from, "Oi");
    const room = await assignedRoom(from);
    const sent = await as("/api/omni/messages", { body: { room_id: room.id, message: "Chegou?" } });
    expect(sent.status).toBe(200);
    const pid = await sentByRbm((await messageOf(sent.body.id)).id);
    // Another agent's callback cannot move it (the receipt's scope).
    const other = await rbmReports([{ providerMessageId: pid, status: "read" }], "outro@rbm.goog");
    expect(other).toEqual(["ignored"]);
    expect((await liveStatus(sent.body.id)).status).toBe("SENT");
    expect(await rbmReports([{ providerMessageId: pid, status: "delivered" }])).toEqual(["applied"]);
    expect((await liveStatus(sent.body.id)).status).toBe("DELIVERED");
    expect(await rbmReports([{ providerMessageId: pid, status: "read" }])).toEqual(["applied"]);
    expect((await liveStatus(sent.body.id)).status).toBe("READ");

    const doomed = await as("/api/omni/messages", { body: { room_id: room.id, message: "E agora?" } });
    const pid2 = await sentByRbm((await messageOf(doomed.body.id)).id);
    await rbmReports([{ providerMessageId: pid2, status: "failed", errorCode: "RCS_NOT_CAPABLE", errorMessage: "Handset is not RCS-capable" }]);
    expect(await liveStatus(doomed.body.id)).toEqual({ status: "FAIL", error: "Handset is not RCS-capable" });
  });
});

describe("a flow on RCS", () => {
  it("answers the first message with its question as an RCS message whose choices are reply suggestions; a tapped suggestion answers it and the hand-off queues the room", async () => {
    const flow = await as("/api/flow/flows", {
      body: {
        name: "Bot do RCS",
        channel: "rcs",
        trigger: "keyword",
        trigger_value: "menu",
        draft: {
          nodes: [
            { id: "start", type: "start", data: {} },
            { id: "ask", type: "question", data: { text: "Quer falar com uma pessoa?", check: "choice", choices: ["Sim", "Não"], store: { kind: "variable", name: "quer" } } },
            { id: "cond", type: "condition", data: { rules: [{ id: "sim", subject: "variable", name: "quer", op: "equals", value: "Sim" }] } },
            { id: "hand", type: "handoff", data: { message: "Um momento, já chamo a equipe" } },
            { id: "bye", type: "end", data: { message: "Até logo" } },
          ],
          edges: [
            { id: "e1", source: "start", output: "next", target: "ask" },
            { id: "e2", source: "ask", output: "answer", target: "cond" },
            { id: "e3", source: "cond", output: "sim", target: "hand" },
            { id: "e4", source: "cond", output: "else", target: "bye" },
          ],
        },
      },
    });
    expect(flow.status, JSON.stringify(flow.body)).toBe(201);
    expect((await as(`/api/flow/flows/${flow.body.data.id}/publish`, { method: "POST" })).status).toBe(200);

    const from = handset();
    await handsetWrites(from, "Menu");
    const room = await waitUntil("BOT room", async () => {
      const r = await roomOf(from);
      return r?.status === "BOT" ? r : undefined;
    });
    const botSaid = (n: number) =>
      waitUntil(`${n} bot messages`, async () => {
        const l = (await liveMessages(room.id)).filter((m) => m.author === "bot");
        return l.length >= n ? l : undefined;
      });
    const [question] = await botSaid(1);
    // Not numbered: RCS shows the choices as chips.
    expect(question).toMatchObject({ status: "SENT", body: "Quer falar com uma pessoa?", suggestions: ["Sim", "Não"] });
    const msg = await messageOf(question.id);
    expect(msg).toMatchObject({
      channel: "rcs",
      sender: agent.rbm_agent_id,
      recipient: from,
      // Queued for the RBM adapter, which the stack's worker may already have reached.
      status: expect.stringMatching(/^(queued|sending|sent)$/),
      content: {
        type: "text",
        messageText: "Quer falar com uma pessoa?",
        suggestions: [
          { type: "reply", text: "Sim", postbackData: "Sim" },
          { type: "reply", text: "Não", postbackData: "Não" },
        ],
      },
    });
    // The bot's audit entry names no user.
    const [audit] = await stack.query<{ user_id: string | null }>(`SELECT user_id FROM audit_logs WHERE action = 'rcs.accepted' AND meta->>'id' = $1`, [msg.id]);
    expect(audit).toEqual({ user_id: null });
    await expect
      .poll(async () => (await stack.query<{ status: string }>(`SELECT status FROM flow_streams WHERE room_id = $1`, [room.id]))[0]?.status, { timeout: 10_000 })
      .toBe("waiting");

    // The handset taps "Sim": RBM's suggestion response carries its postbackData.
    await handsetWrites(from, "Sim", { postbackData: "Sim" });
    const handed = await waitUntil("handed off", async () => {
      const r = await roomOf(from);
      return r?.status === "QUEUE" || r?.status === "OPEN" ? r : undefined;
    });
    expect(handed.queued_at).toBeTruthy();
    const said = await botSaid(2);
    expect(said.map((m) => m.body)).toEqual(["Quer falar com uma pessoa?", "Um momento, já chamo a equipe"]);
    expect(said.every((m) => m.status !== "FAIL" && m.message_id)).toBe(true);
    const [stream] = await stack.query<{ status: string; vars: Record<string, string> }>(`SELECT status, vars FROM flow_streams WHERE room_id = $1`, [room.id]);
    expect(stream).toMatchObject({ status: "handed_off", vars: { quer: "Sim" } });
    await as("/api/flow/flows/status", { body: { ids: [flow.body.data.id], status: "inactive" } });
  });
});
