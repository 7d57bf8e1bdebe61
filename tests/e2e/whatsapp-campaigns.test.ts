/**
 * The WhatsApp campaign screens in Chromium without JavaScript (issue 16: "campaigns with
 * pause/resume/cancel and live counters"): a campaign of an approved template sent through the API
 * to a list, scheduled, appears in /whatsapp/campaigns with its status and counts; its page pauses,
 * resumes and cancels it with plain POST forms, and every message's price comes back.
 */
import { describe, expect, inject, it } from "vitest";
import { simulatedAppSecret } from "../../api/simulator/whatsapp-cloud";
import { api, login, registerPerson } from "../support/api";
import { hasChromium, newPage, requireChromiumInCi, screenshotPath, signIn, useBrowser } from "../support/browser";
import { query } from "../support/db";
import { balanceOf, giveOmni, setAccount } from "../support/factories";

requireChromiumInCi();
const digits = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 10)).join("");

describe.skipIf(!hasChromium)("WhatsApp campaign screens in Chromium", () => {
  const browser = useBrowser();

  it("without JavaScript: a scheduled campaign listed with its counts, paused, resumed and canceled with every price refunded", async () => {
    const p = await registerPerson("wacampaignweb");
    await giveOmni(p.accountId);
    await setAccount(p.accountId, { balance: 100_000 });
    const { token } = await login(p.email, p.password);
    const as = (path: string, body?: unknown) => api(path, { token, ...(body === undefined ? {} : { body }) });
    const number = await as("/api/whatsapp/numbers", {
      phone_number_id: `1${digits(14)}`,
      waba_id: `2${digits(14)}`,
      access_token: `EAAG${digits(20)}`,
      app_secret: simulatedAppSecret(inject("simulatorApiKey")),
    });
    expect(number.status, JSON.stringify(number.body)).toBe(201);
    const name = `lembrete_${digits(6)}`;
    const template = await as("/api/whatsapp/templates", {
      number_id: number.body.data.id,
      name,
      category: "utility",
      language: "pt_BR",
      body: "Olá {{1}}, lembrete da sua consulta.",
      body_examples: ["Ana"],
    });
    expect(template.status).toBe(201);
    await expect.poll(async () => (await as(`/api/whatsapp/templates/${template.body.data.id}`)).body.data.status, { timeout: 15_000 }).toBe("approved");
    const before = await balanceOf(p.accountId);
    const created = await as("/api/whatsapp/campaigns", {
      from: number.body.data.id,
      name: "Lembretes de dezembro",
      to: Array.from({ length: 20 }, (_, i) => `+5511${digits(3)}${String(i * 10 + 3).padStart(6, "0")}`),
      scheduled_at: new Date(Date.now() + 86_400_000).toISOString(),
      template: { name, language: "pt_BR", variables: ["cliente"] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.data.campaign_id;
    expect(await balanceOf(p.accountId)).toBe(before - created.body.data.total_price);

    const page = await newPage(browser(), { javaScriptEnabled: false });
    await signIn(page, p);
    await page.goto("/whatsapp/campaigns");
    const row = page.locator(`tr[data-campaign="${id}"]`);
    await row.getByRole("link", { name: "Lembretes de dezembro" }).waitFor();
    expect(await row.locator("[data-status]").textContent()).toBe("Agendada");
    await expect.poll(() => row.getByText("Agendada 20").count(), { timeout: 10_000 }).toBe(1);
    expect(await page.getByRole("link", { name: "Campanhas de WhatsApp" }).count()).toBeGreaterThan(0);
    await page.screenshot({ path: screenshotPath("whatsapp-campaigns-list"), fullPage: true });

    await row.getByRole("link", { name: "Lembretes de dezembro" }).click();
    await page.waitForURL(`**/whatsapp/campaigns/${id}`);
    await page.locator("[data-action=paused]").click();
    await page.getByText("Campanha pausada").waitFor();
    expect(await page.locator("[data-status]").first().textContent()).toBe("Pausada");
    await page.locator("[data-action=running]").click();
    await page.getByText("Campanha retomada").waitFor();
    await page.locator("[data-action=canceled]").click();
    await page.getByText(/Campanha cancelada/).waitFor();
    expect(await page.locator("[data-status]").first().textContent()).toBe("Cancelada");
    expect(await page.locator("[data-testid=campaign-counts] [data-count=failed] dd").textContent()).toBe("20");
    await page.screenshot({ path: screenshotPath("whatsapp-campaign-canceled"), fullPage: true });
    expect(await balanceOf(p.accountId)).toBe(before);
    const [{ n }] = await query<{ n: string }>("SELECT count(*) AS n FROM messages WHERE campaign_id = $1 AND error_code = 'canceled'", [id]);
    expect(Number(n)).toBe(20);
    // The SMS campaigns screen does not open it.
    const sms = await page.goto(`/sms/campaigns/${id}`);
    expect(sms?.status()).toBe(404);
    await page.context().close();
  }, 90_000);
});
