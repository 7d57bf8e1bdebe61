/**
 * Products per customer in Chromium (issue 18, ADR 048): the platform's staff hire an SMS credits
 * product for a customer from its page without JavaScript (the form posts, the page comes back with
 * the product in its products tab and the price debited), change its price and cancel it; the customer, after a send the product
 * covered, sees on /customer/products its credits left of the total, the price in reais and the
 * renewal date.
 */
import { describe, expect, it } from "vitest";
import { api, giveShortCode, login, registerPerson } from "../support/api";
import { hasChromium, newPage, requireChromiumInCi, screenshotPath, signIn, useBrowser } from "../support/browser";
import { balanceOf, setAccount } from "../support/factories";
import { DEMO_PASSWORD } from "../support/web";

requireChromiumInCi();

const text = (s: string) => s.replace(/\u00a0/g, " ").trim();

describe.skipIf(!hasChromium)("products per customer in Chromium", () => {
  const browser = useBrowser();

  it("staff hire a product for a customer without JavaScript: listed in the customer's products, its price debited", async () => {
    const customer = await registerPerson("produto-nojs");
    await setAccount(customer.accountId, { balance: 10_000 });
    const page = await newPage(browser(), { javaScriptEnabled: false });
    await signIn(page, { email: "staff@demo.example", password: DEMO_PASSWORD });
    await page.goto(`/admin/customers/${customer.accountId}`);
    await page.getByRole("link", { name: "Contratar produto" }).click();
    await page.waitForURL((u) => u.pathname === `/admin/customers/${customer.accountId}/products/create`);
    // A credits product without credits is refused on the field; nothing is debited.
    await page.getByLabel("Nome", { exact: true }).fill("Pacote 3 SMS");
    await page.getByLabel("Preço", { exact: true }).fill("19,90");
    await page.getByRole("button", { name: "Contratar", exact: true }).click();
    await page.getByText("Informe os créditos de um produto de créditos").waitFor();
    expect(await balanceOf(customer.accountId)).toBe(10_000);

    await page.getByLabel("Créditos por período").fill("3");
    await page.getByRole("button", { name: "Contratar", exact: true }).click();
    await page.waitForURL((u) => u.pathname === `/admin/customers/${customer.accountId}`);
    const row = page.locator('[data-tab="products"] tr[data-product]').first();
    await expect.poll(async () => text(await row.locator('[data-col="credits"]').innerText())).toBe("3 de 3");
    expect(text(await row.locator('[data-col="price"]').innerText())).toBe("R$ 19,90");
    expect(await balanceOf(customer.accountId)).toBe(10_000 - 1_990);
    await page.screenshot({ path: screenshotPath("customer-products-admin-nojs"), fullPage: true });

    // Its page: the price changed for the next renewals (nothing charged now), then cancelled.
    await row.getByRole("link", { name: "Abrir" }).click();
    await page.waitForURL((u) => /\/products\/[0-9a-f-]{36}$/.test(u.pathname));
    await page.getByLabel("Preço", { exact: true }).fill("29,90");
    await page.getByRole("button", { name: "Salvar", exact: true }).click();
    const one = page.locator("tr[data-product]");
    await expect.poll(async () => text(await one.locator('[data-col="price"]').innerText())).toBe("R$ 29,90");
    await page.getByRole("button", { name: "Cancelar produto" }).click();
    await expect.poll(() => one.getAttribute("data-status")).toBe("cancelled");
    expect(await balanceOf(customer.accountId)).toBe(10_000 - 1_990);
  });

  it("the customer sees its product with the credits left after a send, the price and the renewal", async () => {
    const customer = await registerPerson("produto-cliente");
    await setAccount(customer.accountId, { balance: 10_000 });
    const staff = (await login("staff@demo.example", DEMO_PASSWORD)).token;
    const hired = await api(`/api/customers/${customer.accountId}/products`, {
      token: staff,
      method: "POST",
      body: { channel: "sms", name: "Pacote SMS", billing_cycle: "monthly", currency: "BRL", kind: "credits", credits: 3, price: 1_990 },
    });
    expect(hired.status).toBe(201);
    const from = await giveShortCode(customer.accountId);
    const token = (await login(customer.email, customer.password)).token;
    const sent = await api("/api/sms/messages", { token, body: { to: "+5511987650001", body: "Seu código: 1234", from } });
    expect(sent.body.total_price).toBe(0);

    const page = await newPage(browser(), { javaScriptEnabled: true });
    await signIn(page, customer);
    await page.goto("/customer/products");
    const row = page.locator(`tr[data-product="${hired.body.data.id}"]`);
    await expect.poll(async () => text(await row.locator('[data-col="credits"]').innerText())).toBe("2 de 3");
    expect(text(await row.locator('[data-col="price"]').innerText())).toBe("R$ 19,90");
    // The renewal date in São Paulo (dd/mm/yy): the period's end.
    const end = new Date(hired.body.data.period_end);
    const sp = new Intl.DateTimeFormat("pt-BR", { timeZone: "America/Sao_Paulo", day: "2-digit", month: "2-digit", year: "2-digit" }).format(end);
    expect(text(await row.locator('[data-col="renews"]').innerText())).toBe(sp);
    await page.screenshot({ path: screenshotPath("customer-products-js"), fullPage: true });
    // /billing shows it among the account's plans and products, credits left included.
    await page.goto("/billing");
    const onBilling = page.getByTestId("billing-products").locator(`tr[data-product="${hired.body.data.id}"]`);
    await expect.poll(async () => text(await onBilling.locator('[data-col="credits"]').innerText())).toBe("2 de 3");
  });
});
