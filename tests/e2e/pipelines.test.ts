/**
 * Workflow boards in Chromium (issue 22). Two browser contexts of the same person look at one
 * board: a card dragged with the keyboard through @dnd-kit (handle focused, Space, arrow, Space)
 * moves to the next column in the first and, through the realtime service, in the second without
 * a reload; a move from a stale card (its version changed behind the page's back) is refused by
 * the server, the board goes back to the current state and says why. Without JavaScript, the
 * card's move form (column + submit) moves it too. A column named like an existing one is refused
 * with the translated message, with and without JavaScript.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { registerPerson } from "../support/api";
import { query } from "../support/db";
import { hasChromium, newPage, requireChromiumInCi, screenshotPath, signIn, useBrowser } from "../support/browser";

requireChromiumInCi();

const ptBR = JSON.parse(readFileSync(resolve(__dirname, "../../public/locales/pt-BR/pipelines.json"), "utf8"));
/** The pt-BR text of a pipelines key ("board.conflict"). */
const text = (key: string): string => key.split(".").reduce((o, k) => o[k], ptBR);

/** Creates a board with `columns` through its form and answers its id and columns' ids (in order). */
/** With JavaScript, the drag-and-drop board replaces the plain one after hydration (components/pipelines/board.tsx): act once it has. */
const dndReady = (page: Page) => page.locator("[data-board][data-dnd='ready']").waitFor();

async function createBoard(page: Page, name: string, columns: string[], js = true) {
  await page.goto("/pipelines");
  await page.getByLabel(text("boards.fields.name")).fill(name);
  await page.getByLabel(text("boards.fields.columns")).fill(columns.join("\n"));
  await page.getByRole("button", { name: text("boards.form.submit") }).click();
  await page.waitForURL((u) => /^\/pipelines\/[0-9a-f-]{36}$/.test(u.pathname));
  if (js) await dndReady(page);
  const boardId = new URL(page.url()).pathname.split("/").pop()!;
  const cols = await query<{ id: string; name: string }>(`SELECT id, name FROM pipeline_columns WHERE board_id = $1 ORDER BY position`, [boardId]);
  expect(cols.map((c) => c.name)).toEqual(columns);
  return { boardId, columns: cols.map((c) => c.id) };
}

/** Adds a card to a column through the column's "add card" form; answers the deal's id. */
async function addCard(page: Page, columnId: string, lead: string, js = true) {
  if (js) await dndReady(page);
  const column = page.locator(`[data-column-id='${columnId}']`);
  await column.locator("summary", { hasText: text("deal.add") }).click();
  await column.getByLabel(text("deal.fields.lead_name")).fill(lead);
  await column.getByLabel(text("deal.fields.description")).fill(`Proposta para ${lead}`);
  await column.getByLabel(text("deal.fields.due_date")).fill("2030-05-20");
  await column.getByLabel(text("deal.fields.value")).fill("1.234,50");
  await column.getByRole("button", { name: text("deal.form.create") }).click();
  await expect.poll(async () => (await query(`SELECT id FROM pipeline_deals WHERE column_id = $1 AND lead_name = $2`, [columnId, lead])).length).toBe(1);
  const [{ id }] = await query<{ id: string }>(`SELECT id FROM pipeline_deals WHERE column_id = $1 AND lead_name = $2`, [columnId, lead]);
  await page.locator(`[data-column-id='${columnId}'] [data-deal-id='${id}']`).waitFor();
  return id;
}

const cardIn = (page: Page, columnId: string, dealId: string) => page.locator(`[data-column-id='${columnId}'] [data-deal-id='${dealId}']`);
/** The board's live stream is open (components/pipelines/board-live.ts marks the page). */
const liveOpen = (page: Page) => expect.poll(() => page.evaluate(() => document.documentElement.getAttribute("data-board-live")), { timeout: 15_000 }).toBe("open");

/** Space on the card's handle, an arrow key, Space: dnd-kit's keyboard drag. */
async function keyboardMove(page: Page, dealId: string, toColumnId: string, key: "ArrowRight" | "ArrowLeft") {
  await dndReady(page);
  const handle = page.locator(`[data-drag-handle='${dealId}']`);
  await handle.focus();
  await page.keyboard.press("Space");
  await expect.poll(() => handle.getAttribute("aria-pressed")).toBe("true");
  const fromColumnId = await page.locator(`[data-deal-id='${dealId}']`).evaluate((li) => li.closest("[data-column-id]")?.getAttribute("data-column-id") ?? "");
  // onDragOver has put the card in the column to the side before the drop. dnd-kit's keyboard
  // sensor takes arrow keys only once the drag has measured the board (a frame after the pick-up,
  // which aria-pressed already shows): a key pressed before that is dropped and the card stays in
  // its column. So the key is pressed again only while the card is still where it started, never
  // once it has moved (bounded: five presses of two seconds each).
  for (let presses = 1; ; presses++) {
    await page.keyboard.press(key);
    try {
      await cardIn(page, toColumnId, dealId).waitFor({ timeout: 2_000 });
      break;
    } catch (e) {
      if (presses >= 5 || (await cardIn(page, fromColumnId, dealId).count()) === 0) throw e;
    }
  }
  await page.keyboard.press("Space");
  await expect.poll(() => handle.getAttribute("aria-pressed")).not.toBe("true");
}

describe.skipIf(!hasChromium)("workflow boards in Chromium", () => {
  const browser = useBrowser();

  it("a card moved with the keyboard (dnd-kit) moves in a second browser through the realtime service; a stale move rolls back with the translated reason", async () => {
    const person = await registerPerson("boards-e2e");
    const a = await newPage(browser());
    await signIn(a, person);
    const { boardId, columns } = await createBoard(a, "Funil E2E", ["Novo", "Proposta", "Fechado"]);
    const [novo, proposta, fechado] = columns;
    const dealId = await addCard(a, novo, "Ana Lima");
    // The card shows its value in the account's currency (BRL).
    expect(await cardIn(a, novo, dealId).locator("[data-deal-value]").textContent()).toMatch(/R\$\s1\.234,50/);

    const b = await newPage(browser());
    await signIn(b, person);
    await b.goto(`/pipelines/${boardId}`);
    await cardIn(b, novo, dealId).waitFor();
    await Promise.all([liveOpen(a), liveOpen(b)]);

    await keyboardMove(a, dealId, proposta, "ArrowRight");
    await expect.poll(async () => (await query<{ column_id: string }>(`SELECT column_id FROM pipeline_deals WHERE id = $1`, [dealId]))[0].column_id).toBe(proposta);
    // The second browser, untouched, shows the card in its new column.
    await cardIn(b, proposta, dealId).waitFor({ timeout: 15_000 });
    expect(await cardIn(b, novo, dealId).count()).toBe(0);
    await b.screenshot({ path: screenshotPath("pipelines-board"), fullPage: true });

    // Someone changes the card behind the first page's back (no event: the page keeps the old version).
    await query(`UPDATE pipeline_deals SET version = version + 1 WHERE id = $1`, [dealId]);
    await keyboardMove(a, dealId, fechado, "ArrowRight");
    await expect.poll(() => a.locator("[data-board-notice]").textContent()).toBe(text("board.conflict"));
    // Rolled back: the card is where the server has it, and the server did not move it.
    await cardIn(a, proposta, dealId).waitFor();
    expect(await cardIn(a, fechado, dealId).count()).toBe(0);
    expect((await query<{ column_id: string }>(`SELECT column_id FROM pipeline_deals WHERE id = $1`, [dealId]))[0].column_id).toBe(proposta);

    // The board has read the card's current version again (the refusal's revalidation) before the next drag starts.
    const [{ version }] = await query<{ version: number }>(`SELECT version FROM pipeline_deals WHERE id = $1`, [dealId]);
    await expect.poll(() => cardIn(a, proposta, dealId).getAttribute("data-deal-version"), { timeout: 15_000 }).toBe(String(version));
    // Moving again (now with the current version) works.
    await keyboardMove(a, dealId, fechado, "ArrowRight");
    await expect.poll(async () => (await query<{ column_id: string }>(`SELECT column_id FROM pipeline_deals WHERE id = $1`, [dealId]))[0].column_id).toBe(fechado);
    await cardIn(b, fechado, dealId).waitFor({ timeout: 15_000 });
  });

  it("a column named like one of the board's is refused with the translated message", async () => {
    const person = await registerPerson("boards-e2e-col");
    const page = await newPage(browser());
    await signIn(page, person);
    const { boardId } = await createBoard(page, "Funil Colunas", ["Novo", "Proposta"]);
    const form = page.locator("[data-form='column-add']");
    await form.getByLabel(text("columns.fields.name")).fill("proposta");
    await form.getByRole("button", { name: text("columns.add") }).click();
    await expect.poll(() => form.getByRole("alert").allInnerTexts(), { timeout: 15_000 }).toContain(text("errors.columnNameTaken"));
    expect((await query(`SELECT 1 FROM pipeline_columns WHERE board_id = $1`, [boardId])).length).toBe(2);
  });

  it("without JavaScript: the card's move form moves it, and a duplicate column name shows the error", async () => {
    const person = await registerPerson("boards-e2e-nojs");
    const page = await newPage(browser(), { javaScriptEnabled: false });
    await signIn(page, person);
    const { boardId, columns } = await createBoard(page, "Funil Sem JS", ["Novo", "Ganho"], false);
    const [novo, ganho] = columns;
    const dealId = await addCard(page, novo, "Bruno Dias", false);

    const card = cardIn(page, novo, dealId);
    await card.locator("summary", { hasText: text("board.move") }).click();
    await card.getByLabel(text("board.moveTo"), { exact: true }).selectOption(ganho);
    await card.getByRole("button", { name: text("board.moveSubmit"), exact: true }).click();
    await cardIn(page, ganho, dealId).waitFor();
    expect(await cardIn(page, novo, dealId).count()).toBe(0);
    const [row] = await query<{ column_id: string; version: number }>(`SELECT column_id, version FROM pipeline_deals WHERE id = $1`, [dealId]);
    expect(row.column_id).toBe(ganho);

    const form = page.locator("[data-form='column-add']");
    await form.getByLabel(text("columns.fields.name")).fill("GANHO");
    await form.getByRole("button", { name: text("columns.add") }).click();
    await expect.poll(() => page.locator("[data-form='column-add']").getByRole("alert").allInnerTexts()).toContain(text("errors.columnNameTaken"));
    expect((await query(`SELECT 1 FROM pipeline_columns WHERE board_id = $1`, [boardId])).length).toBe(2);
  });
});
