/**
 * SMS history in Chromium: filter the history, click Export, wait on /sms/exports until the file
 * is ready and download the CSV (a real Playwright download), once with JavaScript (the list
 * revalidates itself) and once without it (GET filter form, POST export form, the page's own meta
 * refresh). The account is fresh; one message goes through the real pipeline (API → worker →
 * simulator → receipt) and shows its final status in the history, the others are seeded.
 */
import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { simulatedOutcome } from "../../api/simulator/outcome";
import { api, giveShortCode, login, registerPerson } from "../support/api";
import { hasChromium, newPage, requireChromiumInCi, screenshotPath, useBrowser, signIn } from "../support/browser";
import { query } from "../support/db";
import { ago, makeMessages, type MessageFields, setAccount } from "../support/factories";

requireChromiumInCi();

/** The message ids the history shows, in order. */
const shownIds = (page: Page) => page.locator("[data-message-id]").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-message-id")));

const STATUS_PT: Record<string, string> = { delivered: "Entregue", failed: "Falhou", unavailable: "Indisponível" };
const HEADER = "id,created_at,sent_at,delivered_at,direction,type,sender,recipient,body,segments,coding,status,error_code,error_message,carrier,price,currency";

/** A fresh account with balance and a short code: 3 failed and 2 delivered messages from it seeded today, and one sent through the pipeline. */
async function account(tag: string) {
  const person = await registerPerson(tag);
  await setAccount(person.accountId, { balance: 10000 });
  const code = await giveShortCode(person.accountId);
  const rows: MessageFields[] = [1, 2, 3, 4, 5].map((g) => ({
    sender: code,
    recipient: `+551197000${String(g).padStart(4, "0")}`,
    body: `Mensagem ${g}`,
    segments: 1,
    coding: "GSM7",
    status: g <= 3 ? "failed" : "delivered",
    price: 8,
    createdAt: ago(`${g} seconds`),
    errorCode: g <= 3 ? "UNDELIV" : null,
  }));
  const seeded = (await makeMessages(person.accountId, rows)).map((m, i) => ({ id: m.id, status: rows[i].status }));
  const token = (await login(person.email, person.password)).token;
  const sent = await api("/api/sms/messages", { token, body: { to: "+5511970009999", body: "Pelo pipeline", from: code } });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  const id = sent.body.data[0].id as string;
  const until = Date.now() + 20_000;
  for (;;) {
    const [m] = await query<{ status: string }>("SELECT status FROM messages WHERE id = $1", [id]);
    if (m.status === simulatedOutcome(id)) break;
    if (Date.now() > until) throw new Error(`message ${id} stuck at ${m.status}`);
    await new Promise((r) => setTimeout(r, 150));
  }
  const failed = seeded.filter((s) => s.status === "failed").map((s) => s.id);
  if (simulatedOutcome(id) === "failed") failed.unshift(id);
  return { person, code, sent: { id, status: simulatedOutcome(id) }, failed };
}

async function downloadCsv(page: Page, shot: string) {
  const link = page.getByRole("link", { name: /^Baixar a exportação de / }).first();
  await link.waitFor({ timeout: 60_000 });
  await page.screenshot({ path: screenshotPath(`sms-exports-${shot}`), fullPage: true });
  const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
  expect(download.suggestedFilename()).toMatch(/^sms-\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}-[0-9a-f]{8}\.csv$/);
  const path = await download.path();
  const bytes = await readFile(path!);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  return bytes.subarray(3).toString("utf8").trim().split("\n");
}

describe.skipIf(!hasChromium)("SMS history and export in Chromium", () => {
  const browser = useBrowser();

  it("with JavaScript: filter by status, Export, the exports list updates itself, the CSV downloads", async () => {
    const { person, sent, failed } = await account("smshist-e2e");
    const page = await newPage(browser());
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await signIn(page, person);
    await page.goto("/sms/history", { waitUntil: "networkidle" });
    // The message sent through the pipeline shows its final status.
    await page.locator(`[data-message-id="${sent.id}"]`).getByText(STATUS_PT[sent.status]).waitFor();
    await expect.poll(() => page.locator("[data-message-id]").count()).toBe(6);

    await page.getByLabel("Status").selectOption("failed");
    await page.getByRole("button", { name: "Filtrar" }).click();
    await page.waitForURL((u) => u.searchParams.get("status") === "failed");
    // A client-side navigation: the URL changes before the new rows render, and the old rows are
    // still there meanwhile, so wait for the filtered list itself rather than for any row.
    await expect.poll(() => shownIds(page), { timeout: 15_000 }).toEqual(failed);
    await page.screenshot({ path: screenshotPath("sms-history-js"), fullPage: true });

    await page.getByRole("button", { name: "Exportar" }).click();
    await page.waitForURL((u) => u.pathname === "/sms/exports");
    await page.getByText("Relatório solicitado").waitFor();
    await page.evaluate(() => ((window as unknown as { __same: boolean }).__same = true));
    const lines = await downloadCsv(page, "js");
    expect(await page.evaluate(() => (window as unknown as { __same?: boolean }).__same)).toBe(true); // no reload: revalidated
    expect(lines[0]).toBe(HEADER);
    expect(lines.slice(1).map((l) => l.split(",")[0])).toEqual(failed);
    expect(lines.slice(1).every((l) => l.split(",")[11] === "failed")).toBe(true);
    expect(errors).toEqual([]);
    await page.context().close();
  }, 150_000);

  it("without JavaScript: the GET filter form, the Export form post and the page's own refresh", async () => {
    const { person, code, failed } = await account("smshist-nojs");
    const page = await newPage(browser(), { javaScriptEnabled: false });
    await signIn(page, person);
    await page.goto("/sms/history");
    await page.getByLabel("Status").selectOption("failed");
    await page.getByLabel("Remetente").fill(code);
    await page.getByRole("button", { name: "Filtrar" }).click();
    await page.waitForURL((u) => u.searchParams.get("status") === "failed" && u.searchParams.get("from") === code);
    await expect.poll(() => shownIds(page), { timeout: 15_000 }).toEqual(failed);
    // A range over 31 days is said next to the field.
    await page.getByLabel("De", { exact: true }).fill("2026-01-01");
    await page.getByRole("button", { name: "Filtrar" }).click();
    await page.getByText("Intervalo máximo de 31 dias").waitFor();
    await page.goBack();
    await page.screenshot({ path: screenshotPath("sms-history-nojs"), fullPage: true });

    await page.getByRole("button", { name: "Exportar" }).click();
    await page.waitForURL((u) => u.pathname === "/sms/exports");
    const lines = await downloadCsv(page, "nojs");
    expect(lines[0]).toBe(HEADER);
    expect(lines.slice(1).map((l) => l.split(",")[0])).toEqual(failed);
    await page.context().close();
  }, 150_000);
});
