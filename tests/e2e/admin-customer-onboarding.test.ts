/**
 * Onboarding a customer in Chromium (issue 23, ADR 063): the platform's staff, without JavaScript,
 * create a customer from /admin/customers/create (a missing name is told on the field first),
 * attach its owner by e-mail (a new person: invited), hire it an SMS product and assign it a short
 * code. The owner accepts the invitation from the e-mail's link, is signed in to the new customer,
 * and sees the product on /customer/products and the short code on /sms/short-codes.
 */
import { describe, expect, it } from "vitest";
import { hasChromium, newPage, requireChromiumInCi, screenshotPath, signIn, useBrowser } from "../support/browser";
import { lastMailTo, linkIn, query, uniqueEmail } from "../support/db";
import { setAccount } from "../support/factories";
import { DEMO_PASSWORD, STRONG_PASSWORD } from "../support/web";

requireChromiumInCi();

describe.skipIf(!hasChromium)("onboarding a customer in Chromium", () => {
  const browser = useBrowser();

  it("staff create a customer, attach its owner, add a product and a short code; the owner signs in and sees both", async () => {
    const page = await newPage(browser(), { javaScriptEnabled: false });
    await signIn(page, { email: "staff@demo.example", password: DEMO_PASSWORD });
    await page.goto("/admin/customers");
    await page.getByRole("link", { name: "Novo cliente" }).click();
    await page.waitForURL((u) => u.pathname === "/admin/customers/create");

    // Without a name the form says so on the field; nothing is created.
    const name = `Sorveteria Polar ${Date.now()}`;
    await page.getByLabel("Razão social").fill("Sorveteria Polar Ltda");
    await page.getByRole("button", { name: "Criar cliente" }).click();
    await page.getByText("Campo obrigatório").waitFor();
    expect(await query(`SELECT id FROM accounts WHERE corporate_name = 'Sorveteria Polar Ltda' AND name LIKE 'Sorveteria Polar %'`)).toEqual([]);

    await page.getByLabel("Nome da empresa").fill(name);
    await page.getByLabel("E-mail de cobrança").fill("contas@polar.example");
    await page.getByRole("button", { name: "Criar cliente" }).click();
    await page.waitForURL((u) => /^\/admin\/customers\/[0-9a-f-]{36}$/.test(u.pathname));
    const customerId = new URL(page.url()).pathname.split("/").pop()!;
    expect(await page.getByTestId("customer-corporate-name").textContent()).toBe("Sorveteria Polar Ltda");
    await setAccount(customerId, { balance: 10_000 });

    // Its owner: a new person, so an invitation.
    const ownerEmail = uniqueEmail("dono-polar");
    await page.getByLabel("E-mail", { exact: true }).fill(ownerEmail);
    await page.getByLabel("Perfil").selectOption("owner");
    await page.getByRole("button", { name: "Vincular" }).click();
    await page.waitForURL((u) => u.pathname === `/admin/customers/${customerId}`);
    await page.locator(`[data-invited="${ownerEmail}"]`).waitFor();

    // An SMS product.
    await page.getByRole("link", { name: "Contratar produto" }).click();
    await page.waitForURL((u) => u.pathname === `/admin/customers/${customerId}/products/create`);
    await page.getByLabel("Nome", { exact: true }).fill("Pacote Polar");
    await page.getByLabel("Créditos por período").fill("500");
    await page.getByLabel("Preço", { exact: true }).fill("19,90");
    await page.getByRole("button", { name: "Contratar", exact: true }).click();
    await page.waitForURL((u) => u.pathname === `/admin/customers/${customerId}`);
    await expect.poll(() => page.locator('[data-tab="products"] tr[data-product]').count()).toBe(1);

    // A short code, from the short codes tab.
    await page.getByRole("navigation", { name: "Seções do cliente" }).getByRole("link", { name: "Short codes", exact: true }).click();
    await page.waitForURL((u) => u.searchParams.get("tab") === "shortcodes");
    await page.getByRole("link", { name: "Atribuir short code" }).click();
    await page.waitForURL((u) => u.pathname === `/admin/customers/${customerId}/short-codes/create`);
    const number = String(10_000_000 + Math.floor(Math.random() * 89_999_999));
    await page.getByLabel("Número", { exact: true }).fill(number);
    await page.getByLabel("Apelido").fill("Polar Promo");
    await page.getByRole("button", { name: "Atribuir", exact: true }).click();
    await page.waitForURL((u) => u.pathname === `/admin/customers/${customerId}` && u.searchParams.get("tab") === "shortcodes");
    await page.locator(`tr[data-short-code="${number}"]`).waitFor();
    await page.screenshot({ path: screenshotPath("admin-customer-onboarding-staff"), fullPage: true });

    // The owner accepts the invitation (with JavaScript) and lands in the new customer.
    const link = linkIn(await lastMailTo(ownerEmail), "/invitation/");
    const owner = await newPage(browser(), { javaScriptEnabled: true });
    await owner.goto(link);
    await owner.getByLabel("Nome", { exact: true }).fill("Paula");
    await owner.getByLabel("Sobrenome").fill("Polar");
    await owner.getByLabel("Senha", { exact: true }).fill(STRONG_PASSWORD);
    await owner.getByLabel("Confirme a senha").fill(STRONG_PASSWORD);
    await owner.getByRole("button", { name: "Aceitar convite" }).click();
    await owner.waitForURL((u) => !u.pathname.startsWith("/invitation"));
    const [membership] = await query<{ role: string }>(`SELECT m.role FROM memberships m JOIN users u ON u.id = m.user_id WHERE u.email = $1 AND m.account_id = $2`, [
      ownerEmail,
      customerId,
    ]);
    expect(membership.role).toBe("owner");

    await owner.goto("/customer/products");
    const product = owner.locator("tr[data-product]").filter({ hasText: "Pacote Polar" });
    await expect.poll(() => product.count()).toBe(1);
    await owner.goto("/sms/short-codes");
    await expect.poll(() => owner.locator(`tr[data-short-code="${number}"]`).count()).toBe(1);
    expect(await owner.locator(`tr[data-short-code="${number}"]`).textContent()).toContain("Polar Promo");
    await owner.screenshot({ path: screenshotPath("admin-customer-onboarding-owner"), fullPage: true });
  });
});
