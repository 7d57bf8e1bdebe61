/**
 * Importing contacts through the browser (Chromium): upload a generated CSV, keep the suggested
 * column mapping, send the contacts to a new group, watch the progress page reach "completed" by
 * itself, then see the contacts in the group. Once with JavaScript (the page polls without
 * reloading) and once without it (the page's own refresh carries it to the end).
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { registerPerson, type Person } from "../support/api";
import { hasChromium, newPage, screenshotPath, requireChromiumInCi, useBrowser, signIn } from "../support/browser";
import { query } from "../support/db";

requireChromiumInCi();

/** `n` people "Pessoa 000001 Silva" with mobiles (11) 9xxxx-xxxx; the listed data rows get a number that is no number. */
function peopleCsv(n: number, invalid: number[]) {
  const bad = new Set(invalid);
  const lines = ["Nome;Celular;E-mail;Empresa"];
  for (let i = 1; i <= n; i++) {
    const id = String(i).padStart(6, "0");
    lines.push(`Pessoa ${id} Silva;${bad.has(i) ? "99-sem-numero" : `(21) 98${id.slice(0, 3)}-${id.slice(3)}0`};pessoa${id}@exemplo.com.br;Loja ${i % 7}`);
  }
  return lines.join("\r\n") + "\r\n";
}

/** Upload, keep the suggestions, choose a new group, start: answers the import id (the page then shows the progress). */
async function uploadAndStart(page: Page, rows: number, invalid: number[], group: string, shot: string) {
  await page.goto("/contacts/import");
  await page.getByLabel("Arquivos CSV").setInputFiles({ name: "clientes.csv", mimeType: "text/csv", buffer: Buffer.from(peopleCsv(rows, invalid)) });
  await page.getByRole("button", { name: "Enviar e relacionar colunas" }).click();
  await page.waitForURL(/\/contacts\/import\/[0-9a-f-]{36}$/);
  const id = new URL(page.url()).pathname.split("/").pop()!;

  // The mapping step: the first rows as a preview, the suggestions already chosen.
  await page.getByRole("cell", { name: "Pessoa 000005 Silva" }).waitFor();
  expect(await page.getByRole("cell", { name: "Pessoa 000006 Silva" }).count()).toBe(0);
  expect(await page.getByLabel("Campo para a coluna “Celular”").inputValue()).toBe("mobile_number");
  expect(await page.getByLabel("Campo para a coluna “Nome”").inputValue()).toBe("name");
  expect(await page.getByLabel("Campo para a coluna “E-mail”").inputValue()).toBe("email");
  expect(await page.getByLabel("Campo para a coluna “Empresa”").inputValue()).toBe("company");
  await page.getByLabel("Ou crie um novo grupo").fill(group);
  await page.screenshot({ path: screenshotPath(`import-mapping-${shot}`), fullPage: true });
  await page.getByRole("button", { name: "Iniciar importação" }).click();
  return id;
}

/** After completion: the counts, the error report link, then the group's contacts on /contacts. */
async function checkResult(page: Page, person: Person, id: string, rows: number, invalid: number[], group: string) {
  const valid = rows - invalid.length;
  const stat = (name: string) => page.locator(`[data-stat="${name}"] dd`).textContent();
  expect(await stat("inserted")).toBe(valid.toLocaleString("pt-BR"));
  expect(await stat("errors")).toBe(String(invalid.length));
  expect(await page.getByRole("link", { name: "Baixar o relatório de erros (.csv)" }).getAttribute("href")).toBe(`/contacts/import/${id}/errors`);

  const [g] = await query<{ id: string; members: number }>(
    `SELECT g.id, (SELECT count(*)::int FROM contact_group_members m WHERE m.group_id = g.id) AS members
       FROM contact_groups g WHERE g.account_id = $1 AND g.name = $2`,
    [person.accountId, group],
  );
  expect(g?.members).toBe(valid);
  const [{ n }] = await query<{ n: number }>("SELECT count(*)::int AS n FROM contacts WHERE account_id = $1", [person.accountId]);
  expect(n).toBe(valid);

  await page.getByRole("link", { name: `Ver os contatos do grupo ${group}` }).click();
  await page.waitForURL((u) => u.pathname === "/contacts" && u.searchParams.get("group") === g.id);
  await page
    .getByText(/Pessoa \d{6} Silva/)
    .first()
    .waitFor();
  // One imported person, found by name within the group; a rejected line's person is not there.
  await page.goto(`/contacts?group=${g.id}&q=${encodeURIComponent("Pessoa 000042")}`);
  await page.getByText("Pessoa 000042 Silva").first().waitFor();
  await page.goto(`/contacts?group=${g.id}&q=${encodeURIComponent(`Pessoa ${String(invalid[0]).padStart(6, "0")}`)}`);
  expect(await page.getByText(`Pessoa ${String(invalid[0]).padStart(6, "0")} Silva`).count()).toBe(0);
}

describe.skipIf(!hasChromium)("importing contacts in Chromium", () => {
  const browser = useBrowser();

  it("with JavaScript: the progress page updates itself (no reload) until the import completes", async () => {
    const person = await registerPerson("import-e2e");
    const page = await newPage(browser());
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });
    await signIn(page, person);
    const rows = 30_000;
    const invalid = [2, 17, 1_999];
    const group = "Clientes importados (JS)";

    // With JavaScript the browser refuses a file that is not .csv before sending anything.
    await page.goto("/contacts/import", { waitUntil: "networkidle" }); // hydrated
    const input = page.getByLabel("Arquivos CSV");
    await input.setInputFiles({ name: "contatos.txt", mimeType: "text/plain", buffer: Buffer.from(peopleCsv(3, [])) });
    expect(await input.evaluate((el) => (el as HTMLInputElement).validationMessage)).toBe("Apenas arquivos .csv");
    await page.getByRole("button", { name: "Enviar e relacionar colunas" }).click();
    expect(new URL(page.url()).pathname).toBe("/contacts/import");
    const [{ n }] = await query<{ n: number }>("SELECT count(*)::int AS n FROM contact_imports WHERE account_id = $1", [person.accountId]);
    expect(n).toBe(0);

    const id = await uploadAndStart(page, rows, invalid, group, "js");

    await page.getByRole("progressbar", { name: "Progresso da importação" }).waitFor();
    await page.screenshot({ path: screenshotPath("import-progress-js"), fullPage: true });
    // A mark on the window survives only if the page is never reloaded.
    await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
    await page.getByRole("heading", { name: "Importação concluída" }).waitFor({ timeout: 90_000 });
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    expect(new URL(page.url()).pathname).toBe(`/contacts/import/${id}`);
    await page.screenshot({ path: screenshotPath("import-completed-js"), fullPage: true });

    await checkResult(page, person, id, rows, invalid, group);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("without JavaScript: the same upload and mapping, and the page's own refresh carries it to completed", async () => {
    const person = await registerPerson("import-nojs");
    const page = await newPage(browser(), { javaScriptEnabled: false });
    await signIn(page, person);
    const rows = 20_000;
    const invalid = [5, 1_500];
    const group = "Clientes importados (sem JS)";
    const id = await uploadAndStart(page, rows, invalid, group, "nojs");

    // The first page after starting shows the progress; only a refresh can bring the summary.
    await page.getByRole("progressbar", { name: "Progresso da importação" }).waitFor();
    await page.getByRole("heading", { name: "Importação concluída" }).waitFor({ timeout: 90_000 });
    expect(new URL(page.url()).pathname).toBe(`/contacts/import/${id}`);
    await page.screenshot({ path: screenshotPath("import-completed-nojs"), fullPage: true });

    await checkResult(page, person, id, rows, invalid, group);
    await page.context().close();
  });
});
