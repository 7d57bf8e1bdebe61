/**
 * The number lookup screens (issue 22) driven like a browser with JavaScript off: the single
 * lookup form (translated error naming the E.164 rule, post-redirect-get to the result), a CSV
 * list uploaded through /lookup/list with its progress and translated CSV export, the group
 * lookup with cleaning, /lookup/usage, CSRF, and another account's export answering 404.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { query } from "../support/db";
import { addToGroup, makeContactGroup, makeContacts } from "../support/factories";
import { location, signedInCustomer, type WebCustomer } from "../support/web";

let owner: WebCustomer;
let other: WebCustomer;

const mainOf = (html: string) => {
  const i = html.indexOf("<main");
  return i < 0 ? html : html.slice(i, html.indexOf("</main>", i) + 7);
};
const rand = (d: number) => String(Math.floor(Math.random() * 10 ** d)).padStart(d, "0");
const mobile = () => `+55119${rand(8)}`.replace(/0503$/, "0504");

beforeAll(async () => {
  [owner, other] = await Promise.all([signedInCustomer("lookup-web", { balance: 10_000 }), signedInCustomer("lookup-web-other", { balance: 10_000 })]);
});

describe("/lookup", () => {
  it("looks up one number without JavaScript and shows the result; a bad number is refused naming the rule", async () => {
    const page = await owner.client.page("/lookup");
    expect(page.res.status).toBe(200);
    expect(mainOf(page.html)).toContain('name="number"');
    expect(mainOf(page.html)).toContain("Cada consulta custa R$");

    const bad = await owner.client.post("/lookup?index", { number: "11987654321" });
    expect(bad.status).toBe(422);
    expect(mainOf(await bad.text())).toContain("O número deve começar com + e o código do país (E.164)");

    const n = mobile();
    const ok = await owner.client.post("/lookup?index", { number: n });
    expect(ok.status).toBe(302);
    expect(location(ok)).toMatch(/^\/lookup\?result=\d+$/);
    const shown = mainOf((await owner.client.page(location(ok)!)).html);
    expect(shown).toContain(`Resultado de ${n}`);
    expect(shown).toContain("Celular");
    expect(shown).toMatch(/Vivo|Claro|TIM|Oi|Algar/);

    const csv = await owner.client.get("/lookup/export");
    expect(csv.status).toBe(200);
    const bytes = new Uint8Array(await csv.arrayBuffer());
    // A byte-order mark first (spreadsheet programs read the accents right), then the translated header.
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes);
    expect(text.startsWith("linha,número,situação,válido,tipo")).toBe(true);
    expect(text).toContain(`,${n},ok,true,mobile,BR,`);
  });

  it("refuses a form without its CSRF token", async () => {
    const res = await owner.client.post("/lookup?index", { number: mobile() }, { csrf: null });
    expect(res.status).toBe(403);
  });
});

describe("/lookup/list", () => {
  it("uploads a CSV list, shows its progress to the end and exports its results; another account's export is 404", async () => {
    const numbers = [mobile(), mobile(), "+551133334444"];
    const form = new FormData();
    form.append("file", new Blob([`Nome,Celular\nAna,${numbers[0]}\nBia,${numbers[1]}\nLoja,${numbers[2]}\nSem,não tem\n`], { type: "text/csv" }), "lista.csv");
    const res = await owner.client.postMultipart("/lookup/list", form);
    expect(res.status).toBe(302);
    expect(location(res)).toBe("/lookup/list");
    const [list] = await query<{ id: string }>(`SELECT id FROM lookup_lists WHERE account_id = $1 AND name = 'lista.csv'`, [owner.accountId]);
    await expect.poll(async () => /data-status="completed"/.test(mainOf((await owner.client.page("/lookup/list")).html)), { timeout: 30_000, interval: 200 }).toBe(true);
    const page = mainOf((await owner.client.page(`/lookup/list?list=${list.id}`)).html);
    expect(page).toContain("lista.csv");
    expect(page).toContain("Linha inválida");
    expect(page).toContain("Fixo");

    const csv = await owner.client.get(`/lookup/list/${list.id}/export`);
    expect(csv.status).toBe(200);
    const lines = (await csv.text()).trim().split("\r\n");
    expect(lines).toHaveLength(5);
    expect(lines[3]).toMatch(/^3,\+551133334444,ok,true,landline,BR,/);
    expect(lines[4]).toMatch(/^4,não tem,bad_line,false,/);

    expect((await other.client.get(`/lookup/list/${list.id}/export`)).status).toBe(404);
    expect(mainOf((await other.client.page(`/lookup/list?list=${list.id}`)).html)).not.toContain("lista.csv");
  });

  it("refuses a file without a mobile number column with the import's translated error", async () => {
    const form = new FormData();
    form.append("file", new Blob(["Nome,Cidade\nAna,Recife\n"], { type: "text/csv" }), "semcelular.csv");
    const res = await owner.client.postMultipart("/lookup/list", form);
    expect(res.status).toBe(422);
    expect(mainOf(await res.text())).toContain("Falta a coluna de Celular");
  });

  it("looks up a group and cleans it from the form", async () => {
    const groupId = await makeContactGroup(owner.accountId, `Clientes ${rand(4)}`);
    const ids = await makeContacts(owner.accountId, [{ mobileNumber: mobile() }, { mobileNumber: `+55113${rand(7)}`.replace(/^\+551139/, "+551138") }]);
    await addToGroup(owner.accountId, groupId, ids);
    const res = await owner.client.post("/lookup/list", { intent: "group", group_id: groupId, clean: "on" });
    expect(res.status).toBe(302);
    await expect
      .poll(async () => (await query<{ status: string }>(`SELECT status FROM lookup_lists WHERE group_id = $1`, [groupId]))[0]?.status, { timeout: 30_000, interval: 200 })
      .toBe("completed");
    const left = await query<{ n: number }>(`SELECT count(*)::int AS n FROM contact_group_members WHERE group_id = $1`, [groupId]);
    expect(left[0].n).toBe(1);
    expect(mainOf((await owner.client.page("/lookup/list")).html)).toContain("1 contato movido do grupo");
  });
});

describe("/lookup/usage", () => {
  it("shows the period's lookups and cost per day with a total", async () => {
    const page = await owner.client.page("/lookup/usage");
    expect(page.res.status).toBe(200);
    const html = mainOf(page.html);
    expect(html).toContain("data-total");
    expect(html).toMatch(/R\$\s?0,\d\d/);
    const bad = await owner.client.page("/lookup/usage?from=2026-01-10&to=2026-01-01");
    expect(bad.res.status).toBe(422);
    expect(mainOf(bad.html)).toContain("O período deve começar antes de terminar");
  });
});
