/**
 * WhatsApp insights and export in Chromium (issue 16): a fresh account with WhatsApp messages
 * seeded today (and one SMS, which must not count) sees its figures on /whatsapp/insights, then
 * clicks Export on /whatsapp/history, waits on /whatsapp/exports until the file is ready and
 * downloads the CSV (a real Playwright download) holding exactly the WhatsApp messages.
 */
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { registerPerson } from "../support/api";
import { hasChromium, newPage, requireChromiumInCi, screenshotPath, signIn, useBrowser } from "../support/browser";
import { ago, makeMessages, type MessageFields } from "../support/factories";

requireChromiumInCi();

const HEADER = "id,created_at,sent_at,delivered_at,direction,type,sender,recipient,body,segments,coding,status,error_code,error_message,carrier,price,currency";

describe.skipIf(!hasChromium)("WhatsApp insights and export in Chromium", () => {
  const browser = useBrowser();

  it("/whatsapp/insights shows the figures; Export on /whatsapp/history gives a downloadable CSV of the WhatsApp messages", async () => {
    const person = await registerPerson("wa-reports-e2e");
    const wa = (status: MessageFields["status"], price: number, n: number): MessageFields => ({
      channel: "whatsapp",
      sender: "109876543210987",
      recipient: `+55119700${String(n).padStart(5, "0")}`,
      body: `WhatsApp ${n}`,
      status,
      price,
      currency: "BRL",
      createdAt: ago(`${n} seconds`),
      sentAt: status === "queued" ? null : ago(`${n} seconds`),
    });
    const seeded = await makeMessages(person.accountId, [wa("read", 80, 1), wa("delivered", 40, 2), wa("failed", 40, 3)]);
    await makeMessages(person.accountId, [{ status: "delivered", price: 8, createdAt: ago("4 seconds") }]); // an SMS: not in the WhatsApp figures

    const page = await newPage(browser());
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await signIn(page, person);
    await page.goto("/whatsapp/insights", { waitUntil: "networkidle" });
    const value = (key: string) => page.locator(`[data-figure="${key}"] [data-value]`).innerText();
    expect(await value("sent")).toBe("3");
    expect(await value("delivered")).toBe("2");
    expect(await value("read")).toBe("1");
    expect(await value("failed")).toBe("1");
    expect((await value("cost")).replace(/\u00a0/g, " ")).toBe("R$ 1,60");
    await page.screenshot({ path: screenshotPath("whatsapp-insights"), fullPage: true });

    await page.goto("/whatsapp/history", { waitUntil: "networkidle" });
    await page.getByRole("button", { name: "Exportar" }).click();
    await page.waitForURL((u) => u.pathname === "/whatsapp/exports");
    const link = page.getByRole("link", { name: /^Baixar a exportação de / }).first();
    await link.waitFor({ timeout: 60_000 });
    await page.screenshot({ path: screenshotPath("whatsapp-exports"), fullPage: true });
    const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
    expect(download.suggestedFilename()).toMatch(/^whatsapp-\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}-[0-9a-f]{8}\.csv$/);
    const bytes = await readFile((await download.path())!);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString("utf8").trim().split("\n");
    expect(lines[0]).toBe(HEADER);
    expect(lines.slice(1).map((l) => l.split(",")[0])).toEqual(seeded.map((m) => m.id));
    expect(errors).toEqual([]);
    await page.context().close();
  }, 150_000);
});
