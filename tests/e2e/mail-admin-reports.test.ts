/**
 * The platform staff's e-mail reports in Chromium without JavaScript (issue 17): through the
 * sidebar to /admin/email/reports/stat, /usage and /history, the account field set to a fresh
 * account's name, and exactly the figures of the e-mails seeded for it today (another account's
 * e-mails and its SMS never counted); a history row opens the e-mail's panel with its bounce.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { registerPerson } from "../support/api";
import { hasChromium, newPage, openNavGroup, requireChromiumInCi, screenshotPath, signIn, useBrowser } from "../support/browser";
import { makeMessage, makeMessageEvents, type MessageStatus } from "../support/factories";
import { DEMO_PASSWORD } from "../support/web";

requireChromiumInCi();

const spToday = () => new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo", year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date());

type Seed = { status: string; price: number; sms?: boolean; error?: string };

/** Today's messages of an account (São Paulo's today), a minute apart; answers their ids in order. */
async function seedToday(accountId: string, seeds: Seed[]): Promise<string[]> {
  const today = spToday();
  const now = Date.now() + Math.max(0, Date.parse(`${today}T00:00:01-03:00`) - (Date.now() - (seeds.length + 1) * 60_000));
  const ids: string[] = [];
  for (const [i, s] of seeds.entries()) {
    const createdAt = new Date(now - (seeds.length - i) * 60_000).toISOString();
    const id = await makeMessage(accountId, {
      channel: s.sms ? "sms" : "email",
      sender: s.sms ? "LOJA" : "loja@exemplo.test",
      recipient: s.sms ? "+5511970003333" : `cliente${i}@destino.test`,
      body: `Relatório ${i}`,
      status: s.status as MessageStatus,
      price: s.price,
      currency: "BRL",
      createdAt,
      sentAt: createdAt,
      ...(s.error ? { errorCode: s.error, errorMessage: `${s.error} mailbox unavailable` } : {}),
    });
    if (s.error) {
      await makeMessageEvents(accountId, id, [
        { status: "queued", payload: { price: s.price, currency: "BRL" }, createdAt },
        { status: s.status, source: "provider", payload: { error_code: s.error, error_message: `${s.error} mailbox unavailable` }, createdAt },
      ]);
    }
    ids.push(id);
  }
  return ids;
}

const text = async (page: Page, selector: string) => (await page.locator(selector).first().innerText()).replace(/\u00a0/g, " ").trim();

/** Opens a staff screen through the sidebar and filters it by the account's name. */
async function openFor(page: Page, link: string, path: string, company: string, button: string) {
  // The staff's reports sit in the sidebar's "platform" group, closed unless the page is one of them.
  await openNavGroup(page, "platform");
  await page.getByRole("link", { name: link, exact: true }).click();
  await page.waitForURL((u) => u.pathname === path);
  await page.getByLabel("Conta", { exact: true }).fill(company);
  await page.getByRole("button", { name: button, exact: true }).click();
  await page.waitForURL((u) => u.searchParams.get("account") === company);
}

describe.skipIf(!hasChromium)("the staff's e-mail reports in Chromium without JavaScript", () => {
  const browser = useBrowser();

  it("/admin/email/reports/stat, /usage and /history show one account's exact figures and e-mails", async () => {
    const person = await registerPerson("mail-admin-e2e");
    const other = await registerPerson("mail-admin-e2e-other");
    const ids = await seedToday(person.accountId, [
      { status: "delivered", price: 5 },
      { status: "opened", price: 5 },
      { status: "bounced", price: 5, error: "5.1.1" },
      { status: "delivered", price: 8, sms: true }, // an SMS: in no e-mail figure
    ]);
    await seedToday(other.accountId, [{ status: "delivered", price: 7 }]); // another account: not in the figures
    const emails = ids.slice(0, 3);
    const today = spToday();
    const day = (col: string) => text(page, `tr[data-day="${today}"] [data-col="${col}"]`);

    const page = await newPage(browser(), { javaScriptEnabled: false });
    await signIn(page, { email: "staff@demo.example", password: DEMO_PASSWORD });

    // Stat: per day per status, and the one account.
    await openFor(page, "E-mail: estatísticas", "/admin/email/reports/stat", person.company, "Mostrar");
    expect(await day("total")).toBe("3");
    expect(await day("delivered")).toBe("1");
    expect(await day("opened")).toBe("1");
    expect(await day("bounced")).toBe("1");
    const accounts = page.locator("tr[data-account]");
    await expect.poll(() => accounts.count(), { timeout: 10_000 }).toBe(1);
    expect(await accounts.getAttribute("data-account")).toBe(person.accountId);
    expect(await text(page, `tr[data-account="${person.accountId}"] [data-col="messages"]`)).toBe("3");
    expect(await text(page, `tr[data-account="${person.accountId}"] [data-col="cost"]`)).toBe("R$ 0,15");
    await page.screenshot({ path: screenshotPath("admin-email-stat-nojs"), fullPage: true });

    // Usage: the day's e-mails and their cost.
    await openFor(page, "E-mail: consumo", "/admin/email/reports/usage", person.company, "Mostrar");
    expect(await day("messages")).toBe("3");
    expect(await day("cost")).toBe("R$ 0,15");
    await page.screenshot({ path: screenshotPath("admin-email-usage-nojs"), fullPage: true });

    // History: the account's three e-mails, newest first; the bounced one's panel names its code.
    await openFor(page, "E-mail: histórico", "/admin/email/reports/history", person.company, "Filtrar");
    const rows = page.locator("tr[data-message-id]");
    await rows.first().waitFor();
    expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-message-id")))).toEqual([...emails].reverse());
    await page.locator(`tr[data-message-id="${emails[2]}"] a`).first().click();
    await page.waitForURL((u) => u.searchParams.get("message") === emails[2]);
    const panel = page.getByTestId("message-panel");
    await panel.waitFor();
    expect(await panel.innerText()).toContain(person.company);
    expect(await panel.innerText()).toContain("5.1.1");
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(3);
    await page.screenshot({ path: screenshotPath("admin-email-history-nojs"), fullPage: true });
    await page.context().close();
  }, 120_000);
});
