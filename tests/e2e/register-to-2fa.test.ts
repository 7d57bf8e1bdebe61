/** The whole path a new customer walks, in Chromium with JavaScript on: register, verify, sign in, turn on 2FA, sign in with TOTP. */
import * as OTPAuth from "otpauth";
import { describe, expect, it } from "vitest";
import { hasChromium, newPage, screenshotPath, requireChromiumInCi, useBrowser } from "../support/browser";
import { lastMailTo, linkIn, query, uniqueEmail } from "../support/db";

requireChromiumInCi();

/** A code from a time step no earlier code used (the server refuses a replayed step). */
async function freshCode(totp: OTPAuth.TOTP, after?: string) {
  let code = totp.generate();
  while (code === after) {
    await new Promise((r) => setTimeout(r, 1000));
    code = totp.generate();
  }
  return code;
}

describe.skipIf(!hasChromium)("register -> verify e-mail -> log in -> enable 2FA -> log in with TOTP", () => {
  const browser = useBrowser();

  it("works end to end", async () => {
    const page = await newPage(browser());
    const email = uniqueEmail("journey");
    const password = "Jornada!Nova#2026k";

    await page.goto("/register");
    await page.getByLabel("Nome", { exact: true }).fill("Carla");
    await page.getByLabel("Sobrenome").fill("Mendes");
    await page.getByLabel("Empresa").fill("Floricultura Jornada");
    await page.getByLabel("E-mail").fill(email);
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
    await page.getByText("Resumo da conta Floricultura Jornada").waitFor();

    await page.goto("/user/settings#two-factor");
    await page.getByRole("button", { name: "Ativar verificação em duas etapas" }).click();
    const secretEl = page.getByTestId("totp-secret");
    await secretEl.waitFor();
    await page.getByRole("img", { name: "QR code para configurar o aplicativo autenticador" }).waitFor();
    const secret = (await secretEl.getAttribute("data-secret"))!;
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 });
    const enrolCode = await freshCode(totp);
    await page.getByLabel("3. Digite o código de 6 dígitos exibido no aplicativo").fill(enrolCode);
    await page.getByRole("button", { name: "Confirmar e ativar" }).click();
    await page.getByText("Verificação em duas etapas ativada").first().waitFor();
    const [{ on }] = await query<{ on: boolean }>("SELECT totp_enabled_at IS NOT NULL AS on FROM users WHERE email = $1", [email]);
    expect(on).toBe(true);

    // sign out, sign in again: the password alone leads to the code step
    await page.getByTestId("user-menu").locator("summary").click();
    await page.getByRole("button", { name: "Sair" }).click();
    await page.waitForURL("**/login");
    // the flash toast fades in, then hides itself after 4 s
    const toast = page.getByText("Você saiu da sua conta.");
    await toast.waitFor();
    const shownAt = Date.now();
    await toast.waitFor({ state: "detached", timeout: 8000 });
    expect(Date.now() - shownAt).toBeGreaterThan(3000);
    await page.getByLabel("E-mail").fill(email);
    await page.getByLabel("Senha").fill(password);
    await page.getByRole("button", { name: "Entrar", exact: true }).click();
    await page.waitForURL("**/2fa");
    await page.goto("/users");
    expect(new URL(page.url()).pathname).toBe("/2fa");

    await page.getByLabel("Código").fill("000000" === totp.generate() ? "111111" : "000000");
    await page.getByRole("button", { name: "Verificar" }).click();
    await page.getByText("Código inválido ou já usado").waitFor();

    await page.getByLabel("Código").fill(await freshCode(totp, enrolCode));
    await page.getByRole("button", { name: "Verificar" }).click();
    await page.waitForURL((u) => u.pathname === "/");
    await page.getByText("Resumo da conta Floricultura Jornada").waitFor();
    await page.screenshot({ path: screenshotPath("signed-in-with-2fa"), fullPage: true });
    await page.context().close();
  }, 90_000);
});
