/**
 * Contacts through the JWT API on a real PostgreSQL: E.164 numbers and merging by mobile, search
 * and filters (group, tag, custom field), keyset pages, bulk actions, groups, custom fields,
 * sensitive values, LGPD export and erasure, tenant isolation and the role policy.
 * Every mutation happens in freshly registered accounts.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api, login, registerPerson, type Person } from "../support/api";
import { query } from "../support/db";
import { DEMO_PASSWORD } from "../support/web";
import { addMember, ago, makeContacts } from "../support/factories";

type Json = Record<string, any>;
const one = async <T = Json>(sql: string, params: unknown[] = []) => (await query<T>(sql, params))[0];
const uniq = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
/** A valid Brazilian mobile number nobody else in the run uses: 11 digits, DDD 11, starting with 9. */
let seq = 0;
const mobile = () => `119${String(Date.now() % 1e6).padStart(6, "0")}${String(seq++ % 100).padStart(2, "0")}`;

let a: Person, b: Person;
let aToken: string, bToken: string;
const asA = (path: string, opts: { method?: string; body?: unknown; lang?: string } = {}) => api(path, { ...opts, token: aToken });
const asB = (path: string, opts: { method?: string; body?: unknown; lang?: string } = {}) => api(path, { ...opts, token: bToken });

beforeAll(async () => {
  [a, b] = await Promise.all([registerPerson("contactsA"), registerPerson("contactsB")]);
  [aToken, bToken] = await Promise.all([login(a.email, a.password).then((t) => t.token), login(b.email, b.password).then((t) => t.token)]);
});

describe("creating and merging contacts", () => {
  it("stores an 11-digit number as +55 E.164, shows it masked, splits the name", async () => {
    const n = mobile();
    const res = await asA("/api/contacts", { body: { name: "Maria da Silva", mobile_number: n, email: "Maria@Exemplo.com", tags: "VIP, atacado" } });
    // A new contact: 201 and its URL in Location, which answers the same contact.
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.headers.get("location")).toBe(`/api/contacts/${res.body.id}`);
    const { inserted: _inserted, ...contact } = res.body;
    expect((await asA(res.headers.get("location")!)).body).toEqual(contact);
    expect(res.body).toMatchObject({
      inserted: true,
      first_name: "Maria",
      last_name: "da Silva",
      mobile_number: `+55${n}`,
      email: "maria@exemplo.com",
      tags: ["vip", "atacado"],
    });
    expect(res.body.mobile_formatted).toBe(`(11) ${n.slice(2, 7)}-${n.slice(7)}`);
    // Fields left out stay empty (the route schema must not invent a gender).
    expect(res.body).toMatchObject({ gender: null, birth_date: null, company: null });
    const row = await one("SELECT account_id, mobile_number FROM contacts WHERE id = $1", [res.body.id]);
    expect(row).toEqual({ account_id: a.accountId, mobile_number: `+55${n}` });
  });

  it("a second create with the same mobile merges into one row: fields united, tags united", async () => {
    const n = mobile();
    const first = await asA("/api/contacts", { body: { first_name: "João", mobile_number: n, email: "joao@exemplo.com", tags: ["vip"], city: "Campinas" } });
    const second = await asA("/api/contacts", {
      body: { mobile_number: `+55 (${n.slice(0, 2)}) ${n.slice(2, 7)}-${n.slice(7)}`, company: "Padaria Sol", tags: "atacado", city: "Santos" },
    });
    // A merge creates nothing: 200, no Location.
    expect(first.status).toBe(201);
    expect(second.status).toBe(200);
    expect(second.headers.get("location")).toBeNull();
    expect(second.body.inserted).toBe(false);
    expect(second.body.id).toBe(first.body.id);
    const rows = await query("SELECT first_name, email, company, city, tags FROM contacts WHERE account_id = $1 AND mobile_number = $2", [a.accountId, `+55${n}`]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ first_name: "João", email: "joao@exemplo.com", company: "Padaria Sol", city: "Santos" });
    expect((rows[0].tags as string[]).sort()).toEqual(["atacado", "vip"]);
  });

  it("an invalid mobile is a translated field error; nothing is stored", async () => {
    const before = await one<{ n: number }>("SELECT count(*)::int AS n FROM contacts WHERE account_id = $1", [a.accountId]);
    const res = await asA("/api/contacts", { body: { first_name: "Erro", mobile_number: "123" }, lang: "pt-BR" });
    expect(res.status).toBe(422);
    expect(res.body.error.fields.mobile_number).toEqual(["Número de telefone inválido"]);
    const en = await asA("/api/contacts", { body: { first_name: "Erro", mobile_number: "12ab" }, lang: "en" });
    expect(en.body.error.fields.mobile_number).toEqual(["Invalid phone number"]);
    const after = await one<{ n: number }>("SELECT count(*)::int AS n FROM contacts WHERE account_id = $1", [a.accountId]);
    expect(after.n).toBe(before.n);
  });

  it("updating with another contact's mobile answers 409 'Número já cadastrado'", async () => {
    const [m1, m2] = [mobile(), mobile()];
    const c1 = await asA("/api/contacts", { body: { first_name: "Um", mobile_number: m1 } });
    await asA("/api/contacts", { body: { first_name: "Dois", mobile_number: m2 } });
    const res = await asA(`/api/contacts/${c1.body.id}`, { method: "PUT", body: { first_name: "Um", mobile_number: m2 }, lang: "pt-BR" });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("NUMBER_ALREADY_REGISTERED");
    expect(res.body.error.fields.mobile_number).toEqual(["Número já cadastrado"]);
    expect((await one("SELECT mobile_number FROM contacts WHERE id = $1", [c1.body.id])).mobile_number).toBe(`+55${m1}`);
    // Its own number and every other field are fine.
    const ok = await asA(`/api/contacts/${c1.body.id}`, { method: "PUT", body: { first_name: "Um", last_name: "Editado", mobile_number: m1, zip: "01310-100" } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ last_name: "Editado", zip: "01310-100", mobile_number: `+55${m1}` });
  });
});

describe("search, filters and keyset pages", () => {
  let p: Person, token: string;
  const as = (path: string, opts: { method?: string; body?: unknown } = {}) => api(path, { ...opts, token });
  let groupId: string;

  beforeAll(async () => {
    p = await registerPerson("contactsSearch");
    token = (await login(p.email, p.password)).token;
    const field = await as("/api/contacts/fields", { body: { key: "plano", label: "Plano", type: "list", options: ["ouro", "prata"] } });
    expect(field.status, JSON.stringify(field.body)).toBe(201);
    const age = await as("/api/contacts/fields", { body: { key: "idade", label: "Idade", type: "number" } });
    expect(age.status).toBe(201);
    const g = await as("/api/contacts/groups", { body: { name: "Clientes Ouro" } });
    groupId = g.body.id;
    const make = async (body: Json) => (await as("/api/contacts", { body })).body.id as string;
    // Ana, Bruno and Carla: the contacts every test below lists, searches and filters.
    for (const body of [
      { name: "Ana Pereira", mobile_number: "21987654321", company: "Floricultura Ipê", tags: "vip", custom: { plano: "ouro", idade: "34" }, group_ids: [groupId] },
      { name: "Bruno Costa", mobile_number: "11955554444", email: "bruno@loja.example", tags: "atacado", custom: { plano: "prata", idade: 41 } },
      { name: "Carla Dias", email: "carla@outra.example", tags: ["vip", "atacado"] },
    ] as Json[])
      await make(body);
  });

  const names = (res: { body: { data: Array<{ name: string }> } }) => res.body.data.map((r) => r.name).sort();

  it("lists newest first with the masked mobile, groups and an exact total", async () => {
    const res = await as("/api/contacts");
    expect(res.status).toBe(200);
    expect(res.body.data.map((r: Json) => r.name)).toEqual(["Carla Dias", "Bruno Costa", "Ana Pereira"]);
    expect(res.body).toMatchObject({ total: 3, total_capped: false, next_cursor: null, next: null });
    expect(res.body.data[2]).toMatchObject({
      mobile_number: "+5521987654321",
      mobile_formatted: "(21) 98765-4321",
      company: "Floricultura Ipê",
      groups: ["Clientes Ouro"],
      tags: ["vip"],
    });
  });

  it("searches names, e-mail, company and the mobile number typed with or without its mask", async () => {
    expect(names(await as("/api/contacts?q=pereira"))).toEqual(["Ana Pereira"]);
    expect(names(await as("/api/contacts?q=loja.example"))).toEqual(["Bruno Costa"]);
    expect(names(await as(`/api/contacts?q=${encodeURIComponent("floricultura")}`))).toEqual(["Ana Pereira"]);
    expect(names(await as(`/api/contacts?q=${encodeURIComponent("(21) 98765")}`))).toEqual(["Ana Pereira"]);
    expect(names(await as("/api/contacts?q=955554444"))).toEqual(["Bruno Costa"]);
    expect(names(await as("/api/contacts?q=ninguem-assim"))).toEqual([]);
    // LIKE wildcards are literal.
    expect(names(await as("/api/contacts?q=%25"))).toEqual([]);
  });

  it("filters by group, tag and custom field (list and number)", async () => {
    expect(names(await as(`/api/contacts?group=${groupId}`))).toEqual(["Ana Pereira"]);
    expect(names(await as("/api/contacts?tag=vip"))).toEqual(["Ana Pereira", "Carla Dias"]);
    expect(names(await as("/api/contacts?tag=VIP&q=carla"))).toEqual(["Carla Dias"]);
    expect(names(await as("/api/contacts?field=plano&value=prata"))).toEqual(["Bruno Costa"]);
    expect(names(await as("/api/contacts?field=idade&value=34"))).toEqual(["Ana Pereira"]);
    const unknown = await as("/api/contacts?field=inexistente&value=1");
    expect(unknown.status).toBe(422);
    const noValue = await as("/api/contacts?field=plano");
    expect(noValue.status).toBe(422);
  });

  it("pages by keyset (cursor, limit): no row twice, even when rows share their created_at; `after`/`next` still work as aliases", async () => {
    const q = await registerPerson("contactsPages");
    const t = (await login(q.email, q.password)).token;
    // 120 contacts, 60 of them inserted in one statement (same created_at): the id breaks ties.
    await makeContacts(
      q.accountId,
      Array.from({ length: 120 }, (_, n) => n + 1).map((i) => ({
        firstName: `Lote ${i}`,
        mobileNumber: `+55119${String(i).padStart(8, "0")}`,
        createdAt: i <= 60 ? ago("1 hour") : ago(`${i} seconds`),
      })),
    );
    const walk = async (param: "cursor" | "after", answer: "next_cursor" | "next", limit: string) => {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const qs = new URLSearchParams(limit ? { limit } : {});
        if (cursor) qs.set(param, cursor);
        const res: { status: number; body: Json } = await api(`/api/contacts?${qs}`, { token: t });
        expect(res.status).toBe(200);
        expect(res.body.total).toBe(120);
        expect(res.body.next).toBe(res.body.next_cursor);
        seen.push(...res.body.data.map((r: Json) => r.id));
        cursor = res.body[answer];
        pages++;
      } while (cursor && pages < 20);
      return { seen, pages };
    };
    // limit=50 (the default): 50, 50, 20; the last page says next_cursor null.
    const byDefault = await walk("cursor", "next_cursor", "");
    expect(byDefault.pages).toBe(3);
    expect(byDefault.seen).toHaveLength(120);
    expect(new Set(byDefault.seen).size).toBe(120);
    const byLimit = await walk("cursor", "next_cursor", "13");
    expect(byLimit.pages).toBe(10);
    expect(byLimit.seen).toEqual(byDefault.seen);
    // The deprecated names page the same way.
    expect((await walk("after", "next", "")).seen).toEqual(byDefault.seen);
    // A bad cursor is a 422 on the parameter sent; a bad limit too.
    for (const [qs, field] of [
      ["cursor=bm9wZQ", "cursor"],
      ["after=bm9wZQ", "after"],
      [`cursor=${Buffer.from('["x","y"]').toString("base64url")}`, "cursor"],
      ["limit=0", "limit"],
      ["limit=201", "limit"],
    ]) {
      const bad = await api(`/api/contacts?${qs}`, { token: t });
      expect(bad.status, qs).toBe(422);
      expect(Object.keys(bad.body.error.fields), qs).toEqual([field]);
    }
  });
});

describe("bulk actions", () => {
  it("adds to a group, removes from it and deletes; ids of another account are never touched", async () => {
    const g = await asA("/api/contacts/groups", { body: { name: `Lote ${uniq()}` } });
    const mk = async () => (await asA("/api/contacts", { body: { first_name: "Bulk", mobile_number: mobile() } })).body.id as string;
    const [x, y, z] = [await mk(), await mk(), await mk()];
    const foreign = (await asB("/api/contacts", { body: { first_name: "DoB", mobile_number: mobile() } })).body.id as string;

    const add = await asA("/api/contacts/bulk", { body: { action: "add_to_group", ids: [x, y, foreign], group_id: g.body.id } });
    expect(add.body).toEqual({ action: "add_to_group", count: 2 });
    const group = await asA(`/api/contacts/groups/${g.body.id}`);
    expect(group.body.group.members).toBe(2);
    expect(group.body.contacts.data.map((r: Json) => r.id).sort()).toEqual([x, y].sort());
    expect((await query("SELECT 1 FROM contact_group_members WHERE contact_id = $1", [foreign])).length).toBe(0);

    const remove = await asA("/api/contacts/bulk", { body: { action: "remove_from_group", ids: [x], group_id: g.body.id } });
    expect(remove.body.count).toBe(1);
    expect((await asA(`/api/contacts/groups/${g.body.id}`)).body.group.members).toBe(1);

    const noGroup = await asA("/api/contacts/bulk", { body: { action: "add_to_group", ids: [x] } });
    expect(noGroup.status).toBe(422);
    const none = await asA("/api/contacts/bulk", { body: { action: "delete", ids: [] } });
    expect(none.status).toBe(422);

    const del = await asA("/api/contacts/bulk", { body: { action: "delete", ids: [x, y, foreign] } });
    expect(del.body).toEqual({ action: "delete", count: 2 });
    expect((await query("SELECT id FROM contacts WHERE id = ANY($1::uuid[])", [[x, y, z, foreign]])).map((r) => r.id).sort()).toEqual([z, foreign].sort());
    const audit = await one("SELECT meta FROM audit_logs WHERE account_id = $1 AND action = 'contacts.deleted' ORDER BY id DESC LIMIT 1", [a.accountId]);
    expect((audit.meta.ids as string[]).sort()).toEqual([x, y].sort());
  });
});

describe("groups", () => {
  it("creates, refuses a duplicate name (any case), renames, and deleting keeps the contacts", async () => {
    const name = `Revendedores ${uniq()}`;
    const g = await asA("/api/contacts/groups", { body: { name, description: "Parceiros" } });
    expect(g.status).toBe(201);
    expect(g.body).toMatchObject({ name, description: "Parceiros", members: 0 });
    expect(g.headers.get("location")).toBe(`/api/contacts/groups/${g.body.id}`);
    expect((await asA(g.headers.get("location")!)).body.group).toEqual(g.body);
    const dup = await asA("/api/contacts/groups", { body: { name: name.toUpperCase() }, lang: "pt-BR" });
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe("GROUP_NAME_TAKEN");
    expect(dup.body.error.fields.name).toEqual(["Já existe um grupo com este nome"]);
    // Another account may use the same name.
    expect((await asB("/api/contacts/groups", { body: { name } })).status).toBe(201);
    const empty = await asA("/api/contacts/groups", { body: { name: " " } });
    expect(empty.status).toBe(422);

    const renamed = await asA(`/api/contacts/groups/${g.body.id}`, { method: "PUT", body: { name: `${name} VIP` } });
    expect(renamed.body.name).toBe(`${name} VIP`);
    const c = await asA("/api/contacts", { body: { first_name: "Membro", mobile_number: mobile(), group_ids: [g.body.id] } });
    const list = await asA("/api/contacts/groups");
    expect(list.body.data.find((x: Json) => x.id === g.body.id)).toMatchObject({ name: `${name} VIP`, members: 1 });

    const del = await asA(`/api/contacts/groups/${g.body.id}`, { method: "DELETE" });
    expect(del.status).toBe(200);
    expect(await one("SELECT count(*)::int AS n FROM contact_groups WHERE id = $1", [g.body.id])).toEqual({ n: 0 });
    expect(await one("SELECT count(*)::int AS n FROM contacts WHERE id = $1", [c.body.id])).toEqual({ n: 1 });
  });
});

describe("groups: keyset pages by name", () => {
  it("limit and cursor walk every group once, case-insensitive by name; the last page says next_cursor null; a bad cursor is 422 on cursor", async () => {
    const p = await registerPerson("contactsGroupPages");
    const token = (await login(p.email, p.password)).token;
    const names = ["delta", "Alfa", "charlie", "Bravo", "eco"];
    for (const name of names) expect((await api("/api/contacts/groups", { token, body: { name } })).status).toBe(201);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: { status: number; body: Json } = await api(`/api/contacts/groups?limit=2${cursor ? `&cursor=${cursor}` : ""}`, { token });
      expect(res.status).toBe(200);
      expect(res.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.data.map((g: Json) => g.name));
      cursor = res.body.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual(["Alfa", "Bravo", "charlie", "delta", "eco"]);
    const bad = await api(`/api/contacts/groups?cursor=bm9wZQ`, { token, lang: "en" });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.error.fields)).toEqual(["cursor"]);
    // Custom fields page the same way, in display order.
    for (const key of ["um", "dois", "tres"]) expect((await api("/api/contacts/fields", { token, body: { key, label: key, type: "text" } })).status).toBe(201);
    const first = await api("/api/contacts/fields?limit=2", { token });
    const second = await api(`/api/contacts/fields?limit=2&cursor=${first.body.next_cursor}`, { token });
    expect([...first.body.data, ...second.body.data].map((f: Json) => f.key)).toEqual(["um", "dois", "tres"]);
    expect(second.body.next_cursor).toBeNull();
  });
});

describe("custom fields", () => {
  let p: Person, token: string;
  const as = (path: string, opts: { method?: string; body?: unknown; lang?: string } = {}) => api(path, { ...opts, token });
  beforeAll(async () => {
    p = await registerPerson("contactsFields");
    token = (await login(p.email, p.password)).token;
  });

  it("creates, refuses a taken or malformed key and a list without options, edits, deletes (values go too)", async () => {
    const f = await as("/api/contacts/fields", { body: { key: "segmento", label: "Segmento", type: "text", visible_in_attendance: true } });
    expect(f.status).toBe(201);
    expect(f.headers.get("location")).toBe(`/api/contacts/fields/${f.body.id}`);
    expect((await as(f.headers.get("location")!)).body).toEqual(f.body);
    expect(f.body).toMatchObject({ key: "segmento", type: "text", required: false, sensitive: false, visible_in_attendance: true, position: 0 });
    const taken = await as("/api/contacts/fields", { body: { key: "segmento", label: "Outro", type: "number" }, lang: "pt-BR" });
    expect(taken.status).toBe(409);
    expect(taken.body.error.fields.key).toEqual(["Já existe um campo com esta chave"]);
    expect((await as("/api/contacts/fields", { body: { key: "Com Espaço", label: "X", type: "text" } })).status).toBe(422);
    const noOptions = await as("/api/contacts/fields", { body: { key: "cor", label: "Cor", type: "list" } });
    expect(noOptions.status).toBe(422);
    expect(Object.keys(noOptions.body.error.fields)).toContain("options");

    const c = await as("/api/contacts", { body: { first_name: "Com campo", mobile_number: mobile(), custom: { segmento: "varejo", desconhecida: "x" } } });
    expect(c.body.custom.find((v: Json) => v.key === "segmento").value).toBe("varejo");
    expect((await one("SELECT custom FROM contacts WHERE id = $1", [c.body.id])).custom).toEqual({ segmento: "varejo" });

    // A type change does not rewrite stored values.
    const edited = await as(`/api/contacts/fields/${f.body.id}`, { method: "PUT", body: { label: "Segmento de mercado", type: "list", options: "varejo, atacado", position: 5 } });
    expect(edited.body).toMatchObject({ key: "segmento", label: "Segmento de mercado", type: "list", options: ["varejo", "atacado"], position: 5 });
    expect((await one("SELECT custom FROM contacts WHERE id = $1", [c.body.id])).custom).toEqual({ segmento: "varejo" });

    const del = await as(`/api/contacts/fields/${f.body.id}`, { method: "DELETE" });
    expect(del.status).toBe(200);
    expect((await one("SELECT custom FROM contacts WHERE id = $1", [c.body.id])).custom).toEqual({});
    expect((await as("/api/contacts/fields")).body).toEqual({ data: [], next_cursor: null });
  });

  it("enforces a required field on creation and the options of a list", async () => {
    await as("/api/contacts/fields", { body: { key: "cpf", label: "CPF", type: "text", required: true } });
    await as("/api/contacts/fields", { body: { key: "nivel", label: "Nível", type: "list", options: ["bronze", "prata"] } });
    await as("/api/contacts/fields", { body: { key: "cliente_desde", label: "Cliente desde", type: "date" } });
    const missing = await as("/api/contacts", { body: { first_name: "Sem CPF", mobile_number: mobile() }, lang: "pt-BR" });
    expect(missing.status).toBe(422);
    expect(missing.body.error.fields["custom.cpf"]).toEqual(["Campo obrigatório"]);
    const badOption = await as("/api/contacts", {
      body: { first_name: "X", mobile_number: mobile(), custom: { cpf: "123", nivel: "ouro", cliente_desde: "31/02/2020" } },
      lang: "pt-BR",
    });
    expect(badOption.status).toBe(422);
    expect(badOption.body.error.fields["custom.nivel"]).toEqual(["Escolha uma das opções"]);
    expect(badOption.body.error.fields["custom.cliente_desde"]).toEqual(["Data inválida"]);
    const ok = await as("/api/contacts", { body: { first_name: "Ok", mobile_number: mobile(), custom: { cpf: "123", nivel: "prata", cliente_desde: "2020-02-28" } } });
    expect(ok.status).toBe(201);
  });
});

describe("sensitive custom values, roles and LGPD", () => {
  let owner: Person, ownerToken: string, agentToken: string, agentEmail: string;
  let contactId: string, fieldId: string, groupId: string;
  const n = mobile();

  beforeAll(async () => {
    owner = await registerPerson("contactsLgpd");
    ownerToken = (await login(owner.email, owner.password)).token;
    // An agent of the owner's account (a person with their own account, made a member here).
    const agent = await registerPerson("contactsAgent");
    agentEmail = agent.email;
    await addMember(owner.accountId, agent.userId, { role: "agent" });
    agentToken = (await login(agent.email, agent.password)).token;
    fieldId = (await api("/api/contacts/fields", { token: ownerToken, body: { key: "renda", label: "Renda", type: "number", sensitive: true } })).body.id;
    const g = await api("/api/contacts/groups", { token: ownerToken, body: { name: "Premium" } });
    groupId = g.body.id;
    const c = await api("/api/contacts", {
      token: ownerToken,
      body: { name: "Helena Rocha", mobile_number: n, email: "helena@exemplo.com", tags: "vip", custom: { renda: "12500" }, group_ids: [g.body.id] },
    });
    contactId = c.body.id;
  });
  const asAgent = (path: string, opts: { method?: string; body?: unknown } = {}) => api(path, { ...opts, token: agentToken, account: owner.accountId });

  it("masks a sensitive value for an agent and shows it to the owner", async () => {
    const own = await api(`/api/contacts/${contactId}`, { token: ownerToken });
    expect(own.body.custom).toEqual([expect.objectContaining({ key: "renda", value: 12500, masked: false, sensitive: true })]);
    const ag = await asAgent(`/api/contacts/${contactId}`);
    expect(ag.status).toBe(200);
    expect(ag.body.custom).toEqual([expect.objectContaining({ key: "renda", value: null, masked: true, sensitive: true })]);
    expect(JSON.stringify(ag.body)).not.toContain("12500");
    // The agent cannot guess it through a filter either, nor redefine the field.
    expect((await asAgent("/api/contacts?field=renda&value=12500")).status).toBe(403);
    expect((await asAgent(`/api/contacts/fields/${fieldId}`, { method: "PUT", body: { label: "Renda", type: "number", sensitive: false } })).status).toBe(403);
    // An agent's edit with the masked field left blank keeps the value.
    const put = await asAgent(`/api/contacts/${contactId}`, {
      method: "PUT",
      body: { name: "Helena Rocha", mobile_number: n, email: "helena@exemplo.com", company: "Rocha ME", tags: "vip", group_ids: [groupId], custom: { renda: "" } },
    });
    expect(put.status).toBe(200);
    expect(await one("SELECT company, custom FROM contacts WHERE id = $1", [contactId])).toEqual({ company: "Rocha ME", custom: { renda: 12500 } });
  });

  it("only owner and admin export or erase", async () => {
    expect((await asAgent(`/api/contacts/${contactId}/export?format=json`)).status).toBe(403);
    expect((await asAgent(`/api/contacts/${contactId}/erase`, { method: "POST" })).status).toBe(403);
    expect(await one("SELECT count(*)::int AS n FROM contacts WHERE id = $1", [contactId])).toEqual({ n: 1 });
  });

  it("exports everything held about the person as JSON and CSV, audited", async () => {
    const json = await api(`/api/contacts/${contactId}/export?format=json`, { token: ownerToken });
    expect(json.status).toBe(200);
    expect(json.headers.get("content-disposition")).toContain(`contato-${contactId}.json`);
    expect(json.body.contact).toMatchObject({
      id: contactId,
      first_name: "Helena",
      last_name: "Rocha",
      mobile_number: `+55${n}`,
      email: "helena@exemplo.com",
      company: "Rocha ME",
    });
    expect(json.body.custom_fields).toEqual([expect.objectContaining({ key: "renda", value: 12500, sensitive: true })]);
    expect(json.body.tags).toEqual(["vip"]);
    expect(json.body.groups.map((g: Json) => g.name)).toEqual(["Premium"]);
    expect(json.body.audit.map((e: Json) => e.action)).toEqual(expect.arrayContaining(["contacts.created", "contacts.updated"]));

    const csv = await api(`/api/contacts/${contactId}/export?format=csv`, { token: ownerToken });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    const text = String(csv.body).replace(/^\uFEFF/, "");
    const lines = text.trim().split("\r\n");
    expect(lines[0]).toBe("key,value");
    expect(lines).toContain(`contact.mobile_number,+55${n}`);
    expect(lines).toContain("contact.email,helena@exemplo.com");
    expect(lines).toContain("custom_fields.0.value,12500");
    expect(lines).toContain("groups.0.name,Premium");
    expect(lines).toContain("tags.0,vip");

    const audited = await query("SELECT user_id, meta FROM audit_logs WHERE account_id = $1 AND action = 'contacts.exported' ORDER BY id", [owner.accountId]);
    expect(audited.map((r) => r.meta)).toEqual([
      { contactId, format: "json" },
      { contactId, format: "csv" },
    ]);
    expect(audited[0].user_id).toBe(owner.userId);
  });

  it("erases the row (memberships go) and the audit entry holds no name, number or e-mail", async () => {
    const res = await api(`/api/contacts/${contactId}/erase`, { method: "POST", token: ownerToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: contactId, erased: true });
    expect(await one("SELECT count(*)::int AS n FROM contacts WHERE id = $1", [contactId])).toEqual({ n: 0 });
    expect(await one("SELECT count(*)::int AS n FROM contact_group_members WHERE contact_id = $1", [contactId])).toEqual({ n: 0 });
    const rows = await query("SELECT action, meta::text AS meta FROM audit_logs WHERE account_id = $1 AND meta::text LIKE $2", [owner.accountId, `%${contactId}%`]);
    const erased = rows.filter((r) => r.action === "contacts.erased");
    expect(erased).toHaveLength(1);
    expect(JSON.parse(erased[0].meta as string)).toEqual({ contactId });
    for (const r of rows) for (const pii of ["Helena", "Rocha", n, "helena@exemplo.com", "12500"]) expect(r.meta, `${r.action}`).not.toContain(pii);
    expect((await api(`/api/contacts/${contactId}`, { token: ownerToken })).status).toBe(404);
    expect((await api(`/api/contacts/${contactId}/erase`, { method: "POST", token: ownerToken })).status).toBe(404);
    void agentEmail;
  });
});

describe("tenant isolation through the API", () => {
  it("another account's token gets 404 for A's contact, group and field, and A's rows stay as they were", async () => {
    const c = await asA("/api/contacts", { body: { name: "Segredo de A", mobile_number: mobile(), email: "segredo@a.example" } });
    const g = await asA("/api/contacts/groups", { body: { name: `Grupo de A ${uniq()}` } });
    const f = await asA("/api/contacts/fields", { body: { key: `campo_${uniq()}`, label: "Campo de A", type: "text" } });
    const snapshot = async () => ({
      contact: await one("SELECT first_name, last_name, email, mobile_number, updated_at FROM contacts WHERE id = $1", [c.body.id]),
      group: await one("SELECT name FROM contact_groups WHERE id = $1", [g.body.id]),
      field: await one("SELECT label, type FROM custom_fields WHERE id = $1", [f.body.id]),
    });
    const before = await snapshot();
    const attempts: Array<[string, string, unknown?]> = [
      ["GET", `/api/contacts/${c.body.id}`],
      ["PUT", `/api/contacts/${c.body.id}`, { first_name: "Hacked", email: "x@b.example" }],
      ["DELETE", `/api/contacts/${c.body.id}`],
      ["GET", `/api/contacts/${c.body.id}/export?format=json`],
      ["GET", `/api/contacts/${c.body.id}/activity`],
      ["POST", `/api/contacts/${c.body.id}/erase`],
      ["GET", `/api/contacts/groups/${g.body.id}`],
      ["PUT", `/api/contacts/groups/${g.body.id}`, { name: "Hacked" }],
      ["DELETE", `/api/contacts/groups/${g.body.id}`],
      ["GET", `/api/contacts/fields/${f.body.id}`],
      ["PUT", `/api/contacts/fields/${f.body.id}`, { label: "Hacked", type: "number" }],
      ["DELETE", `/api/contacts/fields/${f.body.id}`],
    ];
    for (const [method, path, body] of attempts) {
      const res = await asB(path, { method, body });
      expect(res.status, `${method} ${path} -> ${res.status} ${JSON.stringify(res.body)}`).toBe(404);
    }
    const bulk = await asB("/api/contacts/bulk", { body: { action: "delete", ids: [c.body.id] } });
    expect(bulk.body).toEqual({ action: "delete", count: 0 });
    const addForeign = await asB("/api/contacts/bulk", { body: { action: "add_to_group", ids: [c.body.id], group_id: g.body.id } });
    expect(addForeign.status).toBe(404);
    // B's own lists never show A's rows.
    expect((await asB(`/api/contacts?q=${encodeURIComponent("Segredo de A")}`)).body.data).toEqual([]);
    expect((await asB("/api/contacts/groups")).body.data.map((x: Json) => x.id)).not.toContain(g.body.id);
    expect((await asB("/api/contacts/fields")).body.data.map((x: Json) => x.id)).not.toContain(f.body.id);
    expect(await snapshot()).toEqual(before);
  });

  it("an unknown or malformed id is simply not found", async () => {
    expect((await asA("/api/contacts/00000000-0000-4000-8000-000000000001")).status).toBe(404);
    expect((await asA("/api/contacts/nao-e-um-id")).status).toBe(404);
  });
});

describe("role policy through the API", () => {
  it("agent@demo.example may use /contacts, manager@demo.example may not (403)", async () => {
    const agent = (await login("agent@demo.example", DEMO_PASSWORD)).token;
    const manager = (await login("manager@demo.example", DEMO_PASSWORD)).token;
    expect((await api("/api/contacts", { token: agent })).status).toBe(200);
    expect((await api("/api/contacts/groups", { token: agent })).status).toBe(200);
    expect((await api("/api/contacts/fields", { token: agent })).status).toBe(200);
    for (const path of ["/api/contacts", "/api/contacts/groups", "/api/contacts/fields"]) {
      const res = await api(path, { token: manager });
      expect(res.status, path).toBe(403);
      expect(res.body.error.code).toBe("FORBIDDEN");
    }
    const create = await api("/api/contacts", { token: manager, body: { first_name: "Não", mobile_number: mobile() } });
    expect(create.status).toBe(403);
    expect((await api("/api/contacts", { body: {} })).status).toBe(401);
  });
});
