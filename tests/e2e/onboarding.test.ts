/**
 * A new account's first sent message without help (issue 19, ADR 050), in Chromium: it registers,
 * opens its development mailbox (/dev/mailbox, outside production) from the page after registering
 * — not signed in: the registrant cannot sign in before verifying —, verifies through the
 * verification e-mail's link there, and follows the home
 * page's checklist — the trial (with its credit), its own mobile on the profile, a test SMS to it
 * through the simulator provider until one is delivered — each step ticking itself.
 */
import { describe, expect, it } from "vitest";
import { simulatedOutcome } from "../../api/simulator/outcome";
import { hasChromium, newPage, requireChromiumInCi, screenshotPath, signIn, useBrowser } from "../support/browser";
import { query, uniqueEmail } from "../support/db";

requireChromiumInCi();

describe.skipIf(!hasChromium)("onboarding in Chromium", () => {
  const browser = useBrowser();

  it("registers, verifies via /dev/mailbox, starts the trial and sends a delivered test SMS, the steps ticking", { timeout: 120_000 }, async () => {
    const page = await newPage(browser());
    const email = uniqueEmail("onboard-e2e");
    const password = "Primeiro!Passo#2026";
    try {
      await page.goto("/register");
      await page.getByLabel("Nome", { exact: true }).fill("Olga");
      await page.getByLabel("Sobrenome").fill("Inicial");
      await page.getByLabel("Empresa").fill(`Padaria ${email.split("@")[0]}`);
      await page.getByLabel("E-mail").fill(email);
      await page.getByLabel("Senha", { exact: true }).fill(password);
      await page.getByLabel("Confirme a senha").fill(password);
      await page.getByLabel(/Li e aceito/).check();
      await page.getByRole("button", { name: "Criar conta" }).click();
      await page.waitForURL("**/success");

      // Outside production the page after registering leads to the registrant's own mailbox, not signed in (the outbox, ADR 050).
      await page.getByTestId("dev-mail").getByRole("link", { name: "Abrir a caixa de saída de desenvolvimento" }).click();
      await page.waitForURL((u) => u.pathname === "/dev/mailbox");
      const mailbox = page.getByTestId("mailbox");
      await expect.poll(() => mailbox.locator("[data-mail-id]").count()).toBe(1);
      await mailbox.getByText(email).waitFor();
      await mailbox.getByRole("link", { name: "Confirme seu e-mail" }).click();
      await page.waitForURL(/\/dev\/mailbox\/[0-9a-f-]{36}$/);
      // The verification link opens in a new tab (the e-mail's links leave the mailbox).
      const [verified] = await Promise.all([
        page.context().waitForEvent("page"),
        page.getByTestId("mail-links").getByRole("link").filter({ hasText: "/email-verify/" }).first().click(),
      ]);
      await verified.getByText("E-mail verificado").waitFor();
      await verified.close();

      await signIn(page, { email, password });
      const step = (key: string) => page.locator(`[data-testid="onboarding"] [data-step="${key}"]`);
      await expect.poll(() => step("email").getAttribute("data-done")).toBe("true");
      expect(await step("plan").getAttribute("data-done")).toBe("false");
      expect(await step("testSms").getAttribute("data-done")).toBe("false");

      // The trial: the plan and the balance (its credit) tick.
      await page.getByRole("button", { name: "Começar o teste grátis" }).click();
      await expect.poll(() => step("plan").getAttribute("data-done"), { timeout: 10_000 }).toBe("true");
      expect(await step("balance").getAttribute("data-done")).toBe("true");
      await expect.poll(async () => (await page.getByTestId("home-balance").textContent())?.replace(/\u00a0/g, " ")).toBe("R$ 2,00");

      // The person's own mobile on the profile: the test SMS goes there.
      const own = `9${String(10_000_000 + Math.floor(Math.random() * 89_999_999))}`;
      await page.goto("/user/settings");
      await page.getByLabel("Celular").fill(`+55 11 ${own}`);
      await page.getByLabel("Celular").press("Enter");
      await page.getByText("Perfil atualizado").first().waitFor();

      // The test SMS from the step's link (the number filled in), followed through the simulator until one is delivered (its outcome is decided per message id).
      let delivered = false;
      for (let attempt = 0; attempt < 4 && !delivered; attempt++) {
        await page.goto("/");
        await step("testSms").getByRole("link").click();
        await page.waitForURL((u) => u.pathname === "/sms/send");
        await expect.poll(() => page.getByLabel("Número do celular").inputValue()).toBe(`5511${own}`);
        await page.getByLabel("Mensagem").fill("Meu primeiro SMS de teste");
        await page.getByRole("button", { name: "Enviar", exact: true }).click();
        await page.waitForURL(/\/sms\/send\/success\?message=[0-9a-f-]{36}$/);
        const id = new URL(page.url()).searchParams.get("message")!;
        const expected = simulatedOutcome(id);
        await expect
          .poll(async () => (await query<{ status: string }>("SELECT status FROM messages WHERE id = $1", [id]))[0]?.status, { timeout: 30_000, interval: 200 })
          .toBe(expected);
        delivered = expected === "delivered";
      }
      expect(delivered).toBe(true);
      await page.goto("/");
      await expect.poll(() => step("testSms").getAttribute("data-done")).toBe("true");
      await page.screenshot({ path: screenshotPath("onboarding-home"), fullPage: true });
    } catch (e) {
      await page.screenshot({ path: screenshotPath("onboarding-failure") });
      throw e;
    }
  });
});
