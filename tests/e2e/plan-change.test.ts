/**
 * Plans in Chromium (issue 18, ADR 045), with and without JavaScript: /billing through the sidebar
 * shows the balance and no plan; /billing/upgrade compares the live chat plans feature by feature;
 * "Escolher" opens the plan's page with what changing costs now; the change debits it and /billing
 * says so, lists the plan with its renewal date and the 30 days' plan fee; /plans marks it current;
 * a second change to the same plan is no longer offered; a change the balance cannot pay is
 * refused with the translated message and changes nothing.
 */
import { describe, expect, it } from "vitest";
import { registerPerson } from "../support/api";
import { hasChromium, newPage, requireChromiumInCi, screenshotPath, signIn, useBrowser, openNavGroup } from "../support/browser";
import { query } from "../support/db";
import { balanceOf, setAccount } from "../support/factories";

requireChromiumInCi();

const text = (s: string) => s.replace(/\u00a0/g, " ").trim();

describe.skipIf(!hasChromium)("plans in Chromium", () => {
  const browser = useBrowser();

  for (const javaScriptEnabled of [false, true]) {
    it(`compares plans, changes to one paying it from the balance, and sees it on /billing (${javaScriptEnabled ? "with" : "without"} JavaScript)`, async () => {
      const person = await registerPerson(`plans-e2e-${javaScriptEnabled ? "js" : "nojs"}`);
      await setAccount(person.accountId, { balance: 50_000 });
      const page = await newPage(browser(), { javaScriptEnabled });
      await signIn(page, person);

      await openNavGroup(page, "account");
      await page.getByRole("link", { name: "Faturamento", exact: true }).first().click();
      await page.waitForURL((u) => u.pathname === "/billing");
      await expect.poll(async () => text(await page.getByTestId("billing-balance").innerText())).toBe("R$ 500,00");
      await page.getByText("Nenhum plano ainda.").waitFor();

      await page.getByRole("link", { name: "Comparar planos" }).first().click();
      await page.waitForURL((u) => u.pathname === "/billing/upgrade");
      // The live chat plans side by side: the smaller one has departments but no supervisor view.
      await page.getByLabel("Serviço").selectOption("omni");
      await page.getByRole("button", { name: "Mostrar" }).click();
      await page.waitForURL((u) => u.searchParams.get("service") === "omni");
      const compare = page.getByTestId("compare");
      await compare.waitFor();
      const headers = await compare.locator("thead th[data-plan]").evaluateAll((ths) => ths.map((th) => th.getAttribute("data-plan")));
      expect(headers).toEqual(["Omni Essencial", "Omni"]);
      expect(await compare.locator('tr[data-feature="spie"] td').allInnerTexts()).toEqual(["Não", "Sim"]);
      expect(await compare.locator('tr[data-feature="department"] td').allInnerTexts()).toEqual(["Sim", "Sim"]);
      await page.screenshot({ path: screenshotPath(`plans-compare-${javaScriptEnabled ? "js" : "nojs"}`), fullPage: true });

      await compare.locator('[data-choose="Omni Essencial"]').click();
      await page.waitForURL((u) => u.pathname.startsWith("/billing/plans/"));
      await expect.poll(async () => text(await page.getByTestId("plan-quote").innerText())).toContain("Mudar agora custa R$ 149,00.");
      await page.getByRole("button", { name: "Mudar para este plano" }).click();
      await page.waitForURL((u) => u.pathname === "/billing");
      await expect.poll(async () => text(await page.getByTestId("plan-changed").innerText())).toContain("Plano alterado para Omni Essencial.");
      expect(text(await page.getByTestId("plan-changed").innerText())).toContain("R$ 149,00 foi debitado do saldo.");
      expect(text(await page.getByTestId("billing-balance").innerText())).toBe("R$ 351,00");
      expect(await balanceOf(person.accountId)).toBe(50_000 - 14_900);
      const held = page.getByTestId("current-plans").locator('[data-plan="Omni Essencial"]');
      expect(text(await held.innerText())).toMatch(/R\$ 149,00 por mês · Renova em \d{2}\/\d{2}\/\d{2}/);
      expect(text(await page.getByTestId("last-30").locator('[data-kind="plan_fee"]').innerText())).toMatch(/Mensalidades de plano\s+-R\$ 149,00/);
      await page.screenshot({ path: screenshotPath(`billing-${javaScriptEnabled ? "js" : "nojs"}`), fullPage: true });

      // The catalogue marks it current; its page no longer offers the change.
      await page.getByRole("link", { name: "Planos", exact: true }).first().click();
      await page.waitForURL((u) => u.pathname === "/plans");
      const card = page.locator('[data-plan="Omni Essencial"]');
      await card.getByText("Plano atual").waitFor();
      await card.getByRole("link", { name: "Ver plano" }).click();
      await page.waitForURL((u) => u.pathname.startsWith("/billing/plans/"));
      await page.getByTestId("plan-current").waitFor();
      expect(await page.getByRole("button", { name: "Mudar para este plano" }).count()).toBe(0);

      // The upgrade with too little money: refused with the message, nothing changed.
      await setAccount(person.accountId, { balance: 0 });
      const omni = (await query<{ id: string }>(`SELECT id FROM plans WHERE name = 'Omni'`))[0].id;
      await page.goto(`/billing/plans/${omni}`);
      await page.getByRole("button", { name: "Mudar para este plano" }).click();
      await page.getByRole("alert").filter({ hasText: "O saldo e o limite de crédito não cobrem esta mudança" }).waitFor();
      const [{ name }] = await query<{ name: string }>(`SELECT p.name FROM account_plans ap JOIN plans p ON p.id = ap.plan_id WHERE ap.account_id = $1 AND ap.service = 'omni'`, [
        person.accountId,
      ]);
      expect(name).toBe("Omni Essencial");
      await page.context().close();
    }, 120_000);
  }
});
