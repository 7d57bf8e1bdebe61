/**
 * CSV-file sends through the API (POST /api/sms/messages as multipart/form-data, the same staged
 * streaming as the web form) with Idempotency-Key, and the report of a file send's invalid rows
 * (line, value, reason; translated) from GET /api/sms/campaigns/{id}/invalid_rows and from the web
 * (/sms/campaigns/{id}/invalid-rows, linked from the send result and the campaign page).
 * Effects are checked in the database.
 */
import { beforeAll, describe, expect, inject, it } from "vitest";
import { giveShortCode, login, registerPerson, api, type Person } from "../support/api";
import { query } from "../support/db";
import { signIn } from "../support/web";
import { setAccount } from "../support/factories";

const DEFAULT_T1 = 8;
let seq = 30_000_000 + Math.floor(Math.random() * 30_000_000);
const nextNational = () => `11 9${String(seq++)}`;
const e164 = (national: string) => `+55${national.replace(/\D/g, "")}`;

type Who = Person & { token: string };
async function person(tag: string, balance: number): Promise<Who> {
  const p = await registerPerson(tag);
  await setAccount(p.accountId, { balance });
  return { ...p, token: (await login(p.email, p.password)).token };
}
const balanceOf = async (accountId: string) => Number((await query<{ balance: string }>("SELECT balance FROM account_balances WHERE account_id = $1", [accountId]))[0].balance);

/** POST multipart to the API: `parts` in order, each a text field or a file. */
async function postFile(who: Who, parts: Array<[string, string] | [string, { name: string; text: string }]>, opts: { key?: string; lang?: string } = {}) {
  const form = new FormData();
  for (const [name, v] of parts) {
    if (typeof v === "string") form.append(name, v);
    else form.append(name, new Blob([v.text], { type: "text/csv" }), v.name);
  }
  const headers: Record<string, string> = { Authorization: `Bearer ${who.token}` };
  if (opts.key) headers["Idempotency-Key"] = opts.key;
  if (opts.lang) headers["Accept-Language"] = opts.lang;
  const res = await fetch(new URL("/api/sms/messages", inject("apiUrl")), { method: "POST", headers, body: form });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: res.status, body };
}

/** Rows of these numbers still in the staging table (a send or a refusal must leave none). */
const stagedOf = async (numbers: string[]) => (await query<{ n: number }>("SELECT count(*)::int AS n FROM sms_send_rows WHERE recipient = ANY($1)", [numbers]))[0].n;

async function getReport(who: Who, campaignId: string, lang: string) {
  const res = await fetch(new URL(`/api/sms/campaigns/${campaignId}/invalid_rows`, inject("apiUrl")), {
    headers: { Authorization: `Bearer ${who.token}`, "Accept-Language": lang },
  });
  return { status: res.status, type: res.headers.get("Content-Type"), disposition: res.headers.get("Content-Disposition"), text: await res.text() };
}

let owner: Who;
/** owner's own short code: the sender its sends use. */
let ownerCode: string;
beforeAll(async () => {
  owner = await person("smsfileapi", 100_000);
  ownerCode = await giveShortCode(owner.accountId);
});

describe("POST /api/sms/messages with a CSV file (multipart/form-data)", () => {
  it("stages the file, fills {{variables}} from its columns, creates a campaign, debits once; fields may come after the file", async () => {
    const rows = Array.from({ length: 12 }, (_, i) => [`Ana ${i}`, nextNational(), `C${i}`]);
    const csv = ["nome;celular;codigo", ...rows.map((r) => r.join(";"))].join("\n");
    const before = await balanceOf(owner.accountId);
    const res = await postFile(owner, [
      ["file", { name: "clientes.csv", text: csv }],
      ["body", "Oi {{nome}}, seu código {{codigo}} {{loja}}"],
      ["from", ownerCode],
      ["route", "T1"],
      ["variables[loja]", "Centro"],
      ["campaign_name", "Arquivo via API"],
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.summary).toMatchObject({ messages: 12, sendable: 12, invalid: 0 });
    expect(res.body.total_price).toBe(12 * DEFAULT_T1);
    expect(await balanceOf(owner.accountId)).toBe(before - 12 * DEFAULT_T1);
    const [c] = await query<{ name: string; source: { kind: string; file_name: string } }>("SELECT name, source FROM campaigns WHERE id = $1", [res.body.campaign_id]);
    expect(c).toMatchObject({ name: "Arquivo via API", source: { kind: "file", file_name: "clientes.csv" } });
    const [m] = await query<{ body: string; sender: string }>("SELECT body, sender FROM messages WHERE campaign_id = $1 AND recipient = $2", [
      res.body.campaign_id,
      e164(rows[3][1]),
    ]);
    expect(m).toEqual({ body: "Oi Ana 3, seu código C3 Centro", sender: ownerCode });
    expect(await stagedOf(rows.map((r) => e164(r[1])))).toBe(0);
  });

  it("Idempotency-Key: the same file and fields again answer the first response (one campaign, one debit); another file under the key is 409", async () => {
    const key = `file-${Math.random().toString(36).slice(2)}`;
    const csv = ["telefone", nextNational(), nextNational(), nextNational()].join("\n");
    const parts: Array<[string, string] | [string, { name: string; text: string }]> = [
      ["body", "Promoção"],
      ["file", { name: "lista.csv", text: csv }],
    ];
    const before = await balanceOf(owner.accountId);
    const first = await postFile(owner, parts, { key });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const again = await postFile(owner, parts, { key });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await balanceOf(owner.accountId)).toBe(before - 3 * DEFAULT_T1);
    expect((await query<{ n: number }>("SELECT count(*)::int AS n FROM campaigns WHERE account_id = $1 AND source->>'file_name' = 'lista.csv'", [owner.accountId]))[0].n).toBe(1);
    // The replay's staged rows do not linger.
    expect(await stagedOf(csv.split("\n").slice(1).map(e164))).toBe(0);
    const other = await postFile(
      owner,
      [
        ["body", "Promoção"],
        ["file", { name: "lista.csv", text: `${csv}\n${nextNational()}` }],
      ],
      { key },
    );
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe("IDEMPOTENCY_CONFLICT");
  });

  it("refuses, translated and on the field: no file, a file that is not CSV, a file with `to`, bad `variables`; nothing is written or debited", async () => {
    const before = await balanceOf(owner.accountId);
    const campaigns = async () => (await query<{ n: number }>("SELECT count(*)::int AS n FROM campaigns WHERE account_id = $1", [owner.accountId]))[0].n;
    const n0 = await campaigns();
    const noFile = await postFile(owner, [["body", "x"]], { lang: "en" });
    expect(noFile.status).toBe(422);
    expect(noFile.body.error.fields.file).toBeDefined();
    const notCsv = await postFile(
      owner,
      [
        ["body", "x"],
        ["file", { name: "lista.txt", text: nextNational() }],
      ],
      { lang: "en" },
    );
    expect(notCsv.status).toBe(422);
    expect(notCsv.body.error.fields.file).toEqual(["Upload a .csv file"]);
    const both = await postFile(
      owner,
      [
        ["body", "x"],
        ["to", nextNational()],
        ["file", { name: "a.csv", text: nextNational() }],
      ],
      { lang: "en" },
    );
    expect(both.status).toBe(422);
    expect(both.body.error.fields.file).toEqual(["Use only one kind of recipients"]);
    const badVars = await postFile(owner, [
      ["variables", "[1,2]"],
      ["body", "x"],
      ["file", { name: "a.csv", text: nextNational() }],
    ]);
    expect(badVars.status).toBe(422);
    expect(badVars.body.error.fields.variables).toBeDefined();
    expect(await balanceOf(owner.accountId)).toBe(before);
    expect(await campaigns()).toBe(n0);
  });

  it("a file send from a sender the account does not own is refused whole (422 on from): no campaign, no message, no debit, no staged rows", async () => {
    const before = await balanceOf(owner.accountId);
    const campaigns = async () => (await query<{ n: number }>("SELECT count(*)::int AS n FROM campaigns WHERE account_id = $1", [owner.accountId]))[0].n;
    const n0 = await campaigns();
    const numbers = [nextNational(), nextNational(), nextNational()];
    const res = await postFile(
      owner,
      [
        ["from", "40404"],
        ["body", "Promoção"],
        ["file", { name: "lista.csv", text: ["telefone", ...numbers].join("\n") }],
      ],
      { lang: "en", key: `file-${Math.random().toString(36).slice(2)}` },
    );
    expect(res.status).toBe(422);
    expect(res.body.error.fields).toEqual({ from: ["This sender is not one of your account's senders"] });
    expect(await campaigns()).toBe(n0);
    expect(await balanceOf(owner.accountId)).toBe(before);
    expect((await query<{ n: number }>("SELECT count(*)::int AS n FROM messages WHERE recipient = ANY($1)", [numbers.map(e164)]))[0].n).toBe(0);
    expect(await stagedOf(numbers.map(e164))).toBe(0);
  });

  it("the JSON body still works on the same route", async () => {
    const res = await api("/api/sms/messages", { token: owner.token, body: { to: nextNational(), body: "json" } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toHaveLength(1);
  });
});

describe("invalid rows of a file send", () => {
  let campaignId: string;
  const good = [nextNational(), nextNational()];
  beforeAll(async () => {
    // Line 1 header; 3 and 5 invalid (a short number, a formula), 6 blank phone cell.
    const csv = ["nome,celular", `Ana,${good[0]}`, "Bia,123", `Caio,${good[1]}`, "Duda,=1+2", "Eva,"].join("\n");
    const res = await postFile(owner, [
      ["body", "Oi"],
      ["file", { name: "misto.csv", text: csv }],
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.summary).toMatchObject({ messages: 2, invalid: 3 });
    campaignId = res.body.campaign_id;
  });

  it("GET /api/sms/campaigns/{id}/invalid_rows: line, value, reason in the Accept-Language; formulas as text", async () => {
    const en = await getReport(owner, campaignId, "en");
    expect(en.status).toBe(200);
    expect(en.type).toMatch(/^text\/csv/);
    expect(en.disposition).toMatch(/attachment; filename="invalid-rows-/);
    expect(
      en.text
        .replace(/^\uFEFF/, "")
        .trim()
        .split("\r\n"),
    ).toEqual(["Line,Value,Reason", "3,123,Invalid number", "5,'=1+2,Invalid number", "6,,Blank number"]);
    const pt = await getReport(owner, campaignId, "pt-BR");
    expect(
      pt.text
        .replace(/^\uFEFF/, "")
        .split("\r\n")
        .slice(0, 2),
    ).toEqual(["Linha,Valor,Motivo", "3,123,Número inválido"]);
    expect((await api(`/api/sms/campaigns/${campaignId}`, { token: owner.token })).body.data.invalid_rows).toBe(3);
  });

  it("another account's campaign and a bad id are 404", async () => {
    const stranger = await person("smsfileapi2", 0);
    expect((await getReport(stranger, campaignId, "en")).status).toBe(404);
    expect((await getReport(owner, "nope", "en")).status).toBe(404);
  });

  it("the web: the campaign page links the report, which downloads in the reader's language", async () => {
    const web = await signIn(owner.email, owner.password);
    const { html } = await web.page(`/sms/campaigns/${campaignId}`);
    expect(html).toContain(`href="/sms/campaigns/${campaignId}/invalid-rows"`);
    expect(html).toContain("Linhas do arquivo sem número válido (não enviadas): 3");
    const success = await web.page(`/sms/send/success?campaign=${campaignId}`);
    expect(success.html).toContain(`href="/sms/campaigns/${campaignId}/invalid-rows"`);
    const file = await web.get(`/sms/campaigns/${campaignId}/invalid-rows`);
    expect(file.status).toBe(200);
    expect(file.headers.get("Content-Type")).toMatch(/^text\/csv/);
    const lines = (await file.text())
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines).toEqual(["Linha,Valor,Motivo", "3,123,Número inválido", "5,'=1+2,Número inválido", "6,,Número em branco"]);
    const stranger = await person("smsfileweb2", 0);
    const other = await signIn(stranger.email, stranger.password);
    expect((await other.get(`/sms/campaigns/${campaignId}/invalid-rows`)).status).toBe(404);
  });
});
