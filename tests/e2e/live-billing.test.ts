/**
 * What agents and numbers cost, in Chromium (issue 18, ADR 047), with and without JavaScript: the
 * demo owner opens /live/billing from the sidebar and sees the price per agent seat, the month's total and the
 * account's agents (themselves among them); the demo admin opens /numbers/active (the sidebar) and sees the
 * demo short codes with their monthly price and the monthly total; the owner is refused
 * /numbers/active (spec: "/numbers/active admin").
 */
import { describe, expect, it } from "vitest";
import { hasChromium, newPage, requireChromiumInCi, screenshotPath, signIn, useBrowser, openNavGroup } from "../support/browser";
import { query } from "../support/db";

requireChromiumInCi();

const PASSWORD = "Demo!Mensa#2026";
const text = (s: string) =>
  s
    .replace(/\u00a0/g, " ")
    .replace(/\s+/g, " ")
    .trim();
const brl = (minor: number) => text(new Intl.NumberFormat("pt-BR", { style: "currency", currency: "BRL" }).format(minor / 100));

describe.skipIf(!hasChromium)("agent and number costs in Chromium", () => {
  const browser = useBrowser();

  for (const javaScriptEnabled of [false, true]) {
    const mode = javaScriptEnabled ? "js" : "nojs";
    it(`the owner reads /live/billing, the admin /numbers/active (${javaScriptEnabled ? "with" : "without"} JavaScript)`, async () => {
      const [{ account_id: demo }] = await query<{ account_id: string }>(
        `SELECT m.account_id FROM memberships m JOIN users u ON u.id = m.user_id WHERE u.email = 'owner@demo.example'`,
      );
      const agents = await query<{ email: string }>(`SELECT u.email FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.account_id = $1 AND m.is_agent`, [demo]);

      const owner = await newPage(browser(), { javaScriptEnabled });
      await signIn(owner, { email: "owner@demo.example", password: PASSWORD });
      await openNavGroup(owner, "live");
      await owner.getByRole("link", { name: "Cobrança de agentes", exact: true }).first().click();
      await owner.waitForURL((u) => u.pathname === "/live/billing");
      await owner.getByRole("heading", { name: "Cobrança de agentes", level: 1 }).waitFor();
      expect(text(await owner.locator('[data-figure="price"]').innerText())).toContain("R$ 49,90");
      expect(text(await owner.locator('[data-figure="count"]').innerText())).toContain(String(agents.length));
      expect(text(await owner.locator('[data-figure="total"]').innerText())).toContain(brl(4990 * agents.length));
      const table = owner.locator("[data-seat-agents]");
      for (const a of agents) await table.getByText(a.email, { exact: true }).waitFor();
      expect(text(await table.innerText())).toContain("Proprietário");
      await owner.screenshot({ path: screenshotPath(`live-billing-${mode}`), fullPage: true });

      // Not the owner's screen: /numbers/active is the admin's.
      await owner.goto("/numbers/active");
      await owner.waitForURL((u) => u.pathname === "/403");

      const admin = await newPage(browser(), { javaScriptEnabled });
      await signIn(admin, { email: "admin@demo.example", password: PASSWORD });
      await openNavGroup(admin, "account");
      await admin.getByRole("link", { name: "Números ativos", exact: true }).first().click();
      await admin.waitForURL((u) => u.pathname === "/numbers/active");
      await admin.getByRole("heading", { name: "Números ativos", level: 1 }).waitFor();
      const codes = admin.locator("[data-short-codes]");
      for (const n of ["29094", "28282"]) {
        const row = codes.locator("tr", { hasText: n });
        expect(text(await row.innerText())).toContain("R$ 990,00");
        expect(text(await row.innerText())).toContain("Ativo");
      }
      const [{ total }] = await query<{ total: number }>(
        `SELECT ((SELECT coalesce(sum(monthly_price), 0) FROM short_codes WHERE account_id = $1 AND status = 'active')
               + (SELECT coalesce(sum(monthly_price), 0) FROM whatsapp_numbers WHERE account_id = $1))::int AS total`,
        [demo],
      );
      expect(text(await admin.locator('[data-figure="total"]').innerText())).toContain(brl(total));
      await admin.screenshot({ path: screenshotPath(`numbers-active-${mode}`), fullPage: true });
    });
  }
});
