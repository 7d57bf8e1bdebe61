/** Browser checks: the guard as a person meets it, forms without JavaScript, the shell in two languages. */
import { describe, expect, it } from "vitest";
import { lastMailTo, linkIn, query, uniqueEmail } from "../support/db";
import { hasChromium, newPage, screenshotPath, requireChromiumInCi, useBrowser } from "../support/browser";
import { DEMO_PASSWORD } from "../support/web";
import { registerPerson } from "../support/api";
import { statSync } from "node:fs";

requireChromiumInCi();

describe.skipIf(!hasChromium)("in Chromium", () => {
  const browser = useBrowser();

  it("a guest opening a protected page lands on the login page, and returns there after signing in", async () => {
    const page = await newPage(browser());
    await page.goto("/users");
    expect(new URL(page.url()).pathname).toBe("/login");
    await page.getByLabel("E-mail").fill("owner@demo.example");
    await page.getByLabel("Senha").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Entrar", exact: true }).click();
    await page.waitForURL("**/users");
    await page.context().close();
  });

  it("a role without permission is bounced to the Forbidden screen", async () => {
    const page = await newPage(browser());
    await page.goto("/login");
    await page.getByLabel("E-mail").fill("agent@demo.example");
    await page.getByLabel("Senha").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Entrar", exact: true }).click();
    await page.waitForURL((u) => u.pathname === "/");
    await page.goto("/users");
    expect(new URL(page.url()).pathname).toBe("/403");
    await page.getByTestId("forbidden").waitFor();
    // the sidebar offers only what the role may open
    const nav = page.getByRole("navigation", { name: "Navegação principal" }).first();
    expect(await nav.getByRole("link", { name: "Usuários" }).count()).toBe(0);
    await page.context().close();
  });

  it("register and log in work with JavaScript disabled", async () => {
    const page = await newPage(browser(), { javaScriptEnabled: false });
    const email = uniqueEmail("nojs");
    const password = "Sem!Script#2026q";
    await page.goto("/register");
    await page.getByLabel("Nome", { exact: true }).fill("Bruno");
    await page.getByLabel("Sobrenome").fill("Lima");
    await page.getByLabel("Empresa").fill("Oficina Sem JS");
    await page.getByLabel("E-mail").fill(email);
    await page.getByLabel("Senha", { exact: true }).fill("curta");
    await page.getByLabel("Confirme a senha").fill("curta");
    await page.getByLabel(/Li e aceito/).check();
    await page.getByRole("button", { name: "Criar conta" }).click();
    // server-side validation answers with the translated rule
    await page.getByText("Tamanho mínimo 13").first().waitFor();
    await page.getByLabel("Senha", { exact: true }).fill(password);
    await page.getByLabel("Confirme a senha").fill(password);
    await page.getByLabel(/Li e aceito/).check();
    await page.getByRole("button", { name: "Criar conta" }).click();
    await page.waitForURL("**/success");

    await page.goto(linkIn(await lastMailTo(email), "/email-verify/"));
    await page.getByText("E-mail verificado").waitFor();

    await page.goto("/login");
    await page.getByLabel("E-mail").fill(email);
    await page.getByLabel("Senha").fill(password);
    await page.getByRole("button", { name: "Entrar", exact: true }).click();
    await page.waitForURL((u) => u.pathname === "/");
    await page.getByText("Resumo da conta Oficina Sem JS").waitFor();
    const [{ n }] = await query<{ n: number }>("SELECT count(*)::int AS n FROM audit_logs a JOIN users u ON u.id = a.user_id WHERE u.email = $1 AND a.action = 'auth.login'", [
      email,
    ]);
    expect(n).toBe(1);
    await page.context().close();
  });

  it("a wrong password with JavaScript disabled shows the translated error", async () => {
    const page = await newPage(browser(), { javaScriptEnabled: false });
    await page.goto("/login");
    await page.getByLabel("E-mail").fill("manager@demo.example");
    await page.getByLabel("Senha").fill("Errada!Mesmo#99");
    await page.getByRole("button", { name: "Entrar", exact: true }).click();
    await page.getByText("E-mail ou senha inválidos").waitFor();
    await page.context().close();
  });

  for (const lng of ["pt-BR", "zh"] as const) {
    it(`screenshot of the shell in ${lng}`, async () => {
      // a person of our own, so switching their language touches nobody else's tests
      const person = await registerPerson(`shot-${lng}`);
      const page = await newPage(browser(), { locale: lng });
      await page.goto("/login");
      await page.locator('input[type="email"]').fill(person.email);
      await page.locator('input[type="password"]').fill(person.password);
      await page.locator('button[type="submit"]').first().click();
      await page.waitForURL((u) => u.pathname === "/");
      await page.getByTestId("user-menu").waitFor();
      if (lng === "zh") {
        await page.getByTestId("user-menu").locator("summary").click();
        await page.locator("#shell-locale").selectOption("zh");
        await page.waitForFunction(() => document.documentElement.lang === "zh");
        await page.getByRole("heading", { name: "首页" }).waitFor();
        const [{ locale }] = await query<{ locale: string }>("SELECT locale FROM users WHERE email = $1", [person.email]);
        expect(locale).toBe("zh");
        await page.reload();
        expect(await page.locator("html").getAttribute("lang")).toBe("zh");
      } else {
        await page.getByRole("heading", { name: "Início" }).waitFor();
      }
      const file = screenshotPath(`shell-${lng}`);
      await page.screenshot({ path: file, fullPage: true });
      expect(statSync(file).size).toBeGreaterThan(10_000);
      await page.context().close();
    });
  }
});
