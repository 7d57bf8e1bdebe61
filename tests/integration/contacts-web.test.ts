/**
 * The contacts screens driven like a browser with JavaScript off: plain GETs and form posts that
 * carry the CSRF field. /contacts (filters, bulk), /contacts/new, /contacts/{id} (edit, LGPD),
 * /contacts/groups (+{id}), /contacts/fields. Mutations happen in freshly registered accounts.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { lastMailTo, linkIn, query, uniqueEmail } from "../support/db";
import { DEMO_PASSWORD, location, signedInCustomer, signIn, WebClient } from "../support/web";
import { setAccount } from "../support/factories";

type Row = Record<string, any>;
const one = async <T = Row>(sql: string, params: unknown[] = []) => (await query<T>(sql, params))[0];
let seq = 0;
const mobile = () => `119${String(Date.now() % 1e6).padStart(6, "0")}${String(seq++ % 100).padStart(2, "0")}`;
const masked = (n: string) => `(${n.slice(0, 2)}) ${n.slice(2, 7)}-${n.slice(7)}`;
const idFrom = (res: Response) => (location(res) ?? "").split("/").pop()!;

/** The <tr> of a row carrying data-<kind>-id="<id>" (empty when absent). */
function rowOf(html: string, kind: string, id: string) {
  const start = html.indexOf(`data-${kind}-id="${id}"`);
  return start < 0 ? "" : html.slice(start, html.indexOf("</tr>", start));
}
const tableOf = (html: string) => {
  const start = html.indexOf("<table");
  return start < 0 ? "" : html.slice(start, html.indexOf("</table>", start));
};

/** A brand-new customer (own account, owner), registered through the API and signed in on the web. */
const freshCustomer = (tag: string) => signedInCustomer(tag);

/** Invite `email` into the inviter's account with `role` and accept; answers the newcomer's signed-in client. */
async function inviteAndAccept(inviter: WebClient, email: string, role: string) {
  const res = await inviter.post("/users/invite", { email, role });
  expect(res.status).toBe(302);
  const path = linkIn(await lastMailTo(email), "/invitation/");
  const guest = new WebClient();
  expect((await pageOf(guest, path)).res.status).toBe(200);
  const accepted = await guest.post(path, { token: path.split("/").pop()!, firstName: "Ágata", lastName: "Atendente", password: DEMO_PASSWORD, confirmPassword: DEMO_PASSWORD });
  expect(accepted.status, await accepted.clone().text()).toBe(302);
  return guest;
}

/**
 * What the page shows: the HTML without its scripts (the translations travel to the browser inside
 * one). A NUL byte anywhere means the renderer broke a multi-byte character (React 18's padding).
 */
const visible = (html: string) => {
  expect(html.includes("\u0000"), "NUL byte in the HTML").toBe(false);
  return html.replace(/<script[\s\S]*?<\/script>/g, "");
};
const textOf = async (res: Response) => visible(await res.text());
async function pageOf(client: WebClient, path: string) {
  const { res, html } = await client.page(path);
  return { res, html: visible(html) };
}

const contactForm = (fields: Record<string, string>) => ({ intent: "save", ...fields });

describe("contacts screens (JavaScript off)", () => {
  let owner: Awaited<ReturnType<typeof freshCustomer>>;
  let c: WebClient;
  beforeAll(async () => {
    owner = await freshCustomer("ctweb");
    c = owner.client;
  });

  it("the sidebar offers Contatos and /contacts shows its actions and empty state", async () => {
    const { res, html } = await pageOf(c, "/contacts");
    expect(res.status).toBe(200);
    expect(html).toMatch(/<h1[^>]*>Contatos<\/h1>/);
    expect(html).toContain('href="/contacts"');
    expect(html).toContain("Relacionamento");
    for (const text of ["Novo contato", "Importar", "Grupos", "Campos personalizados"]) expect(html).toContain(text);
    expect(html).toContain('href="/contacts/import"');
    expect(html).toContain("Nenhum contato ainda");
  });

  it("creates with an 11-digit number (stored +55…, shown masked), merges a second create, refuses an invalid number", async () => {
    const n = mobile();
    const res = await c.post(
      "/contacts/new",
      contactForm({ first_name: "Lúcia", last_name: "Martins", mobile_number: n, email: "lucia@exemplo.com", tags: "vip", city: "Recife" }),
    );
    expect(res.status, await res.clone().text()).toBe(302);
    const id = idFrom(res);
    expect(location(res)).toBe(`/contacts/${id}`);
    expect(await one("SELECT account_id, mobile_number, first_name FROM contacts WHERE id = $1", [id])).toEqual({
      account_id: owner.accountId,
      mobile_number: `+55${n}`,
      first_name: "Lúcia",
    });

    const list = await pageOf(c, "/contacts");
    const row = rowOf(list.html, "contact", id);
    expect(row).toContain(masked(n));
    expect(row).toContain("Lúcia Martins");
    expect(row).toContain("Recife");
    const detail = await pageOf(c, `/contacts/${id}`);
    expect(detail.res.status).toBe(200);
    expect(detail.html).toContain(`value="${masked(n)}"`);
    expect(detail.html).toMatch(/<h1[^>]*>Lúcia Martins<\/h1>/);
    expect(detail.html).toContain("Nenhuma mensagem ou conversa com este contato ainda");
    expect(detail.html).toContain(`href="/contacts/${id}/export?format=json"`);
    expect(detail.html).toContain("Exportar JSON");

    // The same number typed differently merges: one row, fields united, tags united.
    const again = await c.post("/contacts/new", contactForm({ mobile_number: masked(n), company: "Ateliê Lúcia", tags: "atacado" }));
    expect(again.status).toBe(302);
    expect(idFrom(again)).toBe(id);
    const rows = await query("SELECT first_name, email, company, city, tags FROM contacts WHERE account_id = $1 AND mobile_number = $2", [owner.accountId, `+55${n}`]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ first_name: "Lúcia", email: "lucia@exemplo.com", company: "Ateliê Lúcia", city: "Recife" });
    expect((rows[0].tags as string[]).sort()).toEqual(["atacado", "vip"]);

    const bad = await c.post("/contacts/new", contactForm({ first_name: "Errado", mobile_number: "12345" }));
    expect(bad.status).toBe(422);
    expect(await textOf(bad)).toContain("Número de telefone inválido");
    expect(await one("SELECT count(*)::int AS n FROM contacts WHERE account_id = $1 AND first_name = 'Errado'", [owner.accountId])).toEqual({ n: 0 });
  });

  it("editing with another contact's number says 'Número já cadastrado' on the mobile field", async () => {
    const [m1, m2] = [mobile(), mobile()];
    const id1 = idFrom(await c.post("/contacts/new", contactForm({ first_name: "Primeiro", mobile_number: m1 })));
    await c.post("/contacts/new", contactForm({ first_name: "Segundo", mobile_number: m2 }));
    const res = await c.post(`/contacts/${id1}`, contactForm({ first_name: "Primeiro", mobile_number: m2 }));
    expect(res.status).toBe(409);
    const html = await textOf(res);
    expect(html).toContain("Número já cadastrado");
    expect(html).toMatch(/mobile_number-error"[^>]*><p>Número já cadastrado<\/p>/);
    expect((await one("SELECT mobile_number FROM contacts WHERE id = $1", [id1])).mobile_number).toBe(`+55${m1}`);
    // Every field of the form saves.
    const ok = await c.post(
      `/contacts/${id1}`,
      contactForm({
        first_name: "Primeiro",
        last_name: "Editado",
        mobile_number: m1,
        phone: "1133334444",
        email: "primeiro@exemplo.com",
        birth_date: "1990-05-17",
        gender: "female",
        company: "Loja",
        website: "https://loja.example",
        address: "Rua A",
        number: "10",
        complement: "sala 2",
        district: "Centro",
        zip: "01001-000",
        city: "São Paulo",
        state: "SP",
        country: "Brasil",
        description: "Cliente antiga",
        tags: "b, a",
      }),
    );
    expect(ok.status).toBe(302);
    expect(location(ok)).toBe(`/contacts/${id1}`);
    expect(
      await one(
        "SELECT last_name, phone, birth_date::text AS birth_date, gender, website, complement, district, zip, state, country, description, tags FROM contacts WHERE id = $1",
        [id1],
      ),
    ).toEqual({
      last_name: "Editado",
      phone: "+551133334444",
      birth_date: "1990-05-17",
      gender: "female",
      website: "https://loja.example",
      complement: "sala 2",
      district: "Centro",
      zip: "01001-000",
      state: "SP",
      country: "Brasil",
      description: "Cliente antiga",
      tags: ["b", "a"],
    });
  });

  it("/contacts/detail?id=… opens the contact screen", async () => {
    const id = idFrom(await c.post("/contacts/new", contactForm({ first_name: "Detalhe", mobile_number: mobile() })));
    expect(location(await c.get(`/contacts/detail?id=${id}`))).toBe(`/contacts/${id}`);
    expect(location(await c.get("/contacts/detail"))).toBe("/contacts");
    expect((await c.get("/contacts/00000000-0000-4000-8000-000000000001")).status).toBe(404);
  });

  it("custom fields: create (list, required), enforced on the contact form, edited, deleted", async () => {
    const created = await c.post("/contacts/fields?index", {
      intent: "create",
      key: "plano",
      label: "Plano",
      type: "list",
      options: "ouro, prata",
      required: "on",
      visible_in_attendance: "on",
    });
    expect(created.status, await created.clone().text()).toBe(302);
    const field = await one("SELECT id, options, required, sensitive, visible_in_attendance FROM custom_fields WHERE account_id = $1 AND key = 'plano'", [owner.accountId]);
    expect(field).toMatchObject({ options: ["ouro", "prata"], required: true, sensitive: false, visible_in_attendance: true });
    const page = await pageOf(c, "/contacts/fields");
    expect(rowOf(page.html, "field", field.id)).toContain("Plano");
    const dup = await c.post("/contacts/fields?index", { intent: "create", key: "plano", label: "Outro", type: "text" });
    expect(dup.status).toBe(409);
    expect(await textOf(dup)).toContain("Já existe um campo com esta chave");

    const form = await pageOf(c, "/contacts/new");
    expect(form.html).toContain('name="custom.plano"');
    const missing = await c.post("/contacts/new", contactForm({ first_name: "Sem plano", mobile_number: mobile() }));
    expect(missing.status).toBe(422);
    expect(await textOf(missing)).toContain("Campo obrigatório");
    const wrong = await c.post("/contacts/new", contactForm({ first_name: "Plano errado", mobile_number: mobile(), "custom.plano": "bronze" }));
    expect(wrong.status).toBe(422);
    expect(await textOf(wrong)).toContain("Escolha uma das opções");
    const ok = await c.post("/contacts/new", contactForm({ first_name: "Com plano", mobile_number: mobile(), "custom.plano": "ouro" }));
    expect(ok.status).toBe(302);
    const withPlan = idFrom(ok);
    expect((await one("SELECT custom FROM contacts WHERE id = $1", [withPlan])).custom).toEqual({ plano: "ouro" });

    // Filter by the custom field (GET form).
    const filtered = await pageOf(c, "/contacts?field=plano&value=ouro");
    expect(tableOf(filtered.html)).toContain("Com plano");
    expect(tableOf(filtered.html)).not.toContain("Lúcia");

    const edit = await c.post(`/contacts/fields/${field.id}`, {
      label: "Plano contratado",
      type: "list",
      options: "ouro, prata, bronze",
      visible_in_attendance: "on",
      position: "3",
    });
    expect(edit.status).toBe(302);
    expect(await one("SELECT label, required, options, position FROM custom_fields WHERE id = $1", [field.id])).toEqual({
      label: "Plano contratado",
      required: false,
      options: ["ouro", "prata", "bronze"],
      position: 3,
    });
    const del = await c.post("/contacts/fields?index", { intent: "delete", id: field.id });
    expect(del.status).toBe(302);
    expect((await one("SELECT custom FROM contacts WHERE id = $1", [withPlan])).custom).toEqual({});
  });

  it("groups: create, duplicate name, rename, bulk add from the list, filter, remove, delete", async () => {
    const created = await c.post("/contacts/groups?index", { intent: "create", name: "Newsletter", description: "Quem recebe novidades" });
    expect(created.status).toBe(302);
    const group = await one<{ id: string }>("SELECT id FROM contact_groups WHERE account_id = $1 AND name = 'Newsletter'", [owner.accountId]);
    const dup = await c.post("/contacts/groups?index", { intent: "create", name: "NEWSLETTER" });
    expect(dup.status).toBe(409);
    expect(await textOf(dup)).toContain("Já existe um grupo com este nome");
    const renamed = await c.post("/contacts/groups?index", { intent: "rename", id: group.id, name: "Boletim", description: "" });
    expect(renamed.status).toBe(302);
    expect(rowOf((await pageOf(c, "/contacts/groups")).html, "group", group.id)).toContain("Boletim");

    const x = idFrom(await c.post("/contacts/new", contactForm({ first_name: "Xavier", mobile_number: mobile(), tags: "evento" })));
    const y = idFrom(await c.post("/contacts/new", contactForm({ first_name: "Yara", mobile_number: mobile(), tags: "evento" })));
    const z = idFrom(await c.post("/contacts/new", contactForm({ first_name: "Zeca", mobile_number: mobile() })));

    const body = new URLSearchParams({ intent: "add_to_group", group_id: group.id, csrf: c.csrf });
    body.append("ids", x);
    body.append("ids", y);
    const add = await c.request("/contacts?index", { method: "POST", body, headers: { "Content-Type": "application/x-www-form-urlencoded" } });
    expect(add.status, await add.clone().text()).toBe(302);
    expect(location(add)).toBe("/contacts");
    expect((await query("SELECT contact_id FROM contact_group_members WHERE group_id = $1", [group.id])).map((r) => r.contact_id).sort()).toEqual([x, y].sort());

    const noneChecked = await c.post("/contacts?index", { intent: "add_to_group", group_id: group.id });
    expect(noneChecked.status).toBe(422);
    expect(await textOf(noneChecked)).toContain("Marque pelo menos um contato.");
    const noGroup = await c.post("/contacts?index", { intent: "add_to_group", ids: z });
    expect(noGroup.status).toBe(422);
    expect(await textOf(noGroup)).toContain("Escolha o grupo.");

    const byGroup = tableOf((await pageOf(c, `/contacts?group=${group.id}`)).html);
    expect(byGroup).toContain("Xavier");
    expect(byGroup).toContain("Yara");
    expect(byGroup).not.toContain("Zeca");
    const byTag = tableOf((await pageOf(c, "/contacts?tag=evento")).html);
    expect(byTag).toContain("Xavier");
    expect(byTag).not.toContain("Zeca");
    const bySearch = tableOf((await pageOf(c, "/contacts?q=yara")).html);
    expect(bySearch).toContain("Yara");
    expect(bySearch).not.toContain("Xavier");

    const groupPage = await pageOf(c, `/contacts/groups/${group.id}`);
    expect(groupPage.res.status).toBe(200);
    expect(groupPage.html).toMatch(/<h1[^>]*>Boletim<\/h1>/);
    expect(rowOf(groupPage.html, "contact", x)).toContain("Xavier");
    const remove = await c.post(`/contacts/groups/${group.id}`, { intent: "remove_from_group", ids: x });
    expect(remove.status).toBe(302);
    expect((await query("SELECT contact_id FROM contact_group_members WHERE group_id = $1", [group.id])).map((r) => r.contact_id)).toEqual([y]);

    const del = await c.post("/contacts/groups?index", { intent: "delete", id: group.id });
    expect(del.status).toBe(302);
    expect(await one("SELECT count(*)::int AS n FROM contacts WHERE id = ANY($1::uuid[])", [[x, y, z]])).toEqual({ n: 3 });

    // Bulk delete from the list.
    const delBody = new URLSearchParams({ intent: "delete", csrf: c.csrf });
    delBody.append("ids", x);
    delBody.append("ids", z);
    const bulkDelete = await c.request("/contacts?index&tag=evento", { method: "POST", body: delBody, headers: { "Content-Type": "application/x-www-form-urlencoded" } });
    expect(bulkDelete.status).toBe(302);
    expect(location(bulkDelete)).toBe("/contacts?tag=evento");
    expect((await query("SELECT id FROM contacts WHERE id = ANY($1::uuid[])", [[x, y, z]])).map((r) => r.id)).toEqual([y]);
  });

  it("LGPD: export JSON and CSV downloads (audited), erase removes the row and leaves no personal data in the audit", async () => {
    const n = mobile();
    const id = idFrom(await c.post("/contacts/new", contactForm({ first_name: "Otávio", last_name: "Lima", mobile_number: n, email: "otavio@exemplo.com" })));
    const csv = await c.get(`/contacts/${id}/export?format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-disposition")).toBe(`attachment; filename="contato-${id}.csv"`);
    const text = await textOf(csv);
    expect(text).toContain(`contact.mobile_number,+55${n}`);
    expect(text).toContain("contact.first_name,Otávio");
    const json = await c.get(`/contacts/${id}/export?format=json`);
    expect(json.status).toBe(200);
    expect((await json.json()).contact.email).toBe("otavio@exemplo.com");
    expect(
      (await query("SELECT meta FROM audit_logs WHERE account_id = $1 AND action = 'contacts.exported' AND meta->>'contactId' = $2 ORDER BY id", [owner.accountId, id])).map(
        (r) => (r.meta as Row).format,
      ),
    ).toEqual(["csv", "json"]);
    expect((await c.get(`/contacts/${id}/export?format=xml`)).status).toBe(422);

    const erase = await c.post(`/contacts/${id}`, { intent: "erase" });
    expect(erase.status).toBe(302);
    expect(location(erase)).toBe("/contacts");
    expect(await one("SELECT count(*)::int AS n FROM contacts WHERE id = $1", [id])).toEqual({ n: 0 });
    const audit = await one("SELECT meta::text AS meta, user_id FROM audit_logs WHERE account_id = $1 AND action = 'contacts.erased' AND meta->>'contactId' = $2", [
      owner.accountId,
      id,
    ]);
    expect(JSON.parse(audit.meta)).toEqual({ contactId: id });
    expect(audit.user_id).toBe(owner.userId);
    for (const pii of ["Otávio", "Lima", n, "otavio"]) expect(audit.meta).not.toContain(pii);
    expect((await c.get(`/contacts/${id}`)).status).toBe(404);
  });

  it("an agent sees sensitive values masked (the owner sees them) and has no LGPD actions", async () => {
    await c.post("/contacts/fields?index", { intent: "create", key: "cpf", label: "CPF", type: "text", sensitive: "on" });
    const id = idFrom(await c.post("/contacts/new", contactForm({ first_name: "Sigilo", mobile_number: mobile(), "custom.cpf": "123.456.789-09" })));
    expect((await pageOf(c, `/contacts/${id}`)).html).toContain('value="123.456.789-09"');

    await setAccount(owner.accountId, { balance: 100_000 }); // adding a chat agent is charged (ADR 047)
    const agent = await inviteAndAccept(c, uniqueEmail("ctagent"), "agent");
    const { res, html } = await pageOf(agent, `/contacts/${id}`);
    expect(res.status).toBe(200);
    expect(html).not.toContain("123.456.789-09");
    expect(html).toContain('placeholder="•••••• (oculto)"');
    expect(html).not.toContain(`/contacts/${id}/export`);
    expect((await agent.get(`/contacts/${id}/export?format=json`)).status).toBe(403);
    // Filtering by the hidden field is refused on the page; the field is not offered.
    const list = await pageOf(agent, "/contacts?field=cpf&value=123.456.789-09");
    expect(list.html).toContain("<p>Você não tem permissão para isso</p>");
    expect(tableOf(list.html)).toBe("");
    // Saving the form with the masked field blank keeps the value.
    const save = await agent.post(
      `/contacts/${id}`,
      contactForm({
        first_name: "Sigilo",
        last_name: "Mantido",
        mobile_number: (await one("SELECT mobile_number FROM contacts WHERE id = $1", [id])).mobile_number,
        "custom.cpf": "",
      }),
    );
    expect(save.status).toBe(302);
    expect(await one("SELECT last_name, custom FROM contacts WHERE id = $1", [id])).toEqual({ last_name: "Mantido", custom: { cpf: "123.456.789-09" } });
    const erase = await agent.post(`/contacts/${id}`, { intent: "erase" });
    expect(erase.status).toBe(403);
    expect(await one("SELECT count(*)::int AS n FROM contacts WHERE id = $1", [id])).toEqual({ n: 1 });
  });

  it("another account's contact, group and field are not found on the screens", async () => {
    const other = await freshCustomer("ctother");
    const id = idFrom(await c.post("/contacts/new", contactForm({ first_name: "Particular", mobile_number: mobile() })));
    await c.post("/contacts/groups?index", { intent: "create", name: "Privado" });
    const g = await one<{ id: string }>("SELECT id FROM contact_groups WHERE account_id = $1 AND name = 'Privado'", [owner.accountId]);
    const f = await one<{ id: string }>("SELECT id FROM custom_fields WHERE account_id = $1 LIMIT 1", [owner.accountId]);
    for (const path of [`/contacts/${id}`, `/contacts/${id}/export?format=json`, `/contacts/groups/${g.id}`, `/contacts/fields/${f.id}`]) {
      expect((await other.client.get(path)).status, path).toBe(404);
    }
    expect((await other.client.post(`/contacts/${id}`, { intent: "erase" })).status).toBe(404);
    expect((await other.client.post(`/contacts/${id}`, contactForm({ first_name: "Invasor", email: "x@y.example" }))).status).toBe(404);
    const bulk = await other.client.post("/contacts?index", { intent: "delete", ids: id });
    expect(bulk.status).toBe(302);
    expect(await one("SELECT first_name FROM contacts WHERE id = $1", [id])).toEqual({ first_name: "Particular" });
    expect(tableOf((await pageOf(other.client, "/contacts")).html)).toBe("");
  });

  it("every form refuses a post without the CSRF field (403)", async () => {
    const id = idFrom(await c.post("/contacts/new", contactForm({ first_name: "Csrf", mobile_number: mobile() })));
    await c.post("/contacts/groups?index", { intent: "create", name: "Csrf" });
    const g = await one<{ id: string }>("SELECT id FROM contact_groups WHERE account_id = $1 AND name = 'Csrf'", [owner.accountId]);
    await c.post("/contacts/fields?index", { intent: "create", key: "csrf_campo", label: "Csrf", type: "text" });
    const f = await one<{ id: string }>("SELECT id FROM custom_fields WHERE account_id = $1 AND key = 'csrf_campo'", [owner.accountId]);
    const posts: Array<[string, Record<string, string>]> = [
      ["/contacts/new", contactForm({ first_name: "Sem token", mobile_number: mobile() })],
      [`/contacts/${id}`, contactForm({ first_name: "Sem token", mobile_number: mobile() })],
      [`/contacts/${id}`, { intent: "erase" }],
      ["/contacts?index", { intent: "delete", ids: id }],
      ["/contacts/groups?index", { intent: "create", name: "Sem token" }],
      ["/contacts/groups?index", { intent: "delete", id: g.id }],
      [`/contacts/groups/${g.id}`, { intent: "remove_from_group", ids: id }],
      ["/contacts/fields?index", { intent: "create", key: "sem_token", label: "X", type: "text" }],
      ["/contacts/fields?index", { intent: "delete", id: f.id }],
      [`/contacts/fields/${f.id}`, { label: "Sem token", type: "text" }],
    ];
    for (const [path, fields] of posts) {
      const res = await c.post(path, fields, { csrf: null });
      expect(res.status, `${path} ${fields.intent ?? ""}`).toBe(403);
    }
    expect(await one("SELECT first_name FROM contacts WHERE id = $1", [id])).toEqual({ first_name: "Csrf" });
    expect(await one("SELECT count(*)::int AS n FROM contact_groups WHERE id = $1", [g.id])).toEqual({ n: 1 });
    expect(await one("SELECT label FROM custom_fields WHERE id = $1", [f.id])).toEqual({ label: "Csrf" });
    expect(await one("SELECT count(*)::int AS n FROM contacts WHERE account_id = $1 AND first_name = 'Sem token'", [owner.accountId])).toEqual({ n: 0 });
  });
});

describe("contacts policy on the screens", () => {
  it("agent@demo.example opens every contacts screen; manager@demo.example goes to /403", async () => {
    const agent = await signIn("agent@demo.example");
    for (const path of ["/contacts", "/contacts/new", "/contacts/groups", "/contacts/fields"]) {
      const res = await agent.get(path);
      expect(res.status, path).toBe(200);
      await res.body?.cancel();
    }
    const fields = await pageOf(agent, "/contacts/fields");
    expect(fields.html).toContain("Somente proprietários e administradores");
    const manager = await signIn("manager@demo.example");
    for (const path of ["/contacts", "/contacts/new", "/contacts/groups", "/contacts/fields", "/contacts/detail"]) {
      const res = await manager.get(path);
      expect(res.status, path).toBe(302);
      expect(location(res), path).toBe("/403");
    }
    const post = await manager.post("/contacts/new", contactForm({ first_name: "Gerente", mobile_number: mobile() }));
    expect(post.status).toBe(302);
    expect(location(post)).toBe("/403");
    const nav = await pageOf(manager, "/");
    expect(nav.html).not.toContain('href="/contacts"');
  });
});
