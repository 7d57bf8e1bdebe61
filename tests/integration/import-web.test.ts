/**
 * The CSV import screens (/contacts/import, /contacts/import/{id}, its error report) driven like
 * a browser with JavaScript off: multipart uploads and form posts carrying the CSRF field, pages
 * that refresh themselves while the import runs. Every test works in a freshly registered account.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { registerPerson } from "../support/api";
import { query } from "../support/db";
import { WebClient, location, signIn } from "../support/web";

type Owner = { client: WebClient; accountId: string };

async function freshOwner(tag: string): Promise<Owner> {
  const p = await registerPerson(tag);
  return { client: await signIn(p.email, p.password), accountId: p.accountId };
}

/** `n` data rows "Pessoa 000001", mobiles (11) 9xxxx-xxxx, unique per `seed`; `invalid` lines (1-based data rows) get a bad number. */
function peopleCsv(n: number, seed: number, invalid: number[] = []) {
  const bad = new Set(invalid);
  let out = "Nome,Celular,E-mail,Cidade\n";
  for (let i = 1; i <= n; i++) {
    const id = String(i).padStart(6, "0");
    const mobile = bad.has(i) ? `12${i}` : `(11) 9${String(seed).padStart(2, "0")}${id}`;
    out += `Pessoa ${id} Silva,${mobile},p${id}.${seed}@exemplo.com.br,São Paulo\n`;
  }
  return out;
}

function filesForm(files: Array<{ name: string; text: string }>) {
  const form = new FormData();
  for (const f of files) form.append("files", new Blob([f.text], { type: "text/csv" }), f.name);
  return form;
}

const importIdOf = (res: Response) => {
  const m = /^\/contacts\/import\/([0-9a-f-]{36})$/.exec(location(res) ?? "");
  if (!m) throw new Error(`expected a redirect to an import, got ${res.status} ${location(res)}`);
  return m[1];
};

/** The option marked selected in the <select name="..."> of a page. */
function selectedIn(html: string, name: string) {
  const m = new RegExp(`<select[^>]*name="${name.replace(/\./g, "\\.")}"[^>]*>([\\s\\S]*?)</select>`).exec(html);
  if (!m) return undefined;
  return /<option[^>]*value="([^"]*)"[^>]*selected=""/.exec(m[1])?.[1] ?? /<option[^>]*selected=""[^>]*value="([^"]*)"/.exec(m[1])?.[1] ?? "";
}

/** The page's main content (short enough to print when an assertion fails). */
const mainOf = (html: string) => {
  const i = html.indexOf("<main");
  return i < 0 ? html.slice(0, 3000) : html.slice(i, html.indexOf("</main>", i) + 7);
};
/** Checks look at the rendered <main> only: every page also carries its translations as data. */
function expectIn(page: string, ...needles: Array<string | RegExp>) {
  const html = mainOf(page);
  for (const n of needles) {
    const ok = typeof n === "string" ? html.includes(n) : n.test(html);
    if (!ok) throw new Error(`the page lacks ${String(n)}:\n${html.replace(/ class="[^"]*"/g, "").slice(0, 6000)}`);
  }
}
function expectNotIn(page: string, ...needles: Array<string | RegExp>) {
  const html = mainOf(page);
  for (const n of needles) {
    const found = typeof n === "string" ? html.includes(n) : n.test(html);
    if (found) throw new Error(`the page shows ${String(n)}`);
  }
}

const statusIn = (html: string) => /data-status="(\w+)"/.exec(html)?.[1];
const statIn = (html: string, name: string) => {
  const i = html.indexOf(`data-stat="${name}"`);
  return i < 0 ? "" : (/<dd[^>]*>([^<]*)<\/dd>/.exec(html.slice(i))?.[1] ?? "");
};
const REFRESH = /<noscript><meta http-equiv="refresh" content="2"\/?><\/noscript>/;

async function waitForFinish(client: WebClient, id: string, seconds = 90) {
  const until = Date.now() + seconds * 1000;
  for (;;) {
    const { res, html } = await client.page(`/contacts/import/${id}`);
    expect(res.status).toBe(200);
    const status = statusIn(html);
    if (status === "completed" || status === "failed") return html;
    // While it runs, the page carries its own refresh for browsers without JavaScript.
    expectIn(html, REFRESH);
    if (Date.now() > until) throw new Error(`import ${id} still ${status} after ${seconds}s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe("/contacts/import without JavaScript", () => {
  let owner: Owner;
  beforeAll(async () => {
    owner = await freshOwner("import");
  });

  it("offers the upload form (csv only, up to 10 files) and no imports yet", async () => {
    const { res, html } = await owner.client.page("/contacts/import");
    expect(res.status).toBe(200);
    expectIn(html, /enctype="multipart\/form-data"/i);
    expectIn(html, /<input[^>]*name="files"[^>]*type="file"[^>]*accept="\.csv,text\/csv"[^>]*multiple/);
    // the CSRF field comes before the file input, so the server reads it before any file
    expect(html.indexOf('name="csrf"', html.search(/enctype="multipart\/form-data"/i))).toBeLessThan(html.indexOf('name="files"'));
    expectIn(html, "Até 10 arquivos .csv por importação");
    expectIn(html, "Nenhuma importação ainda.");
    expectIn(html, /aria-label="Trilha de navegação"[\s\S]*?href="\/contacts"[\s\S]*?aria-current="page"[^>]*>Importar</); // Contatos > Importar
  });

  it("uploads a CSV, maps it, shows live progress, then the summary, the group and the error report", async () => {
    const rows = 40_000;
    const invalid = [3, 7, 20_000];
    const { client, accountId } = owner;
    const upload = await client.postMultipart("/contacts/import?index", filesForm([{ name: "clientes.csv", text: peopleCsv(rows, 1, invalid) }]));
    expect(upload.status, await upload.clone().text()).toBe(302);
    const id = importIdOf(upload);

    // The mapping step: the header, the first 5 rows (not the 6th), suggestions preselected.
    const { res, html } = await client.page(`/contacts/import/${id}`);
    expect(res.status).toBe(200);
    expect(statusIn(html)).toBeUndefined(); // no progress or summary yet
    expectIn(html, "clientes.csv");
    for (const n of ["000001", "000002", "000004", "000005"]) expectIn(html, `Pessoa ${n} Silva`);
    expectNotIn(html, "Pessoa 000006 Silva");
    expectIn(html, "Escolha o campo do contato que cada coluna preenche.");
    expect(selectedIn(html, "col.0")).toBe("name");
    expect(selectedIn(html, "col.1")).toBe("mobile_number");
    expect(selectedIn(html, "col.2")).toBe("email");
    expect(selectedIn(html, "col.3")).toBe("city");
    expectIn(html, "Nome completo (separado no primeiro espaço)");
    const [row] = await query<{ status: string; account_id: string }>("SELECT status, account_id FROM contact_imports WHERE id = $1", [id]);
    expect(row).toEqual({ status: "uploaded", account_id: accountId });

    // Start it into a new group.
    const start = await client.post(`/contacts/import/${id}`, {
      intent: "start",
      "col.0": "name",
      "col.1": "mobile_number",
      "col.2": "email",
      "col.3": "city",
      groupId: "",
      newGroupName: "Clientes da planilha",
    });
    expect(start.status, await start.clone().text()).toBe(302);
    expect(location(start)).toBe(`/contacts/import/${id}`);

    // Right after starting, the page shows the progress and refreshes itself (no JavaScript).
    const first = await client.page(`/contacts/import/${id}`);
    expect(["queued", "running"]).toContain(statusIn(first.html));
    expectIn(first.html, REFRESH);
    expectIn(first.html, 'role="progressbar"');
    expectIn(first.html, "Esta página se atualiza sozinha");

    const done = await waitForFinish(client, id);
    expect(statusIn(done)).toBe("completed");
    expectNotIn(done, REFRESH);
    expectIn(done, "Importação concluída");
    const valid = rows - invalid.length;
    expect(statIn(done, "inserted")).toBe(valid.toLocaleString("pt-BR"));
    expect(statIn(done, "merged")).toBe("0");
    expect(statIn(done, "errors")).toBe(String(invalid.length));
    expect(statIn(done, "processed")).toBe(rows.toLocaleString("pt-BR"));

    // The contacts exist, in the new group, with the name split at the first space.
    const [group] = await query<{ id: string }>("SELECT id FROM contact_groups WHERE account_id = $1 AND name = 'Clientes da planilha'", [accountId]);
    expect(group).toBeTruthy();
    const [counts] = await query<{ contacts: number; members: number }>(
      `SELECT (SELECT count(*)::int FROM contacts WHERE account_id = $1) AS contacts,
              (SELECT count(*)::int FROM contact_group_members WHERE group_id = $2) AS members`,
      [accountId, group.id],
    );
    expect(counts).toEqual({ contacts: valid, members: valid });
    const [one] = await query<{ first_name: string; last_name: string; mobile_number: string; city: string }>(
      "SELECT first_name, last_name, mobile_number, city FROM contacts WHERE account_id = $1 AND email = 'p000001.1@exemplo.com.br'",
      [accountId],
    );
    expect(one).toEqual({ first_name: "Pessoa", last_name: "000001 Silva", mobile_number: "+5511901000001", city: "São Paulo" });
    expectIn(done, `href="/contacts?group=${group.id}"`);
    expectIn(done, "Ver os contatos do grupo Clientes da planilha");
    expectIn(done, 'href="/contacts/import"');

    // The error report names the rejected lines (the header is line 1), in Portuguese.
    expectIn(done, `href="/contacts/import/${id}/errors"`);
    const report = await client.get(`/contacts/import/${id}/errors`);
    expect(report.status).toBe(200);
    expect(report.headers.get("Content-Type")).toMatch(/^text\/csv/);
    expect(report.headers.get("Content-Disposition")).toMatch(/^attachment; filename="erros-clientes\.csv"/);
    const text = (await report.text()).replace(/^\uFEFF/, "");
    const lines = text.trim().split(/\r?\n/);
    expect(lines[0]).toBe("arquivo,linha,coluna,valor,erro");
    expect(lines).toHaveLength(1 + invalid.length);
    for (const [i, dataRow] of invalid.entries()) {
      const line = dataRow + 1;
      expect(lines[1 + i]).toBe(`clientes.csv,${line},Celular,12${dataRow},Número inválido na linha ${line}`);
    }

    // The list of recent imports links to it.
    const list = await client.page("/contacts/import");
    expectIn(list.html, `data-import-id="${id}"`);
    expectIn(list.html, `href="/contacts/import/${id}"`);
    expectIn(list.html, "Concluída");
  });

  it("a file that breaks after its preview is refused at upload with the layout error naming the file, and nothing is kept", async () => {
    const text = peopleCsv(12, 7).split("\n");
    text[9] = `Pessoa "quebrada" Silva,(11) 907000008,q@exemplo.com.br,Recife`; // data row 9: a quote inside an unquoted field
    const before = await query<{ n: number }>("SELECT count(*)::int AS n FROM contact_imports WHERE account_id = $1", [owner.accountId]);
    const upload = await owner.client.postMultipart("/contacts/import?index", filesForm([{ name: "quebrado.csv", text: text.join("\n") }]));
    expect(upload.status).toBe(422);
    expectIn(await upload.text(), "Erro de layout: o arquivo quebrado.csv não pôde ser lido como CSV");
    const after = await query<{ n: number }>("SELECT count(*)::int AS n FROM contact_imports WHERE account_id = $1", [owner.accountId]);
    expect(after[0].n).toBe(before[0].n);
  });

  it("is closed to roles without the contacts screens", async () => {
    const analyst = await signIn("analyst@demo.example");
    const res = await analyst.get("/contacts/import");
    expect(res.status).toBe(302);
    expect(location(res)).toBe("/403");
    const upload = await analyst.postMultipart("/contacts/import?index", filesForm([{ name: "negado.csv", text: peopleCsv(2, 8) }]));
    expect(upload.status).toBe(302);
    expect(location(upload)).toBe("/403");
    const [{ n }] = await query<{ n: number }>("SELECT count(*)::int AS n FROM contact_imports WHERE files::text LIKE '%negado.csv%'");
    expect(n).toBe(0);
  });

  it("refuses a file that is not .csv, with the translated error", async () => {
    const before = await query<{ n: number }>("SELECT count(*)::int AS n FROM contact_imports WHERE account_id = $1", [owner.accountId]);
    const res = await owner.client.postMultipart("/contacts/import?index", filesForm([{ name: "contatos.txt", text: peopleCsv(3, 2) }]));
    expect(res.status).toBe(422);
    const html = await res.text();
    expectIn(html, "Apenas arquivos .csv");
    expectIn(html, 'role="alert"');
    const after = await query<{ n: number }>("SELECT count(*)::int AS n FROM contact_imports WHERE account_id = $1", [owner.accountId]);
    expect(after[0].n).toBe(before[0].n);
  });

  it("refuses an 11th file", async () => {
    const files = Array.from({ length: 11 }, (_, i) => ({ name: `lote-${i + 1}.csv`, text: peopleCsv(2, 10 + i) }));
    const res = await owner.client.postMultipart("/contacts/import?index", filesForm(files));
    expect(res.status).toBe(422);
    expectIn(await res.text(), "No máximo 10 arquivos por importação");
    const [{ n }] = await query<{ n: number }>("SELECT count(*)::int AS n FROM contact_imports WHERE account_id = $1 AND files::text LIKE '%lote-1.csv%'", [owner.accountId]);
    expect(n).toBe(0);
  });

  it("asks for a file when none was chosen", async () => {
    const form = new FormData();
    form.append("files", new Blob([]), "");
    const res = await owner.client.postMultipart("/contacts/import?index", form);
    expect(res.status).toBe(422);
    expectIn(await res.text(), "Escolha ao menos um arquivo .csv.");
  });

  it("requires the mobile number column, naming it, and keeps what was chosen", async () => {
    const upload = await owner.client.postMultipart("/contacts/import?index", filesForm([{ name: "sem-celular.csv", text: peopleCsv(4, 3) }]));
    const id = importIdOf(upload);
    const res = await owner.client.post(`/contacts/import/${id}`, { intent: "start", "col.0": "name", "col.1": "", "col.2": "email", "col.3": "", groupId: "", newGroupName: "" });
    expect(res.status).toBe(422);
    const html = await res.text();
    expectIn(html, "Falta a coluna de Celular");
    expect(selectedIn(html, "col.1")).toBe("");
    expect(selectedIn(html, "col.2")).toBe("email");
    const [row] = await query<{ status: string }>("SELECT status FROM contact_imports WHERE id = $1", [id]);
    expect(row.status).toBe("uploaded");
  });

  it("refuses posts without the CSRF field (403) and stores nothing", async () => {
    const upload = await owner.client.postMultipart("/contacts/import?index", filesForm([{ name: "sem-token.csv", text: peopleCsv(2, 4) }]), { csrf: null });
    expect(upload.status).toBe(403);
    const [{ n }] = await query<{ n: number }>("SELECT count(*)::int AS n FROM contact_imports WHERE files::text LIKE '%sem-token.csv%'");
    expect(n).toBe(0);

    const ok = await owner.client.postMultipart("/contacts/import?index", filesForm([{ name: "com-token.csv", text: peopleCsv(2, 5) }]));
    const id = importIdOf(ok);
    const start = await owner.client.post(`/contacts/import/${id}`, { intent: "start", "col.0": "name", "col.1": "mobile_number" }, { csrf: null });
    expect(start.status).toBe(403);
    const [row] = await query<{ status: string }>("SELECT status FROM contact_imports WHERE id = $1", [id]);
    expect(row.status).toBe("uploaded");
  });

  it("another account gets 404 on the import, its mapping and its error report", async () => {
    const upload = await owner.client.postMultipart("/contacts/import?index", filesForm([{ name: "privado.csv", text: peopleCsv(3, 6, [2]) }]));
    const id = importIdOf(upload);
    const other = await freshOwner("import-other");
    expect((await other.client.get(`/contacts/import/${id}`)).status).toBe(404);
    expect((await other.client.post(`/contacts/import/${id}`, { intent: "start", "col.0": "name", "col.1": "mobile_number" })).status).toBe(404);
    expect((await other.client.get(`/contacts/import/${id}/errors`)).status).toBe(404);
    const list = await other.client.page("/contacts/import");
    expectNotIn(list.html, id);
    const [row] = await query<{ status: string }>("SELECT status FROM contact_imports WHERE id = $1", [id]);
    expect(row.status).toBe("uploaded");
  });
});
