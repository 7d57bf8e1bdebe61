/**
 * Support tickets (issue 23, ADR 061), both sides, over the API and the web without JavaScript:
 * a customer opens a ticket (category and subject required, named and translated), the platform's
 * staff are told (notification + e-mail), staff answer (the opener is told), the customer answers
 * with an attachment (type proven by its bytes, a signed link to it), staff close it (audited with
 * before and after), the customer rates it 0 to 5 once. Another account never sees it; a customer
 * is refused the staff calls and screens.
 */
import { beforeAll, describe, expect, inject, it } from "vitest";
import { api, login, registerPerson, type Person } from "../support/api";
import { query } from "../support/db";
import { pdf, png } from "../support/media-files";
import { DEMO_PASSWORD, location, signedInCustomer, signIn, type WebClient } from "../support/web";

type Who = Person & { token: string };
let staff: string;
let staffId: string;
let a: Who;
let b: Who;

async function person(tag: string): Promise<Who> {
  const p = await registerPerson(tag);
  return { ...p, token: (await login(p.email, p.password)).token };
}

const notificationsOf = (userId: string, kind: string) =>
  query<{ params: Record<string, unknown>; link: string }>(`SELECT params, link FROM notifications WHERE user_id = $1 AND kind = $2 ORDER BY id`, [userId, kind]);
const mailsTo = (to: string, like: string) => query<{ subject: string }>(`SELECT subject FROM outbound_emails WHERE to_address = $1 AND subject LIKE $2`, [to, like]);

function multipart(fields: Record<string, string>, file?: { bytes: Uint8Array; name: string; type: string }) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) form.append("file", new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  return form;
}
async function postForm(path: string, token: string, form: FormData) {
  const res = await fetch(new URL(path, inject("apiUrl")), { method: "POST", headers: { Authorization: `Bearer ${token}`, "Accept-Language": "en" }, body: form });
  return { status: res.status, body: (await res.json()) as any };
}

beforeAll(async () => {
  staff = (await login("staff@demo.example", DEMO_PASSWORD)).token;
  [{ id: staffId }] = await query<{ id: string }>(`SELECT id::text FROM users WHERE email = 'staff@demo.example'`);
  [a, b] = await Promise.all([person("tick-a"), person("tick-b")]);
});

describe("a ticket's life over the API", () => {
  let id: string;
  let number: number;

  it("refuses a ticket without category and subject, naming both (translated), and writes nothing", async () => {
    const res = await api("/api/support/tickets", { token: a.token, body: { message: "help" }, lang: "en" });
    expect(res.status).toBe(422);
    expect(res.body.error.fields).toEqual({ category: ["Required field"], subject: ["Required field"] });
    const pt = await api("/api/support/tickets", { token: a.token, body: { category: "nope", subject: "x".repeat(151) }, lang: "pt-BR" });
    expect(Object.keys(pt.body.error.fields).sort()).toEqual(["category", "subject"]);
    expect(await query(`SELECT 1 FROM support_tickets WHERE account_id = $1`, [a.accountId])).toHaveLength(0);
  });

  it("opens a ticket: 201 with Location, open, numbered, its first message; the staff are told in /notifications and by e-mail", async () => {
    const res = await api("/api/support/tickets", { token: a.token, body: { category: "sms", subject: "SMS não entregue", message: "Enviei para +5511999990000 e não chegou." } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    ({ id, number } = res.body.data);
    expect(res.headers.get("location")).toBe(`/api/support/tickets/${id}`);
    expect(res.body.data).toMatchObject({ status: "open", category: "sms", account_id: a.accountId, opened_by: a.userId, last_side: "customer", messages: 1, rating: null });
    expect(res.body.data.thread).toMatchObject([{ side: "customer", body: "Enviei para +5511999990000 e não chegou.", author_id: a.userId }]);
    const told = await notificationsOf(staffId, "ticket_opened");
    expect(told.map((n) => n.link)).toContain(`/admin/support/${id}`);
    expect(told.find((n) => n.link === `/admin/support/${id}`)?.params).toMatchObject({ number, subject: "SMS não entregue" });
    expect(await mailsTo("staff@demo.example", `%#${number}%`)).toHaveLength(1);
  });

  it("is the account's own: another account gets 404 and never lists it; a customer is refused the staff calls", async () => {
    expect((await api(`/api/support/tickets/${id}`, { token: b.token })).status).toBe(404);
    expect((await api(`/api/support/tickets/${id}/messages`, { token: b.token, body: { message: "oi" } })).status).toBe(404);
    expect((await api("/api/support/tickets", { token: b.token })).body.data).toEqual([]);
    expect((await api("/api/support/tickets", { token: a.token })).body.data.map((t: { id: string }) => t.id)).toEqual([id]);
    expect((await api("/api/admin/tickets", { token: a.token })).status).toBe(403);
    expect((await api(`/api/admin/tickets/${id}`, { token: a.token })).status).toBe(403);
    expect((await api(`/api/admin/tickets/${id}`, { token: a.token, method: "PUT", body: { status: "closed" } })).status).toBe(403);
    expect((await api(`/api/admin/tickets/${id}/messages`, { token: a.token, body: { message: "x" } })).status).toBe(403);
  });

  it("staff find it by number and answer: answered, assigned to them, the opener told (notification + e-mail)", async () => {
    const found = await api(`/api/admin/tickets?q=${number}`, { token: staff });
    expect(found.body.data.map((t: { id: string }) => t.id)).toEqual([id]);
    const res = await api(`/api/admin/tickets/${id}/messages`, { token: staff, body: { message: "Verificamos: a operadora rejeitou. Reenvie, por favor." } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ status: "answered", last_side: "staff", assigned_to: staffId, messages: 2 });
    expect((await notificationsOf(a.userId, "ticket_answered")).map((n) => n.link)).toEqual([`/support/${id}`]);
    expect(await mailsTo(a.email, `%#${number}%`)).toHaveLength(1);
    const mine = await api(`/api/admin/tickets?assigned=me&status=answered`, { token: staff });
    expect(mine.body.data.map((t: { id: string }) => t.id)).toContain(id);
  });

  it("the customer answers with a PDF (multipart): open again; the file comes back through its signed link, a forged link is 404; other types are refused on `file`", async () => {
    const doc = pdf();
    const res = await postForm(
      `/api/support/tickets/${id}/messages`,
      a.token,
      multipart({ message: "Segue o comprovante." }, { bytes: doc, name: "comprovante.pdf", type: "application/pdf" }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.status).toBe("open");
    const file = res.body.data.thread.at(-1).files[0];
    expect(file).toMatchObject({ name: "comprovante.pdf", media_type: "application/pdf", size: doc.byteLength });
    const got = await fetch(new URL(file.url, inject("apiUrl")));
    expect(got.status).toBe(200);
    expect(got.headers.get("content-type")).toBe("application/pdf");
    expect(Buffer.from(await got.arrayBuffer()).equals(Buffer.from(doc))).toBe(true);
    const forged = new URL(file.url, inject("apiUrl"));
    forged.searchParams.set("sig", "x".repeat(43));
    expect((await fetch(forged)).status).toBe(404);
    const html = await postForm(
      `/api/support/tickets/${id}/messages`,
      a.token,
      multipart({ message: "x" }, { bytes: new TextEncoder().encode("<svg onload=alert(1)>"), name: "a.svg", type: "image/svg+xml" }),
    );
    expect(html.status).toBe(422);
    expect(html.body.error.fields.file[0]).toMatch(/File type not accepted/);
    expect((await notificationsOf(staffId, "ticket_replied")).map((n) => n.link)).toContain(`/admin/support/${id}`);
  });

  it("rating needs a closed ticket; staff close it (audited before/after, the opener told); then no more messages; 0-5 once; a rated ticket is settled", async () => {
    expect((await api(`/api/support/tickets/${id}/rating`, { token: a.token, body: { rating: 5 } })).body.error.code).toBe("TICKET_NOT_CLOSED");
    const closed = await api(`/api/admin/tickets/${id}`, { token: staff, method: "PUT", body: { status: "closed" } });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    expect(closed.body.data.status).toBe("closed");
    expect(closed.body.data.closed_at).not.toBeNull();
    const [audit] = await query<{ meta: { before: { status: string }; after: { status: string } } }>(
      `SELECT meta FROM audit_logs WHERE action = 'support.ticket_updated' AND meta->>'ticket_id' = $1`,
      [id],
    );
    expect(audit.meta.before.status).toBe("open");
    expect(audit.meta.after.status).toBe("closed");
    expect((await notificationsOf(a.userId, "ticket_closed")).map((n) => n.link)).toEqual([`/support/${id}`]);
    expect(await mailsTo(a.email, `%#${number}%`)).toHaveLength(2);

    const late = await api(`/api/support/tickets/${id}/messages`, { token: a.token, body: { message: "mais uma" }, lang: "en" });
    expect(late.status).toBe(409);
    expect(late.body.error).toMatchObject({ code: "TICKET_CLOSED", message: "This ticket is closed" });
    const six = await api(`/api/support/tickets/${id}/rating`, { token: a.token, body: { rating: 6 }, lang: "en" });
    expect(six.status).toBe(422);
    expect(Object.keys(six.body.error.fields)).toEqual(["rating"]);
    const rated = await api(`/api/support/tickets/${id}/rating`, { token: a.token, body: { rating: 4, comment: "Rápido" } });
    expect(rated.status).toBe(200);
    expect(rated.body.data).toMatchObject({ rating: 4, rating_comment: "Rápido" });
    expect((await api(`/api/support/tickets/${id}/rating`, { token: a.token, body: { rating: 5 } })).body.error.code).toBe("TICKET_ALREADY_RATED");
    expect((await api(`/api/admin/tickets/${id}`, { token: staff, method: "PUT", body: { status: "open" } })).status).toBe(409);
    expect((await notificationsOf(staffId, "ticket_rated")).map((n) => n.link)).toContain(`/admin/support/${id}`);
  });

  it("assigns only to the platform's people", async () => {
    const t = await api("/api/support/tickets", { token: b.token, body: { category: "billing", subject: "Boleto" } });
    const wrong = await api(`/api/admin/tickets/${t.body.data.id}`, { token: staff, method: "PUT", body: { assigned_to: b.userId } });
    expect(wrong.status).toBe(422);
    expect(Object.keys(wrong.body.error.fields)).toEqual(["assigned_to"]);
    const right = await api(`/api/admin/tickets/${t.body.data.id}`, { token: staff, method: "PUT", body: { assigned_to: staffId, status: "in_progress" } });
    expect(right.body.data).toMatchObject({ assigned_to: staffId, status: "in_progress" });
    expect((await notificationsOf(b.userId, "ticket_in_progress")).length).toBe(1);
  });
});

describe("the screens, without JavaScript", () => {
  let customer: { client: WebClient; accountId: string; userId: string };
  let staffWeb: WebClient;
  let id: string;

  beforeAll(async () => {
    customer = await signedInCustomer("tickweb");
    staffWeb = await signIn("staff@demo.example");
  });

  it("/support/new-ticket: a refused form names its fields and keeps what was typed; a good one opens the ticket with its attachment", async () => {
    const c = customer.client;
    expect((await c.get("/support/new-ticket")).status).toBe(200);
    const bad = await c.postMultipart("/support/new-ticket", multipart({ category: "", subject: "", message: "Sem assunto" }));
    expect(bad.status).toBe(422);
    const html = await bad.text();
    expect(html.match(/Campo obrigatório/g)?.length).toBe(2);
    expect(html).toContain("Sem assunto");
    const image = png(8, 8);
    const ok = await c.postMultipart(
      "/support/new-ticket",
      multipart({ category: "whatsapp", subject: "Template recusado", message: "Por quê?" }, { bytes: image, name: "tela.png", type: "image/png" }),
    );
    expect(ok.status).toBe(302);
    id = location(ok)!.split("/").pop()!;
    const [row] = await query<{ subject: string; files: number }>(
      `SELECT t.subject, (SELECT count(*)::int FROM support_files f WHERE f.ticket_id = t.id) AS files FROM support_tickets t WHERE t.id = $1 AND t.account_id = $2`,
      [id, customer.accountId],
    );
    expect(row).toEqual({ subject: "Template recusado", files: 1 });
    const page = await (await c.get(`/support/${id}`)).text();
    expect(page).toContain("Template recusado");
    expect(page).toContain("tela.png");
    const list = await (await c.get("/support")).text();
    expect(list).toContain(`data-ticket-id="${id}"`);
  });

  it("a customer is refused the staff screens; staff answer and close from /admin/support/{id}", async () => {
    expect(location(await customer.client.get("/admin/tickets"))).toBe("/403");
    expect(location(await customer.client.get(`/admin/support/${id}`))).toBe("/403");
    const queue = await (await staffWeb.get(`/admin/tickets?q=${encodeURIComponent("Template recusado")}`)).text();
    expect(queue).toContain(`data-ticket-id="${id}"`);
    const answer = await staffWeb.postMultipart(`/admin/support/${id}`, multipart({ intent: "reply", message: "O modelo usava uma variável no início.", status: "answered" }));
    expect(answer.status).toBe(302);
    const empty = await staffWeb.postMultipart(`/admin/support/${id}`, multipart({ intent: "reply", message: "", status: "answered" }));
    expect(empty.status).toBe(422);
    const seen = await (await customer.client.get(`/support/${id}`)).text();
    expect(seen).toContain("O modelo usava uma variável no início.");
    const feed = await (await customer.client.get("/support/messages-ticket")).text();
    expect(feed).toContain("O modelo usava uma variável no início.");
    const close = await staffWeb.post(`/admin/support/${id}`, { intent: "manage", status: "closed", assigned_to: "" });
    expect(close.status).toBe(302);
  });

  it("the customer rates the closed ticket from /support/{id}: a rating out of 0-5 is refused, then it shows", async () => {
    const c = customer.client;
    const bad = await c.post(`/support/${id}`, { intent: "rate", rating: "9" });
    expect(bad.status).toBe(422);
    const ok = await c.post(`/support/${id}`, { intent: "rate", rating: "5", comment: "Resolveu" });
    expect(ok.status).toBe(302);
    const page = await (await c.get(`/support/${id}`)).text();
    expect(page).toContain('data-rating="5"');
    expect(page).toContain("Resolveu");
    const [row] = await query<{ rating: number }>(`SELECT rating FROM support_tickets WHERE id = $1`, [id]);
    expect(row.rating).toBe(5);
  });
});
