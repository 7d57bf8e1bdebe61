/**
 * The CSV import through the API (spec sections 5, 8, 9): streamed multipart upload, column
 * mapping, the worker job that COPYs, merges and reports, and every refusal the issue names —
 * wrong extension, 11th file, missing mobile column, broken layout, invalid lines with their
 * line numbers, 1,000,001 rows — plus merging, groups and tenant isolation. Each test works in a
 * company registered for it, with real PostgreSQL, Redis, api and worker processes.
 */
import { createWriteStream, existsSync, openAsBlob, readdirSync, rmSync, statSync } from "node:fs";
import { once } from "node:events";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { api, login, registerPerson, type Person } from "../support/api";
import { query } from "../support/db";
import { streamHandled } from "../support/wait";
import { ago, makeContact, makeContactGroup, makeContacts, makeContactImportRow, makeCustomFields, setContactImport } from "../support/factories";
import { openRedis, keysOf } from "../support/redis";

const root = resolve(__dirname, "..", "..");
const importsDir = join(root, process.env.UPLOAD_DIR ?? "var/uploads", "imports");

type Owner = Person & { token: string };
async function owner(tag = "import"): Promise<Owner> {
  const p = await registerPerson(tag);
  const { token } = await login(p.email, p.password);
  return { ...p, token };
}

type Part = { name: string; body: string | Buffer | Blob };
async function upload(token: string, files: Part[], base = inject("apiUrl")) {
  const form = new FormData();
  for (const f of files) form.append("files", f.body instanceof Blob ? f.body : new Blob([typeof f.body === "string" ? f.body : new Uint8Array(f.body)]), f.name);
  const res = await fetch(new URL("/api/contacts/imports", base), { method: "POST", headers: { Authorization: `Bearer ${token}` }, body: form });
  return { status: res.status, body: (await res.json()) as any, location: res.headers.get("location") };
}

async function start(token: string, id: string, body: Record<string, unknown>) {
  return api(`/api/contacts/imports/${id}/start`, { token, body });
}

/** Poll the status (as the screens do) until the job ends. */
async function finished(token: string, id: string, ms = 45_000) {
  const until = Date.now() + ms;
  for (;;) {
    const res = await api(`/api/contacts/imports/${id}`, { token });
    expect(res.status).toBe(200);
    if (res.body.status === "completed" || res.body.status === "failed") return res.body;
    if (Date.now() > until) throw new Error(`import ${id} still ${res.body.status} after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

async function importCsv(o: Owner, text: string, extra: Record<string, unknown> = {}, name = "contatos.csv") {
  const up = await upload(o.token, [{ name, body: text }]);
  expect(up.status, JSON.stringify(up.body)).toBe(201);
  const st = await start(o.token, up.body.id, { mapping: up.body.suggestedMapping, ...extra });
  expect(st.status, JSON.stringify(st.body)).toBe(200);
  return finished(o.token, up.body.id);
}

const contactsOf = (accountId: string) =>
  query<Record<string, any>>(
    `SELECT first_name, last_name, mobile_number, email::text AS email, company, city, state, birth_date::text AS birth_date, gender, tags, custom
     FROM contacts WHERE account_id = $1 ORDER BY mobile_number`,
    [accountId],
  );
const importDirs = () => (existsSync(importsDir) ? readdirSync(importsDir) : []);

describe("CSV import: a good file", () => {
  it("previews the file, suggests the mapping, and imports through the worker with the contact rules", async () => {
    const o = await owner();
    const csv = [
      "Nome,Celular,E-mail,Empresa,Cidade,UF,Data de nascimento,Sexo,Tags",
      'Maria da Silva,(11) 98765-4321,MARIA@Exemplo.com.br,Padaria Pão Quente,São Paulo,SP,25/12/1980,Feminino,"vip, atacado"',
      "João,21987654321,joao-sem-arroba,,Rio de Janeiro,RJ,1975-03-01,m,",
      "Pedro Álvares Cabral,+55 71 99876-5432,pedro@exemplo.com,,Salvador,BA,31/02/1990,,",
    ].join("\n");
    const up = await upload(o.token, [{ name: "Clientes.CSV", body: csv }]);
    expect(up.status).toBe(201);
    // Location is the new import: it answers the same view.
    expect(up.location).toBe(`/api/contacts/imports/${up.body.id}`);
    expect((await api(up.location!, { token: o.token })).body).toEqual(up.body);
    expect(up.body.status).toBe("uploaded");
    expect(up.body.totalRows).toBe(3);
    expect(up.body.files).toEqual([
      {
        name: "Clientes.CSV",
        size: Buffer.byteLength(csv),
        delimiter: ",",
        columns: ["Nome", "Celular", "E-mail", "Empresa", "Cidade", "UF", "Data de nascimento", "Sexo", "Tags"],
        preview: csv
          .split("\n")
          .slice(1)
          .map(() => expect.any(Array)),
      },
    ]);
    expect(up.body.files[0].preview[0].slice(0, 3)).toEqual(["Maria da Silva", "(11) 98765-4321", "MARIA@Exemplo.com.br"]);
    expect(up.body.suggestedMapping).toEqual({
      Nome: "name",
      Celular: "mobile_number",
      "E-mail": "email",
      Empresa: "company",
      Cidade: "city",
      UF: "state",
      "Data de nascimento": "birth_date",
      Sexo: "gender",
      Tags: "tags",
    });
    const [row] = await query("SELECT status, files FROM contact_imports WHERE id = $1 AND account_id = $2", [up.body.id, o.accountId]);
    expect(row.status).toBe("uploaded");

    const st = await start(o.token, up.body.id, { mapping: up.body.suggestedMapping });
    expect(st.status).toBe(200);
    expect(["queued", "running", "completed"]).toContain(st.body.status);
    const done = await finished(o.token, up.body.id);
    expect(done).toMatchObject({ status: "completed", totalRows: 3, processedRows: 3, insertedRows: 3, mergedRows: 0, errorCount: 0, percent: 100, failure: null });
    expect(done.rowsPerSecond).toBeGreaterThan(0);
    expect(done.startedAt && done.finishedAt).toBeTruthy();

    const rows = await contactsOf(o.accountId);
    expect(rows).toEqual([
      expect.objectContaining({
        mobile_number: "+5511987654321",
        first_name: "Maria",
        last_name: "da Silva",
        email: "maria@exemplo.com.br",
        company: "Padaria Pão Quente",
        city: "São Paulo",
        state: "SP",
        birth_date: "1980-12-25",
        gender: "female",
        tags: ["vip", "atacado"],
      }),
      expect.objectContaining({ mobile_number: "+5521987654321", first_name: "João", last_name: null, email: null, birth_date: "1975-03-01", gender: "male", tags: [] }),
      // 31/02 is no date: the value is left empty, the contact is imported.
      expect.objectContaining({ mobile_number: "+5571998765432", first_name: "Pedro", last_name: "Álvares Cabral", birth_date: null }),
    ]);
    // The uploaded CSV is gone once imported; the (empty) error report stays.
    expect(existsSync(join(importsDir, up.body.id, "1.csv"))).toBe(false);
    const report = await fetch(new URL(`/api/contacts/imports/${up.body.id}/errors`, inject("apiUrl")), { headers: { Authorization: `Bearer ${o.token}` } });
    expect(report.status).toBe(200);
    expect(await report.text()).toBe("file,line,column,value,error,message\n");

    // The importer hears about it, and the upload and the start are in the audit trail.
    const [n] = await query("SELECT kind, params, link FROM notifications WHERE account_id = $1 AND kind = 'import_completed'", [o.accountId]);
    expect(n).toMatchObject({ params: { inserted: 3, merged: 0, errors: 0 }, link: `/contacts/import/${up.body.id}` });
    const audit = await query<{ action: string }>("SELECT action FROM audit_logs WHERE account_id = $1 AND action LIKE 'contacts.import%' ORDER BY id", [o.accountId]);
    expect(audit.map((a) => a.action)).toEqual(["contacts.import_created", "contacts.import_started"]);
    // It is listed, newest first.
    const list = await api("/api/contacts/imports", { token: o.token });
    expect(list.body.data.map((i: { id: string }) => i.id)).toEqual([up.body.id]);
    expect(list.body.next_cursor).toBeNull();
  });

  it("reads ';' files with a BOM and CRLF (Brazilian Excel) and Latin-1 files, through the web process too", async () => {
    const o = await owner();
    const bom = "\ufeffNome;Telefone celular;Cidade\r\nAna Luíza Gonçalves;(31) 99123-4567;Belo Horizonte\r\nJosé;31991234568;Contagem\r\n";
    const up = await upload(o.token, [{ name: "excel.csv", body: bom }], inject("webUrl"));
    expect(up.status).toBe(201);
    expect(up.body.files[0]).toMatchObject({
      delimiter: ";",
      columns: ["Nome", "Telefone celular", "Cidade"],
      preview: [
        ["Ana Luíza Gonçalves", "(31) 99123-4567", "Belo Horizonte"],
        ["José", "31991234568", "Contagem"],
      ],
    });
    expect(up.body.suggestedMapping).toEqual({ Nome: "name", "Telefone celular": "mobile_number", Cidade: "city" });
    expect((await start(o.token, up.body.id, { mapping: up.body.suggestedMapping })).status).toBe(200);
    expect((await finished(o.token, up.body.id)).insertedRows).toBe(2);

    const latin1 = Buffer.from("Nome;Celular;Endereço\nConceição Araújo;(85) 98888-7777;Rua São João\n", "latin1");
    const up2 = await upload(o.token, [{ name: "antigo.csv", body: latin1 }]);
    expect(up2.status).toBe(201);
    expect(up2.body.files[0].columns).toEqual(["Nome", "Celular", "Endereço"]);
    expect(up2.body.suggestedMapping["Endereço"]).toBe("address");
    expect((await start(o.token, up2.body.id, { mapping: up2.body.suggestedMapping })).status).toBe(200);
    expect((await finished(o.token, up2.body.id)).status).toBe("completed");
    const rows = await contactsOf(o.accountId);
    expect(rows.map((r) => [r.first_name, r.last_name, r.mobile_number, r.city])).toEqual([
      ["Ana", "Luíza Gonçalves", "+5531991234567", "Belo Horizonte"],
      ["José", null, "+5531991234568", "Contagem"],
      ["Conceição", "Araújo", "+5585988887777", null],
    ]);
    const [addr] = await query("SELECT address FROM contacts WHERE account_id = $1 AND mobile_number = '+5585988887777'", [o.accountId]);
    expect(addr.address).toBe("Rua São João");
  });

  it("maps custom fields by label and types their values", async () => {
    const o = await owner();
    await makeCustomFields(o.accountId, [
      { key: "plano", label: "Plano contratado", type: "list", options: ["Ouro", "Prata"] },
      { key: "limite", label: "Limite", type: "number", options: [] },
    ]);
    const done = await importCsv(o, 'Celular,Plano contratado,Limite,Observação\n11987650001,ouro,"1500,50",cliente antigo\n11987650002,Bronze,abc,\n');
    expect(done.status).toBe("completed");
    const rows = await contactsOf(o.accountId);
    expect(rows.map((r) => r.custom)).toEqual([{ plano: "Ouro", limite: 1500.5 }, {}]);
    const [d] = await query("SELECT description FROM contacts WHERE account_id = $1 AND mobile_number = '+5511987650001'", [o.accountId]);
    expect(d.description).toBe("cliente antigo");
  });
});

describe("CSV import: duplicates, errors and groups", () => {
  it("merges repeated numbers inside the file (the last line wins) and into existing contacts (their other values kept)", async () => {
    const o = await owner();
    await makeContact(o.accountId, {
      firstName: "Antigo",
      mobileNumber: "+5511912340000",
      company: "Empresa Velha",
      city: "Campinas",
      tags: ["cliente"],
      custom: { origem: "site" },
    });
    const csv = [
      "Nome,Celular,E-mail,Cidade,Tags",
      "Ana,11987650001,ana@exemplo.com,Santos,",
      "Bruno Costa,(11) 91234-0000,bruno@exemplo.com,,vip",
      "Ana Paula,+55 11 98765-0001,ana.paula@exemplo.com,,",
      "Carla,11987650003,,,",
    ].join("\n");
    const done = await importCsv(o, csv);
    // 4 valid lines: Ana (new) and Carla (new); Ana again and Bruno (existing) merged.
    expect(done).toMatchObject({ status: "completed", totalRows: 4, insertedRows: 2, mergedRows: 2, errorCount: 0 });
    const rows = await contactsOf(o.accountId);
    expect(rows).toHaveLength(3);
    const byNumber = Object.fromEntries(rows.map((r) => [r.mobile_number, r]));
    expect(byNumber["+5511912340000"]).toMatchObject({
      first_name: "Bruno",
      last_name: "Costa",
      email: "bruno@exemplo.com",
      company: "Empresa Velha",
      city: "Campinas",
      custom: { origem: "site" },
    });
    expect([...byNumber["+5511912340000"].tags].sort()).toEqual(["cliente", "vip"]);
    expect(byNumber["+5511987650001"]).toMatchObject({ first_name: "Ana", last_name: "Paula", email: "ana.paula@exemplo.com" });
    expect(byNumber["+5511987650003"]).toMatchObject({ first_name: "Carla", email: null });
  });

  it("reports invalid numbers with their physical line numbers in a downloadable error report, and imports the rest", async () => {
    const o = await owner();
    const lines = [
      "Nome,Celular,Descrição", // 1
      "Válido Um,11987650001,", // 2
      'Válido Dois,11987650002,"primeira linha', // 3
      'segunda linha"', // 4 (same record)
      "Curto,12345,", // 5
      "", // 6 (blank)
      "Sem Número,,", // 7
      "Válido Três,11987650003,", // 8
      "Fixo,(11) 3333-4444,", // 9: a valid number (the rules of api/contacts/phone.ts), kept
      'Letras,"abc, def",', // 10
    ];
    const done = await importCsv(o, lines.join("\n") + "\n", {}, "lista.csv");
    expect(done).toMatchObject({ status: "completed", totalRows: 7, processedRows: 7, insertedRows: 4, mergedRows: 0, errorCount: 3 });
    const res = await fetch(new URL(`/api/contacts/imports/${done.id}/errors`, inject("apiUrl")), { headers: { Authorization: `Bearer ${o.token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toContain("text/csv");
    expect(res.headers.get("Content-Disposition")).toContain(`attachment; filename="import-${done.id}-errors.csv"`);
    // error is the stable key; message is it in the caller's language (pt-BR by default).
    expect((await res.text()).trim().split("\n")).toEqual([
      "file,line,column,value,error,message",
      "lista.csv,5,Celular,12345,errors.IMPORT_INVALID_NUMBER,Número inválido na linha 5",
      "lista.csv,7,Celular,,errors.IMPORT_INVALID_NUMBER,Número inválido na linha 7",
      'lista.csv,10,Celular,"abc, def",errors.IMPORT_INVALID_NUMBER,Número inválido na linha 10',
    ]);
    const en = await fetch(new URL(`/api/contacts/imports/${done.id}/errors`, inject("apiUrl")), { headers: { Authorization: `Bearer ${o.token}`, "Accept-Language": "en" } });
    expect((await en.text()).trim().split("\n")[1]).toBe("lista.csv,5,Celular,12345,errors.IMPORT_INVALID_NUMBER,Invalid number on line 5");
    const [d] = await query("SELECT description FROM contacts WHERE account_id = $1 AND mobile_number = '+5511987650002'", [o.accountId]);
    expect(d.description).toBe("primeira linha\nsegunda linha");
    const [fixo] = await query("SELECT mobile_number FROM contacts WHERE account_id = $1 AND first_name = 'Fixo'", [o.accountId]);
    expect(fixo.mobile_number).toBe("+551133334444");
  });

  it("adds the contacts to a chosen group, or to a new one (reusing a name that exists)", async () => {
    const o = await owner();
    const g = { id: await makeContactGroup(o.accountId, "Clientes VIP") };
    await importCsv(o, "Celular\n11987650001\n11987650002\n", { group_id: g.id });
    const members = await query("SELECT c.mobile_number FROM contact_group_members m JOIN contacts c ON c.id = m.contact_id WHERE m.group_id = $1 ORDER BY 1", [g.id]);
    expect(members.map((m) => m.mobile_number)).toEqual(["+5511987650001", "+5511987650002"]);

    const done = await importCsv(o, "Celular\n11987650002\n11987650003\n", { new_group_name: "Feira 2026" });
    expect(done.groupId).toBeTruthy();
    const [ng] = await query("SELECT name, account_id FROM contact_groups WHERE id = $1", [done.groupId]);
    expect(ng).toMatchObject({ name: "Feira 2026", account_id: o.accountId });
    const again = await importCsv(o, "Celular\n11987650004\n", { new_group_name: "feira 2026" });
    expect(again.groupId).toBe(done.groupId);
    const [{ n }] = await query<{ n: number }>("SELECT count(*)::int AS n FROM contact_group_members WHERE group_id = $1", [done.groupId]);
    expect(n).toBe(3);

    // A group of another account is refused.
    const other = await owner("import-other");
    const og = { id: await makeContactGroup(other.accountId, "Alheio") };
    const up = await upload(o.token, [{ name: "a.csv", body: "Celular\n11987650009\n" }]);
    const st = await start(o.token, up.body.id, { mapping: up.body.suggestedMapping, group_id: og.id });
    expect(st.status).toBe(422);
    expect(st.body.error.fields.group_id).toBeTruthy();
  });

  it("a list imported again rewrites only the contacts it changes, and every line still joins the group", async () => {
    const o = await owner();
    const [ana, bruno] = await makeContacts(o.accountId, [
      { firstName: "Ana", mobileNumber: "+5511987650101", city: "Recife", tags: ["vip", "feira"], updatedAt: ago("2 days") },
      { firstName: "Bruno", mobileNumber: "+5511987650102", city: "Natal", updatedAt: ago("2 days") },
    ]);
    const stamps = async () =>
      Object.fromEntries(
        (await query<{ id: string; stale: boolean }>("SELECT id, updated_at < now() - interval '1 day' AS stale FROM contacts WHERE id = ANY($1)", [[ana, bruno]])).map((r) => [
          r.id,
          r.stale,
        ]),
      );
    // Ana's line says nothing new (a known tag, her city, an empty column); Bruno's moves him to Olinda.
    const done = await importCsv(o, "Nome;Celular;Cidade;Tags\nAna;11987650101;Recife;vip\nBruno;11987650102;Olinda;\nCarla;11987650103;;\n", {
      new_group_name: "Reimportados",
    });
    expect(done).toMatchObject({ status: "completed", insertedRows: 1, mergedRows: 2, errorCount: 0 });
    expect(await stamps()).toEqual({ [ana]: true, [bruno]: false });
    const rows = await query("SELECT first_name, city, tags FROM contacts WHERE account_id = $1 ORDER BY mobile_number", [o.accountId]);
    expect(rows).toEqual([
      { first_name: "Ana", city: "Recife", tags: ["vip", "feira"] },
      { first_name: "Bruno", city: "Olinda", tags: [] },
      { first_name: "Carla", city: null, tags: [] },
    ]);
    const members = await query("SELECT c.first_name FROM contact_group_members m JOIN contacts c ON c.id = m.contact_id WHERE m.group_id = $1 ORDER BY 1", [done.groupId]);
    expect(members.map((m) => m.first_name)).toEqual(["Ana", "Bruno", "Carla"]);
  });

  it("refuses to start without a mobile number column in every file, with a mapping to an unknown field, or twice", async () => {
    const o = await owner();
    const up = await upload(o.token, [
      { name: "com.csv", body: "Celular,Nome\n11987650001,Ana\n" },
      { name: "sem.csv", body: "Nome,E-mail\nBia,bia@exemplo.com\n" },
    ]);
    expect(up.status).toBe(201);
    expect(up.body.suggestedMapping).toEqual({ Celular: "mobile_number", Nome: "name", "E-mail": "email" });
    const missing = await start(o.token, up.body.id, { mapping: up.body.suggestedMapping });
    expect(missing.status).toBe(422);
    expect(missing.body.error.code).toBe("IMPORT_MISSING_MOBILE");
    expect(missing.body.error.params.file).toBe("sem.csv");
    const en = await api(`/api/contacts/imports/${up.body.id}/start`, { token: o.token, body: { mapping: { Nome: "name" } }, lang: "en" });
    expect(en.body.error.message).toBe("Missing Mobile Number column");

    const bad = await start(o.token, up.body.id, { mapping: { Celular: "mobile_number", Nome: "custom:nao_existe", "E-mail": "mobile_number" } });
    expect(bad.status).toBe(422);
    expect(bad.body.error.fields["mapping.Nome"]).toBeTruthy();
    const [row] = await query("SELECT status FROM contact_imports WHERE id = $1", [up.body.id]);
    expect(row.status).toBe("uploaded");

    // Two files, different headers: the mapping is keyed by header text.
    const ok = await start(o.token, up.body.id, { mapping: { Celular: "mobile_number", Nome: "name", "E-mail": "mobile_number" } });
    expect(ok.status).toBe(200);
    const twice = await start(o.token, up.body.id, { mapping: { Celular: "mobile_number", "E-mail": "mobile_number" } });
    expect(twice.status).toBe(409);
    expect(twice.body.error.code).toBe("IMPORT_NOT_READY");
    const done = await finished(o.token, up.body.id);
    // sem.csv's "number" is an e-mail: line 2 of that file is reported.
    expect(done).toMatchObject({ status: "completed", insertedRows: 1, errorCount: 1 });
  });
});

describe("CSV import: refusals at upload (nothing is kept)", () => {
  it("refuses a file that is not .csv, and keeps no row and no file", async () => {
    const o = await owner();
    const before = new Set(importDirs());
    for (const files of [
      [{ name: "contatos.xlsx", body: "Celular\n11987650001\n" }],
      [
        { name: "ok.csv", body: "Celular\n11987650001\n" },
        { name: "notas.txt", body: "Celular\n11987650002\n" },
      ],
    ]) {
      const res = await upload(o.token, files);
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe("IMPORT_NOT_CSV");
    }
    const en = await upload(o.token, [{ name: "a.pdf", body: "x" }], inject("apiUrl"));
    expect(en.body.error.message).toBeTruthy();
    const [{ n }] = await query<{ n: number }>("SELECT count(*)::int AS n FROM contact_imports WHERE account_id = $1", [o.accountId]);
    expect(n).toBe(0);
    const ours = await query<{ id: string }>("SELECT id FROM contact_imports");
    const known = new Set(ours.map((r) => r.id));
    // Any folder created meanwhile belongs to an import of this run (other tests); none is left by the refusals.
    for (const dir of importDirs()) if (!before.has(dir)) expect(known.has(dir), `stray upload folder ${dir}`).toBe(true);
  });

  it("refuses an 11th file", async () => {
    const o = await owner();
    const files = Array.from({ length: 11 }, (_, i) => ({ name: `parte-${i + 1}.csv`, body: `Celular\n119876500${String(i).padStart(2, "0")}\n` }));
    const res = await upload(o.token, files);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe("IMPORT_TOO_MANY_FILES");
    const [{ n }] = await query<{ n: number }>("SELECT count(*)::int AS n FROM contact_imports WHERE account_id = $1", [o.accountId]);
    expect(n).toBe(0);
    const ten = await upload(o.token, files.slice(0, 10));
    expect(ten.status).toBe(201);
    expect(ten.body.files).toHaveLength(10);
    expect(ten.body.totalRows).toBe(10);
  });

  it("answers a layout error naming the file for a broken CSV: unterminated quote, binary, no header row, empty", async () => {
    const o = await owner();
    const cases: Part[] = [
      { name: "aspas.csv", body: 'Nome,Celular\n"Ana,11987650001\nBia,11987650002\n' },
      { name: "planilha.csv", body: Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00, 0x08, 0x00, 0x00, 0x00, 0x21, 0x00, 0xff, 0xfe, 0x0a]) },
      { name: "sem-cabecalho.csv", body: "Maria,11987654321,maria@exemplo.com\nJoão,11987654322,joao@exemplo.com\n" },
      { name: "vazio.csv", body: "" },
    ];
    for (const part of cases) {
      const res = await upload(o.token, [part]);
      expect(res.status, part.name).toBe(422);
      expect(res.body.error.code, part.name).toBe("IMPORT_LAYOUT");
      expect(res.body.error.params.file).toBe(part.name);
    }
    const en = await fetch(new URL("/api/contacts/imports", inject("apiUrl")), {
      method: "POST",
      headers: { Authorization: `Bearer ${o.token}`, "Accept-Language": "en" },
      body: (() => {
        const f = new FormData();
        f.append("files", new Blob([""]), "vazio.csv");
        return f;
      })(),
    }).then((r) => r.json());
    expect(en.error.message).toBe("Layout error: the file vazio.csv could not be read as CSV");
    const [{ n }] = await query<{ n: number }>("SELECT count(*)::int AS n FROM contact_imports WHERE account_id = $1", [o.accountId]);
    expect(n).toBe(0);
  });

  it("refuses at upload a file whose broken line is far below the preview, before anything is imported", async () => {
    const o = await owner();
    const body = ["Nome,Celular", ...Array.from({ length: 8 }, (_, i) => `Pessoa ${i},1198765000${i}`), 'Quebrado,11987650099"x"', "Depois,11987650100"].join("\n");
    const res = await upload(o.token, [{ name: "quebrado.csv", body }]);
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: "IMPORT_LAYOUT", params: { file: "quebrado.csv" } });
    expect(await contactsOf(o.accountId)).toEqual([]);
  });

  it("refuses a file of 1,000,001 data rows ('Exceeds the 1,000,000-row limit')", async () => {
    const o = await owner();
    const path = join(tmpdir(), `import-1000001-${Date.now()}.csv`);
    const out = createWriteStream(path);
    let buf = "Celular\n";
    for (let i = 0; i < 1_000_001; i++) {
      buf += `119${String(i).padStart(8, "0")}\n`;
      if (buf.length > 1 << 16) {
        if (!out.write(buf)) await once(out, "drain");
        buf = "";
      }
    }
    out.end(buf);
    await once(out, "finish");
    try {
      expect(statSync(path).size).toBeGreaterThan(12_000_000);
      const res = await upload(o.token, [{ name: "grande.csv", body: await openAsBlob(path) }]);
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe("IMPORT_TOO_MANY_ROWS");
      expect(res.body.error.params.file).toBe("grande.csv");
      const en = await api("/api/contacts/imports", { token: o.token, lang: "en" });
      expect(en.body).toEqual({ data: [], next_cursor: null });
    } finally {
      rmSync(path, { force: true });
    }
  });
});

describe("CSV import: tenant isolation", () => {
  it("another account cannot see, start or download an import, and contacts land only in the importer's account", async () => {
    const a = await owner("import-a");
    const b = await owner("import-b");
    const up = await upload(a.token, [{ name: "a.csv", body: "Celular\n11987650001\n123\n" }]);
    expect(up.status).toBe(201);
    for (const [path, body] of [
      [`/api/contacts/imports/${up.body.id}`],
      [`/api/contacts/imports/${up.body.id}/start`, { mapping: { Celular: "mobile_number" } }],
      [`/api/contacts/imports/${up.body.id}/errors`],
    ] as const) {
      const res = await api(path, { token: b.token, body });
      expect(res.status, path).toBe(404);
    }
    expect((await api("/api/contacts/imports", { token: b.token })).body).toEqual({ data: [], next_cursor: null });
    const [row] = await query("SELECT status FROM contact_imports WHERE id = $1", [up.body.id]);
    expect(row.status).toBe("uploaded");

    expect((await start(a.token, up.body.id, { mapping: { Celular: "mobile_number" } })).status).toBe(200);
    const done = await finished(a.token, up.body.id);
    expect(done).toMatchObject({ insertedRows: 1, errorCount: 1 });
    expect((await api(`/api/contacts/imports/${up.body.id}/errors`, { token: b.token })).status).toBe(404);
    expect((await api(`/api/contacts/imports/${up.body.id}/errors`, { token: a.token })).status).toBe(200);
    expect(await contactsOf(b.accountId)).toEqual([]);
    expect((await contactsOf(a.accountId)).map((r) => r.mobile_number)).toEqual(["+5511987650001"]);
    // Without a token, nothing.
    expect((await api(`/api/contacts/imports/${up.body.id}`)).status).toBe(401);
  });

  it("is refused to roles without the contacts screens (the API refuses what the screens refuse)", async () => {
    const { token } = await login("analyst@demo.example", "Demo!Mensa#2026");
    const res = await upload(token, [{ name: "negado.csv", body: "Celular\n11987650001\n" }]);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("FORBIDDEN");
    expect((await api("/api/contacts/imports", { token })).status).toBe(403);
    const after = await query<{ n: number }>("SELECT count(*)::int AS n FROM contact_imports WHERE files::text LIKE '%negado.csv%'");
    expect(after[0].n).toBe(0);
  });
});

describe("CSV import: abandoned uploads", () => {
  it("an upload nobody started within 24 h is removed, row and files", async () => {
    const o = await owner();
    const up = await upload(o.token, [{ name: "esquecido.csv", body: "Celular,Nome\n11987650001,Ana\n" }]);
    expect(up.status).toBe(201);
    expect(importDirs()).toContain(up.body.id);
    await setContactImport(up.body.id, { createdAt: ago("25 hours") });
    const until = Date.now() + 15_000;
    // The sweep deletes the row, then the files: wait for both.
    const gone = async () => (await query("SELECT 1 FROM contact_imports WHERE id = $1", [up.body.id])).length === 0 && !importDirs().includes(up.body.id);
    while (Date.now() < until && !(await gone())) await new Promise((r) => setTimeout(r, 250));
    expect(await query("SELECT 1 FROM contact_imports WHERE id = $1", [up.body.id])).toHaveLength(0);
    expect(importDirs()).not.toContain(up.body.id);
  });
});

describe("CSV import: the worker job is idempotent", () => {
  it("a redelivered job leaves a finished import alone, and restarts a crashed one cleanly", async () => {
    const o = await owner();
    const done = await importCsv(o, "Celular,Nome\n11987650001,Ana\n11987650002,Bia\n123,X\n");
    expect(done).toMatchObject({ insertedRows: 2, errorCount: 1 });
    const redis = openRedis(inject("redisUrl"));
    const scheme = keysOf(inject("redisPrefix"));
    const stream = scheme.jobStreamFor("jobs:imports", done.id);
    try {
      const entry = (await redis.xadd(stream, "*", "id", done.id))!;
      // Signal: the importers read and acked the redelivered entry (the job ran, or declined).
      await streamHandled(stream, "importers", entry, 30_000);
      const again = await api(`/api/contacts/imports/${done.id}`, { token: o.token });
      expect(again.body).toMatchObject({ status: "completed", insertedRows: 2, errorCount: 1, finishedAt: done.finishedAt });

      // A job that died while running: counters half way, a staging row left behind, the entry delivered again.
      const up = await upload(o.token, [{ name: "b.csv", body: "Celular,Nome\n11987650002,Bianca\n11987650003,Caio\n" }]);
      await setContactImport(up.body.id, {
        status: "running",
        mapping: { Celular: "mobile_number", Nome: "name" },
        startedAt: ago("1 hour"),
        processedRows: 1,
        insertedRows: 7,
      });
      await makeContactImportRow(up.body.id, { line: 1, mobileNumber: "+5511987659999", firstName: "Fantasma" });
      await redis.xadd(scheme.jobStreamFor("jobs:imports", up.body.id), "*", "id", up.body.id);
      const after = await finished(o.token, up.body.id);
      expect(after).toMatchObject({ status: "completed", processedRows: 2, insertedRows: 1, mergedRows: 1, errorCount: 0 });
      const rows = await contactsOf(o.accountId);
      expect(rows.map((r) => [r.mobile_number, r.first_name])).toEqual([
        ["+5511987650001", "Ana"],
        ["+5511987650002", "Bianca"],
        ["+5511987650003", "Caio"],
      ]);
      // The completion notice is written after the import's own status (its own transaction): polled with a bound.
      const notices = async () =>
        (await query<{ n: number }>("SELECT count(*)::int AS n FROM notifications WHERE account_id = $1 AND kind = 'import_completed'", [o.accountId]))[0].n;
      await expect.poll(notices, { timeout: 15_000 }).toBe(2);
    } finally {
      await redis.quit();
    }
  });
});

describe("the list of imports and a failure's message", () => {
  it("pages newest first by keyset (limit, cursor): every import once, next_cursor null at the end, a bad cursor is 422 on cursor", async () => {
    const o = await owner("import-pages");
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const up = await upload(o.token, [{ name: `lote${i}.csv`, body: `Celular\n1198765000${i}\n` }]);
      expect(up.status).toBe(201);
      ids.unshift(up.body.id);
    }
    const first = await api("/api/contacts/imports?limit=2", { token: o.token });
    expect(first.status).toBe(200);
    expect(first.body.data.map((i: { id: string }) => i.id)).toEqual(ids.slice(0, 2));
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const second = await api(`/api/contacts/imports?limit=2&cursor=${first.body.next_cursor}`, { token: o.token });
    expect(second.body.data.map((i: { id: string }) => i.id)).toEqual(ids.slice(2));
    expect(second.body.next_cursor).toBeNull();
    const bad = await api("/api/contacts/imports?cursor=bm9wZQ", { token: o.token });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.error.fields)).toEqual(["cursor"]);
  });

  it("a failed import carries its failure key and the message in the caller's language", async () => {
    const o = await owner("import-failure");
    const up = await upload(o.token, [{ name: "x.csv", body: "Celular\n11987650009\n" }]);
    expect(up.body.failureMessage).toBeNull();
    await setContactImport(up.body.id, { status: "failed", failure: "errors.IMPORT_LAYOUT", failureParams: { file: "x.csv" } });
    const en = await api(`/api/contacts/imports/${up.body.id}`, { token: o.token, lang: "en" });
    expect(en.body).toMatchObject({
      status: "failed",
      failure: "errors.IMPORT_LAYOUT",
      failureParams: { file: "x.csv" },
      failureMessage: "Layout error: the file x.csv could not be read as CSV",
    });
    const pt = await api(`/api/contacts/imports/${up.body.id}`, { token: o.token, lang: "pt-BR" });
    expect(pt.body.failureMessage).toContain("x.csv");
    expect(pt.body.failureMessage).not.toBe(en.body.failureMessage);
  });
});
