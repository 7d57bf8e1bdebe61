/**
 * Support tickets in Chromium (issue 23, ADR 061): a customer opens a ticket from /support with an
 * attachment, the platform's staff find it in /admin/tickets, answer it and close it from
 * /admin/support/{id}, and the customer reads the answer and rates it 0 to 5 — the customer with
 * JavaScript on, the staff with it off (the forms are plain posts).
 */
import { describe, expect, it } from "vitest";
import { registerPerson } from "../support/api";
import { hasChromium, newPage, requireChromiumInCi, screenshotPath, signIn, useBrowser } from "../support/browser";
import { query } from "../support/db";
import { pdf } from "../support/media-files";
import { DEMO_PASSWORD } from "../support/web";

requireChromiumInCi();

describe.skipIf(!hasChromium)("support tickets in Chromium", () => {
  const browser = useBrowser();

  it("a customer opens a ticket, staff answer and close it, the customer rates the answer", async () => {
    const customer = await registerPerson("ticket-e2e");
    const subject = `Cobrança em dobro ${Date.now().toString(36)}`;

    const c = await newPage(browser(), { javaScriptEnabled: true });
    await signIn(c, customer);
    await c.goto("/support");
    await c.getByRole("link", { name: "Novo chamado" }).click();
    await c.waitForURL((u) => u.pathname === "/support/new-ticket");
    // Category and subject are required: the browser's own check keeps the form; the server's names the fields.
    await c.getByLabel("Categoria").selectOption("billing");
    await c.getByLabel("Assunto").fill(subject);
    await c.getByLabel("Mensagem").fill("A fatura deste mês veio cobrada duas vezes.");
    await c.getByLabel("Anexo (opcional)").setInputFiles({ name: "fatura.pdf", mimeType: "application/pdf", buffer: pdf() });
    await c.getByRole("button", { name: "Abrir chamado" }).click();
    await c.waitForURL((u) => /^\/support\/[0-9a-f-]{36}$/.test(u.pathname));
    const id = new URL(c.url()).pathname.split("/").pop()!;
    await expect.poll(() => c.getByText("fatura.pdf").count()).toBe(1);
    await c.screenshot({ path: screenshotPath("support-ticket-opened"), fullPage: true });

    const s = await newPage(browser(), { javaScriptEnabled: false });
    await signIn(s, { email: "staff@demo.example", password: DEMO_PASSWORD });
    await s.goto(`/admin/tickets?q=${encodeURIComponent(subject)}`);
    await s.locator(`tr[data-ticket-id="${id}"]`).getByRole("link", { name: subject }).click();
    await s.waitForURL((u) => u.pathname === `/admin/support/${id}`);
    await s.getByLabel("Responder ao cliente").fill("Estornamos a segunda cobrança.");
    await s.getByRole("button", { name: "Enviar" }).click();
    await s.waitForURL((u) => u.pathname === `/admin/support/${id}`);
    await expect.poll(() => s.locator('[data-side="staff"]').count()).toBe(1);
    await s.locator("#manage-status").selectOption("closed");
    await s.getByRole("button", { name: "Salvar" }).click();
    await expect.poll(() => s.locator("[data-closed]").count()).toBe(1);

    await c.goto(`/support/${id}`);
    await expect.poll(() => c.getByText("Estornamos a segunda cobrança.").count()).toBe(1);
    await c.getByRole("radio", { name: "4" }).check();
    await c.getByLabel("Comentário (opcional)").fill("Resolvido no mesmo dia");
    await c.getByRole("button", { name: "Enviar avaliação" }).click();
    await expect.poll(() => c.locator('[data-rating="4"]').count()).toBe(1);
    await c.screenshot({ path: screenshotPath("support-ticket-rated"), fullPage: true });
    const [row] = await query<{ status: string; rating: number }>(`SELECT status, rating FROM support_tickets WHERE id = $1`, [id]);
    expect(row).toEqual({ status: "closed", rating: 4 });
  });
});
