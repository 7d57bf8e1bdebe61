/**
 * The campaign screens in Chromium, with JavaScript off (plain POST forms + CSRF, meta refresh)
 * and on: the list shows status, total, progress and counts; the detail pauses, resumes (the
 * messages then go out and the campaign completes with the predicted counts) and cancels with a
 * refund; a finished campaign is deleted from the list.
 */
import { describe, expect, it } from "vitest";
import { simulatedOutcome } from "../../api/simulator/outcome";
import { registerPerson } from "../support/api";
import { hasChromium, newPage, requireChromiumInCi, screenshotPath, useBrowser, signIn } from "../support/browser";
import { balanceOf, createCampaign, enqueueSms, tally, waitUntil } from "../support/campaigns";
import { query } from "../support/db";
import { setAccount, setCampaign } from "../support/factories";

requireChromiumInCi();

async function signedIn(browser: Parameters<typeof newPage>[0], javaScriptEnabled: boolean) {
  const p = await registerPerson("campaignweb");
  await setAccount(p.accountId, { balance: 100000 });
  const page = await newPage(browser, { javaScriptEnabled });
  await signIn(page, p);
  return { p, page };
}

describe.skipIf(!hasChromium)("campaign screens in Chromium", () => {
  const browser = useBrowser();

  it("without JavaScript: list, pause state, resume until completed with exact counts, then delete", async () => {
    const { p, page } = await signedIn(browser(), false);
    const id = await createCampaign(p.accountId, { total: 12, status: "paused", name: "Dia das Mães" });
    const ids = await enqueueSms(p.accountId, { count: 12, campaignId: id });

    await page.goto("/sms/campaigns");
    const row = page.locator(`tr[data-campaign="${id}"]`);
    await row.getByRole("link", { name: "Dia das Mães" }).waitFor();
    expect(await row.locator("[data-status]").textContent()).toBe("Pausada");
    await expect.poll(() => row.getByText("Na fila 12").count(), { timeout: 10_000 }).toBe(1);
    await page.screenshot({ path: screenshotPath("sms-campaigns-list"), fullPage: true });
    // The sidebar entry.
    expect(await page.getByRole("link", { name: "Campanhas SMS" }).count()).toBeGreaterThan(0);

    await row.getByRole("link", { name: "Dia das Mães" }).click();
    await page.waitForURL(`**/sms/campaigns/${id}`);
    expect(await page.locator("[data-action=paused]").count()).toBe(0);
    await page.locator("[data-action=running]").click();
    await page.waitForURL(`**/sms/campaigns/${id}`);
    await page.getByText("Campanha retomada").waitFor();
    // Running: the page refreshes itself (meta refresh) until it completes.
    await expect.poll(() => page.locator('meta[http-equiv="refresh"]').count(), { timeout: 10_000 }).toBe(1);
    // (Other tests' campaigns share the worker: allow for a queue ahead of this one.)
    await waitUntil(
      "completed on screen with every receipt in",
      async () => {
        await page.reload();
        return { status: await page.locator("[data-status]").first().textContent(), sent: await page.locator("[data-testid=campaign-counts] [data-count=sent]").count() };
      },
      (v) => v.status === "Concluída" && v.sent === 0,
      150_000,
      1000,
    );
    const expected = tally(ids.map((m) => simulatedOutcome(m)));
    for (const [status, n] of Object.entries(expected)) {
      expect(await page.locator(`[data-testid=campaign-counts] [data-count=${status}] dd`).textContent()).toBe(String(n));
    }
    await expect(page.getByTestId("campaign-progress").textContent()).resolves.toMatch(/^100%/);
    expect(await page.locator('meta[http-equiv="refresh"]').count()).toBe(0);
    await page.screenshot({ path: screenshotPath("sms-campaign-completed"), fullPage: true });

    await page.getByText("Excluir", { exact: true }).click();
    await page.getByRole("button", { name: "Excluir campanha" }).click();
    await page.waitForURL((u) => u.pathname === "/sms/campaigns");
    await page.getByText("Campanha excluída").waitFor();
    expect(await page.locator(`tr[data-campaign="${id}"]`).count()).toBe(0);
    await page.context().close();
  }, 240_000);

  it("with JavaScript: pause a running campaign, then cancel it — unsent messages refunded", async () => {
    const { p, page } = await signedIn(browser(), true);
    const id = await createCampaign(p.accountId, { total: 5, status: "running", name: "Liquidação" });
    // Paused before its messages exist, and the messages scheduled an hour ahead, so none goes out
    // while the page loads and the clicks happen (a running campaign whose messages all went out
    // completes, and could no longer be paused).
    await setCampaign(id, { status: "paused" });
    await enqueueSms(p.accountId, { count: 5, campaignId: id, price: 10 });
    await query("UPDATE messages SET status = 'scheduled', scheduled_at = now() + interval '1 hour', queued_at = NULL WHERE campaign_id = $1", [id]);
    const before = await balanceOf(p.accountId);
    await setCampaign(id, { status: "running" });
    await page.goto(`/sms/campaigns/${id}`);
    // With scripts on, the running campaign refetches itself instead of a meta refresh that could reload the page mid-pause.
    expect(await page.locator('meta[http-equiv="refresh"]').count()).toBe(0);
    await page.locator("[data-action=paused]").click();
    await page.getByText("Campanha pausada").waitFor();
    // Client-side revalidation: wait for the new status itself, not only the toast.
    await expect.poll(() => page.locator("[data-status]").first().textContent()).toBe("Pausada");
    await page.locator("[data-action=canceled]").click();
    await page.getByText(/Campanha cancelada/).waitFor();
    await expect.poll(() => page.locator("[data-status]").first().textContent()).toBe("Cancelada");
    const [{ status }] = await query<{ status: string }>("SELECT status FROM campaigns WHERE id = $1", [id]);
    expect(status).toBe("canceled");
    const refunded = (await balanceOf(p.accountId)) - before;
    const [{ n }] = await query<{ n: string }>("SELECT count(*) AS n FROM messages WHERE campaign_id = $1 AND error_code = 'canceled'", [id]);
    expect(refunded).toBe(Number(n) * 10);
    await page.context().close();
  }, 60_000);
});
