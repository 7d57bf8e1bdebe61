/**
 * Number lookup (issue 22, ADR 058) through the API against the simulator's loopback lookup peer
 * (api/simulator/hlr.ts): one number (E.164 at the boundary, priced and debited through the
 * ledger, refunded when the provider fails, refused without balance), a CSV list and a contact
 * group looked up by the worker in provider batches (bad lines reported and refunded), results
 * kept and exported, cleaning a group, usage per day, and every resource scoped by account.
 */
import { beforeAll, describe, expect, inject, it } from "vitest";
import { simulatedLookup } from "../../api/simulator/hlr-rules";
import { api, login, registerPerson } from "../support/api";
import { query } from "../support/db";
import { addToGroup, balanceOf, makeContactGroup, makeContacts, setAccount } from "../support/factories";

type Who = { token: string; accountId: string };
let a: Who;
let b: Who;
const as = (who: Who, path: string, o: { method?: string; body?: unknown; lang?: string } = {}) => api(path, { token: who.token, ...o });

async function person(tag: string): Promise<Who> {
  const p = await registerPerson(tag);
  return { accountId: p.accountId, token: (await login(p.email, p.password)).token };
}

/** What the simulator answers for a number, in the API's words (the rules the simulator documents). */
function expected(e164: string) {
  const r = simulatedLookup(e164.slice(1));
  const types: Record<string, string> = { MOBILE: "mobile", FIXED_LINE: "landline", VOIP: "voip", UNKNOWN: "unknown" };
  return r.status === "OK"
    ? { number: e164, valid: true, type: types[r.number_type!], carrier: r.network?.name ?? null, ported: r.ported === true, country: r.country_iso }
    : { number: e164, valid: false, type: null, carrier: null, ported: null, country: r.country_iso };
}

const rand = (digits: number) =>
  String(Math.floor(Math.random() * 10 ** digits))
    .padStart(digits, "0")
    .replace(/0503$/, "0504");
const mobile = () => `+55119${rand(8)}`;
const landline = () => `+55113${rand(7)}`.replace(/^\+551139/, "+551138");

/** The simulator's request that last asked each number (null: never asked). */
async function askedIn(numbers: string[]): Promise<Array<number | null>> {
  const res = await fetch(new URL("/hlr/_sim/requests", inject("simulatorUrl")), {
    method: "POST",
    headers: { Authorization: `Bearer ${inject("simulatorApiKey")}`, "Content-Type": "application/json" },
    body: JSON.stringify({ msisdns: numbers.map((n) => n.slice(1)) }),
  });
  return ((await res.json()) as { requests: Array<number | null> }).requests;
}

async function uploadList(who: Who, name: string, csv: string, fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append("file", new Blob([csv], { type: "text/csv" }), name);
  const res = await fetch(new URL("/api/lookup/lists", inject("apiUrl")), {
    method: "POST",
    headers: { Authorization: `Bearer ${who.token}`, "Accept-Language": "en" },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as any, location: res.headers.get("Location") };
}

async function finished(who: Who, id: string) {
  let view: any;
  await expect
    .poll(
      async () => {
        view = (await as(who, `/api/lookup/lists/${id}`)).body;
        return view.status;
      },
      { timeout: 60_000, interval: 200 },
    )
    .toMatch(/^(completed|failed)$/);
  return view;
}

const ledger = (accountId: string, reference: string) =>
  query<{ kind: string; amount: number }>(`SELECT kind, amount::int AS amount FROM ledger_entries WHERE account_id = $1 AND book = 'customer' AND reference = $2 ORDER BY id`, [
    accountId,
    reference,
  ]);

beforeAll(async () => {
  [a, b] = await Promise.all([person("lookup-a"), person("lookup-b")]);
});

describe("one number", () => {
  it("answers valid, type, carrier, ported and country as the provider does, debits the price through the ledger and keeps the result", async () => {
    await setAccount(a.accountId, { balance: 1000 });
    const numbers = [mobile(), landline(), `+55113900${rand(4)}`, "+552087654321", "+351912345678"];
    for (const n of numbers) {
      const res = await as(a, `/api/lookup?number=${encodeURIComponent(n)}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual(expected(n));
    }
    expect(expected(numbers[0]).type).toBe("mobile");
    expect(expected(numbers[1]).type).toBe("landline");
    expect(expected(numbers[2]).type).toBe("voip");
    expect(expected(numbers[3]).valid).toBe(false);
    // R$ 0,05 each (the default), the invalid one too: the provider was asked.
    expect(await balanceOf(a.accountId)).toBe(1000 - 5 * numbers.length);
    const debits = await query<{ n: number; total: number }>(
      `SELECT count(*)::int AS n, -sum(amount)::int AS total FROM ledger_entries WHERE account_id = $1 AND book = 'customer' AND reference LIKE 'lookup:%'`,
      [a.accountId],
    );
    expect(debits[0]).toEqual({ n: numbers.length, total: 5 * numbers.length });
    const recent = await as(a, "/api/lookup/results?limit=5");
    expect(recent.body.data.map((r: any) => r.number)).toEqual([...numbers].reverse());
    expect(recent.body.data[0]).toMatchObject({ line: null, status: "ok", price: 5, currency: "BRL" });
  });

  it("charges the account's own lookup price", async () => {
    await query(`INSERT INTO lookup_prices (account_id, route, price_per_segment, currency) VALUES ($1, 'hlr', 12, 'BRL')`, [b.accountId]);
    await setAccount(b.accountId, { balance: 100 });
    expect((await as(b, `/api/lookup?number=${encodeURIComponent(mobile())}`)).status).toBe(200);
    expect(await balanceOf(b.accountId)).toBe(88);
    await query(`DELETE FROM lookup_prices WHERE account_id = $1`, [b.accountId]);
  });

  it("refuses a number that is not E.164 naming the rule, in the caller's language, and charges nothing", async () => {
    await setAccount(a.accountId, { balance: 500 });
    const cases: Array<[string, RegExp]> = [
      ["5511987654321", /must start with \+ and the country code/],
      ["+55 11 98765-4321", /digits only/],
      ["+0511987654321", /8 to 15 digits/],
      ["", /Enter the number/],
    ];
    for (const [n, message] of cases) {
      const res = await as(a, `/api/lookup?number=${encodeURIComponent(n)}`, { lang: "en" });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe("VALIDATION");
      expect(res.body.error.fields.number[0]).toMatch(message);
    }
    const pt = await as(a, "/api/lookup?number=11987654321", { lang: "pt-BR" });
    expect(pt.body.error.fields.number[0]).toMatch(/deve começar com \+/);
    expect(await balanceOf(a.accountId)).toBe(500);
  });

  it("refuses without balance (402, the existing translated error) and asks nothing", async () => {
    await setAccount(a.accountId, { balance: 4 });
    const n = mobile();
    const res = await as(a, `/api/lookup?number=${encodeURIComponent(n)}`, { lang: "en" });
    expect(res.status).toBe(402);
    expect(res.body.error).toMatchObject({ code: "INSUFFICIENT_BALANCE", message: "Insufficient balance for this send" });
    expect(await askedIn([n])).toEqual([null]);
    expect(await query(`SELECT 1 FROM lookup_results WHERE account_id = $1 AND number = $2`, [a.accountId, n])).toHaveLength(0);
    expect(await balanceOf(a.accountId)).toBe(4);
  });

  it("refunds a lookup the provider did not answer (502) and keeps no result", async () => {
    await setAccount(a.accountId, { balance: 100 });
    const res = await as(a, `/api/lookup?number=${encodeURIComponent("+5511999990503")}`, { lang: "en" });
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe("PROVIDER_UNAVAILABLE");
    expect(await balanceOf(a.accountId)).toBe(100);
    const posted = await query<{ kind: string; amount: number }>(
      `SELECT kind, amount::int AS amount FROM ledger_entries WHERE account_id = $1 AND book = 'customer' AND reason LIKE 'number lookup%' ORDER BY id DESC LIMIT 2`,
      [a.accountId],
    );
    expect(posted).toEqual([
      { kind: "refund", amount: 5 },
      { kind: "message", amount: -5 },
    ]);
    expect(await query(`SELECT 1 FROM lookup_results WHERE account_id = $1 AND number = '+5511999990503'`, [a.accountId])).toHaveLength(0);
  });
});

describe("a CSV list", () => {
  it("looks up every line in provider batches, reports bad lines, refunds them, keeps the results and exports them", async () => {
    const rows = 2500;
    const bad = new Set([7, 1500, 2500]);
    const numbers: string[] = [];
    let csv = "Nome;Celular;Cidade\n";
    for (let i = 1; i <= rows; i++) {
      const n = i % 10 === 0 ? landline() : i % 25 === 0 ? "+552087654321" : mobile();
      numbers.push(n);
      csv += `Pessoa ${i};${bad.has(i) ? "sem número" : `(${n.slice(3, 5)}) ${n.slice(5)}`};São Paulo\n`;
    }
    await setAccount(a.accountId, { balance: 20_000 });
    const up = await uploadList(a, "clientes.csv", csv);
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    expect(up.location).toBe(`/api/lookup/lists/${up.body.id}`);
    expect(up.body).toMatchObject({ source: "file", name: "clientes.csv", totalRows: rows, unitPrice: 5, charged: 5 * rows });
    // Charged for every line when it starts.
    expect(await balanceOf(a.accountId)).toBe(20_000 - 5 * rows);

    const done = await finished(a, up.body.id);
    expect(done).toMatchObject({ status: "completed", percent: 100, processedRows: rows, badLines: 3, refunded: 15, failure: null });
    const good = numbers.filter((_, i) => !bad.has(i + 1));
    expect(done.invalidCount).toBe(good.filter((n) => !expected(n).valid).length);
    expect(done.validCount).toBe(good.filter((n) => expected(n).valid).length);
    // The bad lines given back when it ended; the ledger holds the debit and the refund.
    expect(await balanceOf(a.accountId)).toBe(20_000 - 5 * (rows - 3));
    expect(await ledger(a.accountId, `lookup-list:${up.body.id}`)).toEqual([
      { kind: "message", amount: -5 * rows },
      { kind: "refund", amount: 15 },
    ]);
    // Batches of LOOKUP_BATCH (1000): the 2,497 numbers in 3 requests.
    const asked = await askedIn(good);
    expect(asked.every((r) => r !== null)).toBe(true);
    expect(new Set(asked).size).toBe(3);

    const page = await as(a, `/api/lookup/lists/${up.body.id}/results?limit=10`);
    expect(page.body.data).toHaveLength(10);
    expect(page.body.data[6]).toMatchObject({ line: 7, status: "bad_line", valid: false, number: "sem número", price: 0 });
    expect(page.body.data[0]).toMatchObject({ line: 1, ...expected(numbers[0]), price: 5 });

    const res = await fetch(new URL(`/api/lookup/lists/${up.body.id}/results.csv`, inject("apiUrl")), { headers: { Authorization: `Bearer ${a.token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/csv/);
    const lines = (await res.text()).trim().split("\r\n");
    expect(lines[0]).toBe("line,number,status,valid,type,country,carrier,original_carrier,ported,price,currency,created_at");
    expect(lines).toHaveLength(rows + 1);
    expect(lines[10].split(",").slice(0, 5)).toEqual(["10", numbers[9], "ok", "true", "landline"]);
  });

  it("refuses a file without a mobile number column, or that is not a .csv, and charges nothing", async () => {
    await setAccount(a.accountId, { balance: 1000 });
    const noMobile = await uploadList(a, "x.csv", "Nome,Cidade\nAna,Recife\n");
    expect(noMobile.status).toBe(422);
    expect(noMobile.body.error).toMatchObject({ code: "IMPORT_MISSING_MOBILE", message: "Missing Mobile Number column" });
    const notCsv = await uploadList(a, "x.txt", "Celular\n11987654321\n");
    expect(notCsv.status).toBe(422);
    expect(notCsv.body.error.code).toBe("IMPORT_NOT_CSV");
    expect(await balanceOf(a.accountId)).toBe(1000);
  });

  it("refuses a list the balance cannot pay for, writing nothing", async () => {
    await setAccount(a.accountId, { balance: 9 });
    const up = await uploadList(a, "dois.csv", "Celular\n11987654321\n11987654322\n");
    expect(up.status).toBe(402);
    expect(up.body.error.code).toBe("INSUFFICIENT_BALANCE");
    expect(await query(`SELECT 1 FROM lookup_lists WHERE account_id = $1 AND name = 'dois.csv'`, [a.accountId])).toHaveLength(0);
    expect(await balanceOf(a.accountId)).toBe(9);
  });

  it("fails a list whose provider stays down, keeping and charging what was looked up and refunding the rest", async () => {
    await setAccount(a.accountId, { balance: 1000 });
    const up = await uploadList(a, "queda.csv", "Celular\n+5511999990503\n+5511987650001\n");
    expect(up.status).toBe(201);
    const done = await finished(a, up.body.id);
    expect(done).toMatchObject({ status: "failed", failure: "errors.PROVIDER_UNAVAILABLE", charged: 10, refunded: 10 });
    expect(await balanceOf(a.accountId)).toBe(1000);
  });
});

describe("cleaning a contact group", () => {
  it("looks up a group's numbers and moves its invalid and landline contacts to a new group when asked", async () => {
    await setAccount(a.accountId, { balance: 1000 });
    const good = [mobile(), mobile(), mobile()];
    const poor = [landline(), "+552087654321", landline()];
    const groupId = await makeContactGroup(a.accountId, `Campanha ${rand(4)}`);
    const ids = await makeContacts(
      a.accountId,
      [...good, ...poor].map((m) => ({ mobileNumber: m })),
    );
    await addToGroup(a.accountId, groupId, ids);
    const res = await as(a, "/api/lookup/lists/group", { body: { group_id: groupId, clean: true } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ source: "group", totalRows: 6, charged: 30, cleanGroupId: groupId });
    const done = await finished(a, res.body.id);
    expect(done).toMatchObject({ status: "completed", cleanedCount: 3, refunded: 0 });
    const left = await query<{ mobile_number: string }>(
      `SELECT c.mobile_number FROM contact_group_members m JOIN contacts c ON c.id = m.contact_id WHERE m.group_id = $1 ORDER BY 1`,
      [groupId],
    );
    expect(left.map((r) => r.mobile_number)).toEqual([...good].sort());
    const moved = await query<{ mobile_number: string; name: string }>(
      `SELECT c.mobile_number, g.name FROM contact_group_members m JOIN contacts c ON c.id = m.contact_id JOIN contact_groups g ON g.id = m.group_id
        WHERE m.group_id = $1 ORDER BY 1`,
      [done.cleanedGroupId],
    );
    expect(moved.map((r) => r.mobile_number)).toEqual([...poor].sort());
    expect(moved[0].name).toMatch(/\(removidos pela consulta\)$/);
  });

  it("cleans a group with a finished list on request, and only with a finished list of the account", async () => {
    await setAccount(a.accountId, { balance: 1000 });
    const poor = landline();
    const good = mobile();
    const up = await uploadList(a, "base.csv", `Celular\n${good}\n${poor}\n`);
    await finished(a, up.body.id);
    const groupId = await makeContactGroup(a.accountId, `Antes ${rand(4)}`);
    await addToGroup(a.accountId, groupId, await makeContacts(a.accountId, [{ mobileNumber: good }, { mobileNumber: poor }]));
    const cleaned = await as(a, `/api/lookup/lists/${up.body.id}/clean`, { body: { group_id: groupId } });
    expect(cleaned.status, JSON.stringify(cleaned.body)).toBe(200);
    expect(cleaned.body.moved).toBe(1);
    const left = await query<{ n: number }>(`SELECT count(*)::int AS n FROM contact_group_members WHERE group_id = $1`, [groupId]);
    expect(left[0].n).toBe(1);
    const again = await as(a, `/api/lookup/lists/${up.body.id}/clean`, { body: { group_id: groupId } });
    expect(again.body).toEqual({ moved: 0, groupId: null });
  });
});

describe("usage", () => {
  it("counts lookups, valid, invalid and their cost per São Paulo day", async () => {
    const c = await person("lookup-usage");
    await setAccount(c.accountId, { balance: 1000 });
    for (const n of [mobile(), mobile(), "+552087654321"]) await as(c, `/api/lookup?number=${encodeURIComponent(n)}`);
    const today = new Date().toLocaleDateString("en-CA", { timeZone: "America/Sao_Paulo" });
    const res = await as(c, `/api/lookup/usage?from=${today}&to=${today}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      from: today,
      to: today,
      currency: "BRL",
      days: [{ day: today, lookups: 3, valid: 2, invalid: 1, cost: 15 }],
      total: { lookups: 3, valid: 2, invalid: 1, cost: 15 },
    });
    const bad = await as(c, `/api/lookup/usage?from=${today}&to=2000-01-01`, { lang: "en" });
    expect(bad.status).toBe(422);
    expect(bad.body.error.fields.from[0]).toMatch(/start before it ends/);
  });
});

describe("tenant scoping", () => {
  it("answers 404 for another account's list, its results, its export and its cleaning, and refuses its groups", async () => {
    await setAccount(a.accountId, { balance: 1000 });
    const up = await uploadList(a, "minha.csv", `Celular\n${mobile()}\n`);
    await finished(a, up.body.id);
    const id = up.body.id;
    expect((await as(b, `/api/lookup/lists/${id}`)).status).toBe(404);
    expect((await as(b, `/api/lookup/lists/${id}/results`)).status).toBe(404);
    const csv = await fetch(new URL(`/api/lookup/lists/${id}/results.csv`, inject("apiUrl")), { headers: { Authorization: `Bearer ${b.token}` } });
    expect(csv.status).toBe(404);
    const bGroup = await makeContactGroup(b.accountId);
    expect((await as(b, `/api/lookup/lists/${id}/clean`, { body: { group_id: bGroup } })).status).toBe(404);
    const aGroup = await makeContactGroup(a.accountId);
    await setAccount(b.accountId, { balance: 1000 });
    expect((await as(b, "/api/lookup/lists/group", { body: { group_id: aGroup } })).status).toBe(422);
    expect((await as(a, `/api/lookup/lists/${id}/clean`, { body: { group_id: bGroup } })).status).toBe(422);
    expect((await as(b, "/api/lookup/lists")).body.data.map((l: any) => l.id)).not.toContain(id);
    const mine = (await as(a, "/api/lookup/results")).body.data.map((r: any) => r.id);
    const theirs = (await as(b, "/api/lookup/results")).body.data.map((r: any) => r.id);
    expect(theirs.some((r: string) => mine.includes(r))).toBe(false);
  });
});
