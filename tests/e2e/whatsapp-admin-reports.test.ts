/**
 * WhatsApp reports in Chromium without JavaScript (issue 16):
 * - platform staff reach /admin/whatsapp/reports/stat, /insights and /history through the sidebar,
 *   type a fresh account's name in the account field and see exactly the figures of the WhatsApp
 *   messages seeded for it today (per day, per category, per account; the insights' cards; the
 *   history's rows with their account, and a message's panel with its failure);
 * - an account owner's /whatsapp/jv/reports counts only the older integration's (On-Premises)
 *   messages, while /whatsapp/reports counts every number's.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { registerPerson } from "../support/api";
import { hasChromium, newPage, requireChromiumInCi, screenshotPath, signIn, useBrowser, openNavGroup } from "../support/browser";
import { makeMessage, makeMessageEvents, type MessageStatus } from "../support/factories";
import { DEMO_PASSWORD } from "../support/web";

requireChromiumInCi();

const spToday = () => new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo", year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date());

type Seed = { status: MessageStatus; price: number; category?: string; inbound?: boolean; provider?: string; error?: string };

/** Today's messages of an account, a minute apart, all on São Paulo's today (just after midnight they move past it); answers their ids in order. */
async function seedToday(accountId: string, seeds: Seed[]): Promise<string[]> {
  const today = spToday();
  const now = Date.now() + Math.max(0, Date.parse(`${today}T00:00:01-03:00`) - (Date.now() - (seeds.length + 1) * 60_000));
  const ids: string[] = [];
  for (const [i, s] of seeds.entries()) {
    const createdAt = new Date(now - (seeds.length - i) * 60_000).toISOString();
    const id = await makeMessage(accountId, {
      channel: "whatsapp",
      direction: s.inbound ? "inbound" : "outbound",
      sender: s.inbound ? "+5511970003333" : "109876543210987",
      recipient: s.inbound ? "109876543210987" : "+5511970003333",
      body: `Relatório ${i}`,
      status: s.status,
      price: s.price,
      currency: "BRL",
      provider: s.provider ?? "whatsapp_cloud",
      createdAt,
      sentAt: s.inbound || s.status === "queued" ? null : createdAt,
    });
    if (s.category) {
      await makeMessageEvents(accountId, id, [
        { status: "queued", payload: { price: s.price, currency: "BRL", category: s.category }, createdAt },
        ...(s.error ? [{ status: "failed", source: "provider" as const, payload: { error_code: s.error, error_message: "Message undeliverable" }, createdAt }] : []),
      ]);
    }
    ids.push(id);
  }
  return ids;
}

const text = async (page: Page, selector: string) => (await page.locator(selector).first().innerText()).replace(/\u00a0/g, " ").trim();

describe.skipIf(!hasChromium)("WhatsApp reports in Chromium without JavaScript", () => {
  const browser = useBrowser();

  it("platform staff see one account's exact figures on /admin/whatsapp/reports/stat, /insights and /history", async () => {
    const person = await registerPerson("wa-admin-e2e");
    const other = await registerPerson("wa-admin-e2e-other");
    const ids = await seedToday(person.accountId, [
      { status: "read", price: 40, category: "utility" },
      { status: "delivered", price: 80, category: "marketing" },
      { status: "failed", price: 40, category: "utility", error: "131026" },
      { status: "received", price: 0, inbound: true },
    ]);
    await seedToday(other.accountId, [{ status: "delivered", price: 80, category: "marketing" }]); // another account: not in the figures
    const today = spToday();

    const page = await newPage(browser(), { javaScriptEnabled: false });
    await signIn(page, { email: "staff@demo.example", password: DEMO_PASSWORD });

    // Stat: per day, per category and per account.
    await openNavGroup(page, "platform");
    await page.getByRole("link", { name: "WhatsApp: estatísticas", exact: true }).click();
    await page.waitForURL((u) => u.pathname === "/admin/whatsapp/reports/stat");
    await page.getByLabel("Conta", { exact: true }).fill(person.company);
    await page.getByRole("button", { name: "Mostrar", exact: true }).click();
    await page.waitForURL((u) => u.searchParams.get("account") === person.company);
    await page.getByText(`Somente a conta ${person.company}.`).waitFor();
    const day = `tr[data-day="${today}"]`;
    expect(await text(page, `${day} [data-col="messages"]`)).toBe("3");
    expect(await text(page, `${day} [data-col="delivered"]`)).toBe("2");
    expect(await text(page, `${day} [data-col="read"]`)).toBe("1");
    expect(await text(page, `${day} [data-col="failed"]`)).toBe("1");
    const category = (c: string, col: string) => text(page, `[data-report="category"] tr[data-category="${c}"] [data-col="${col}"]`);
    expect([await category("marketing", "messages"), await category("marketing", "cost")]).toEqual(["1", "R$ 0,80"]);
    expect([await category("utility", "messages"), await category("utility", "cost")]).toEqual(["2", "R$ 0,80"]);
    expect([await category("total", "messages"), await category("total", "cost")]).toEqual(["3", "R$ 1,60"]);
    const accounts = page.locator('[data-report="accounts"] tr[data-account]');
    await expect.poll(() => accounts.count(), { timeout: 10_000 }).toBe(1);
    expect(await accounts.getAttribute("data-account")).toBe(person.accountId);
    expect(await text(page, `tr[data-account="${person.accountId}"] [data-col="messages"]`)).toBe("3");
    expect(await text(page, `tr[data-account="${person.accountId}"] [data-col="cost"]`)).toBe("R$ 1,60");
    await page.screenshot({ path: screenshotPath("admin-whatsapp-stat-nojs"), fullPage: true });

    // Insights of the last 7 days, the same account.
    await page.getByRole("link", { name: "WhatsApp: indicadores", exact: true }).click();
    await page.waitForURL((u) => u.pathname === "/admin/whatsapp/reports/insights");
    await page.getByLabel("Conta", { exact: true }).fill(person.company);
    await page.getByRole("button", { name: "Filtrar", exact: true }).click();
    await page.waitForURL((u) => u.searchParams.get("account") === person.company);
    const figure = (key: string) => text(page, `[data-figure="${key}"] [data-value]`);
    expect(await figure("sent")).toBe("3");
    expect(await figure("delivered")).toBe("2");
    expect(await figure("read")).toBe("1");
    expect(await figure("failed")).toBe("1");
    expect(await figure("cost")).toBe("R$ 1,60");
    expect(await figure("received")).toBe("1");
    expect(await text(page, `${day} [data-col="messages"]`)).toBe("3");
    await page.screenshot({ path: screenshotPath("admin-whatsapp-insights-nojs"), fullPage: true });

    // History: the account's four messages, each naming it; a row opens its message in the panel.
    await page.getByRole("link", { name: "WhatsApp: histórico", exact: true }).click();
    await page.waitForURL((u) => u.pathname === "/admin/whatsapp/reports/history");
    await page.getByLabel("Conta", { exact: true }).fill(person.company);
    await page.getByRole("button", { name: "Filtrar", exact: true }).click();
    await page.waitForURL((u) => u.searchParams.get("account") === person.company);
    const rows = page.locator("tr[data-message-id]");
    await rows.first().waitFor();
    expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-message-id")))).toEqual([...ids].reverse());
    expect(new Set(await page.locator('tr[data-message-id] [data-col="account"]').allInnerTexts())).toEqual(new Set([person.company]));
    await page.locator(`tr[data-message-id="${ids[2]}"] a`).click();
    await page.waitForURL((u) => u.searchParams.get("message") === ids[2]);
    const panel = page.getByTestId("message-panel");
    await panel.waitFor();
    expect(await panel.locator('[data-field="account"] dd').innerText()).toBe(person.company);
    expect(await panel.locator("[data-event-error]").getAttribute("data-event-error")).toBe("131026");
    // The list stays under the panel, still filtered.
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(4);
    await page.screenshot({ path: screenshotPath("admin-whatsapp-history-nojs"), fullPage: true });
    await page.context().close();
  }, 120_000);

  it("/whatsapp/jv/reports counts only the On-Premises numbers' messages; /whatsapp/reports every number's", async () => {
    const person = await registerPerson("wa-jv-reports-e2e");
    await seedToday(person.accountId, [
      { status: "delivered", price: 80, category: "marketing", provider: "whatsapp_onprem" },
      { status: "read", price: 40, category: "utility", provider: "whatsapp_onprem" },
      { status: "delivered", price: 80, category: "marketing" },
      { status: "failed", price: 40, category: "utility" },
      { status: "read", price: 30, category: "authentication" },
    ]);
    const today = spToday();
    const page = await newPage(browser(), { javaScriptEnabled: false });
    await signIn(page, person);

    await openNavGroup(page, "whatsapp");
    await page.getByRole("link", { name: "Relatórios On-Premises", exact: true }).click();
    await page.waitForURL((u) => u.pathname === "/whatsapp/jv/reports");
    const day = (col: string) => text(page, `tr[data-day="${today}"] [data-col="${col}"]`);
    const category = (c: string, col: string) => text(page, `[data-report="category"] tr[data-category="${c}"] [data-col="${col}"]`);
    expect(await day("total")).toBe("2");
    expect(await day("cost")).toBe("R$ 1,20");
    expect([await category("marketing", "messages"), await category("utility", "messages"), await category("authentication", "messages")]).toEqual(["1", "1", "0"]);
    expect(await text(page, '[data-report="status"] tr[data-status="failed"] [data-col="messages"]')).toBe("0");
    await page.screenshot({ path: screenshotPath("whatsapp-jv-reports-nojs"), fullPage: true });

    await page.goto("/whatsapp/reports");
    expect(await day("total")).toBe("5");
    expect(await day("cost")).toBe("R$ 2,70");
    expect(await text(page, '[data-report="status"] tr[data-status="failed"] [data-col="messages"]')).toBe("1");
    await page.context().close();
  }, 120_000);
});
