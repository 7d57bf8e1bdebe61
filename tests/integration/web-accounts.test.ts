/**
 * /accounts and /accounts/create, and switching through /accounts/switch, like a browser with
 * JavaScript off. Creating and switching change a person's current account, so every test uses a
 * freshly registered customer instead of the shared demo people.
 */
import { describe, expect, it } from "vitest";
import { inject } from "vitest";
import { DEMO_PASSWORD, location, signIn } from "../support/web";
import { query, uniqueEmail } from "../support/db";
import { balanceOf, setUser } from "../support/factories";

const one = async <T = Record<string, unknown>>(sql: string, params: unknown[] = []) => (await query<T>(sql, params))[0];
const unique = (tag: string) => `${tag} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
/** Intl puts a no-break space inside "R$ 1.500,00"; compare text with plain spaces. */
const plain = (html: string) => html.replace(/\u00a0|&nbsp;/g, " ");
const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/'/g, "&#x27;");

function rowOf(html: string, id: string) {
  const start = html.indexOf(`data-account-id="${id}"`);
  return start < 0 ? "" : html.slice(start, html.indexOf("</tr>", start));
}

async function freshCustomer() {
  const email = uniqueEmail("accounts");
  const company = unique("Empresa Inicial");
  const res = await fetch(new URL("/api/auth/register", inject("apiUrl")), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      firstName: "Otávio",
      lastName: "Contas",
      email,
      password: DEMO_PASSWORD,
      confirmPassword: DEMO_PASSWORD,
      companyName: company,
      acceptTerms: true,
      locale: "pt-BR",
    }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  const body = (await res.json()) as { user: { id: string }; account: { id: string } };
  await setUser(body.user.id, { verified: true });
  return { email, company, userId: body.user.id, accountId: body.account.id, client: await signIn(email) };
}

describe("/accounts", () => {
  it("lists the person's accounts with type, role, balance in the account currency and the current badge", async () => {
    const c = await signIn("owner@demo.example");
    const demo = await one<{ id: string }>("SELECT id FROM accounts WHERE name = 'Demo Comércio Ltda'");
    // The demo account is shared by the suite (other files send from it): its balance as read around the page.
    const brl = (minor: number) => new Intl.NumberFormat("pt-BR", { style: "currency", currency: "BRL" }).format(minor / 100).replace(/\u00a0/g, " ");
    // Read again (a bounded number of times) while the balance moved more than once during the page:
    // a CI run saw it go 1,201 → 603 → 304 around one page.
    let before = 0;
    let after = 0;
    let page: Awaited<ReturnType<typeof c.page>> | null = null;
    let row = "";
    for (let attempt = 0; attempt < 10; attempt++) {
      before = await balanceOf(demo.id);
      page = await c.page("/accounts");
      after = await balanceOf(demo.id);
      row = plain(rowOf(page.html, demo.id));
      if ([brl(before), brl(after)].some((b) => row.includes(b))) break;
    }
    const { res, html } = page!;
    expect(res.status).toBe(200);
    expect(row).toContain("Demo Comércio Ltda");
    expect(row).toContain("Cliente");
    expect(row).toContain("Proprietário");
    expect(
      [brl(before), brl(after)].some((b) => row.includes(b)),
      `${row} shows ${brl(before)} or ${brl(after)}`,
    ).toBe(true);
    expect(row).toContain("Atual");
    expect(row).not.toContain('action="/accounts/switch"');
    expect(html).toContain('href="/accounts/create"');
  });

  it("creates an account (currency, address, owner), makes it current, and switches back", async () => {
    const { client, userId, accountId: first, company } = await freshCustomer();

    const form = await client.page("/accounts/create");
    expect(form.res.status).toBe(200);
    expect(form.html).toMatch(
      /<option[^>]*value="BRL"[^>]*selected[^>]*>BRL — Real brasileiro<\/option>|<option[^>]*selected[^>]*value="BRL"[^>]*>BRL — Real brasileiro<\/option>/,
    );
    expect(form.html).toContain('value="USD"');
    expect(form.html).toMatch(/<h1[^>]*>Nova conta<\/h1>/);

    const name = unique("Filial Sul");
    const res = await client.post("/accounts/create", {
      name,
      currency: "USD",
      street: "Rua das Flores",
      number: "120",
      complement: "Sala 3",
      district: "Centro",
      city: "Curitiba",
      province: "PR",
      postalCode: "80010-000",
    });
    expect(res.status, await res.clone().text()).toBe(302);
    expect(location(res)).toBe("/");

    const acc = await one<Record<string, unknown>>("SELECT id, currency, street, number, complement, district, city, province, postal_code, type FROM accounts WHERE name = $1", [
      name,
    ]);
    expect(acc).toMatchObject({
      currency: "USD",
      street: "Rua das Flores",
      number: "120",
      complement: "Sala 3",
      district: "Centro",
      city: "Curitiba",
      province: "PR",
      postal_code: "80010-000",
      type: "customer",
    });
    expect(await one("SELECT role FROM memberships WHERE account_id = $1 AND user_id = $2", [acc.id, userId])).toEqual({ role: "owner" });
    expect(await one("SELECT current_account_id FROM users WHERE id = $1", [userId])).toEqual({ current_account_id: acc.id });

    const home = await client.page("/");
    expect(home.html).toContain(`Resumo da conta ${esc(name)}`);
    expect(home.html).toContain(`Conta “${esc(name)}” criada`);

    const list = await client.page("/accounts");
    expect(plain(rowOf(list.html, acc.id as string))).toContain("Atual");
    expect(plain(rowOf(list.html, acc.id as string))).toContain("US$ 0,00");
    expect(rowOf(list.html, first)).toContain('action="/accounts/switch"');

    const back = await client.post("/accounts/switch", { accountId: first });
    expect(back.status).toBe(302);
    expect(location(back)).toBe("/");
    expect((await client.page("/")).html).toContain(`Resumo da conta ${esc(company)}`);
    expect(await one("SELECT current_account_id FROM users WHERE id = $1", [userId])).toEqual({ current_account_id: first });
  });

  it("refuses to switch to an account the person does not belong to (404)", async () => {
    const { client, userId, accountId } = await freshCustomer();
    const demo = await one<{ id: string }>("SELECT id FROM accounts WHERE name = 'Demo Comércio Ltda'");
    const res = await client.post("/accounts/switch", { accountId: demo.id });
    expect(res.status).toBe(404);
    expect((await client.post("/accounts/switch", { accountId: "not-a-uuid" })).status).toBe(404);
    expect(await one("SELECT current_account_id FROM users WHERE id = $1", [userId])).toEqual({ current_account_id: accountId });
    expect((await client.page("/")).html).not.toContain("Demo Comércio Ltda");
  });

  it("shows validation errors on the fields", async () => {
    const { client } = await freshCustomer();
    const res = await client.post("/accounts/create", { name: "", currency: "BRL", postalCode: "12" });
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(html).toMatch(/-name-error"[^>]*>(<p>)?Campo obrigatório/);
    expect(html).toMatch(/-postalCode-error"[^>]*>(<p>)?CEP inválido/);
    const unknown = await client.post("/accounts/create", { name: unique("Moeda"), currency: "XYZ" });
    expect(unknown.status).toBe(422);
    expect(await unknown.text()).toMatch(/-currency-error"[^>]*>(<p>)?Campo obrigatório/);
  });

  it("refuses the create and switch forms without the CSRF field, changing nothing", async () => {
    const { client, userId, accountId } = await freshCustomer();
    const name = unique("Sem csrf");
    const res = await client.post("/accounts/create", { name, currency: "BRL" }, { csrf: null });
    expect(res.status).toBe(403);
    expect(await query("SELECT 1 FROM accounts WHERE name = $1", [name])).toHaveLength(0);

    // A second account to switch to, then a forged switch.
    expect((await client.post("/accounts/create", { name, currency: "BRL" })).status).toBe(302);
    expect((await client.post("/accounts/switch", { accountId }, { csrf: null })).status).toBe(403);
    const created = await one<{ id: string }>("SELECT id FROM accounts WHERE name = $1", [name]);
    expect(await one("SELECT current_account_id FROM users WHERE id = $1", [userId])).toEqual({ current_account_id: created.id });
  });
});
