/**
 * /whatsapp/request in Chromium without JavaScript (issue 16: ask for a number — business data,
 * display name, category): the owner opens it from the WhatsApp overview, posts the form with a
 * wrong CNPJ (the translated error next to the CNPJ field, what was typed kept), fixes it, sees the
 * request listed as requested with its date in São Paulo time, and cancels it behind the
 * confirmation: it stays listed, canceled, with no cancel left.
 */
import { formatInTimeZone } from "date-fns-tz";
import { describe, expect, it } from "vitest";
import { registerPerson } from "../support/api";
import { hasChromium, newPage, requireChromiumInCi, screenshotPath, signIn, useBrowser } from "../support/browser";
import { query } from "../support/db";

requireChromiumInCi();

const digits = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 10)).join("");

describe.skipIf(!hasChromium)("WhatsApp number request screen in Chromium", () => {
  const browser = useBrowser();

  it("without JavaScript: a bad CNPJ is refused next to its field, the fixed request is listed as requested and canceled", async () => {
    const person = await registerPerson("wa-request-e2e");
    const page = await newPage(browser(), { javaScriptEnabled: false });
    await signIn(page, person);

    await page.goto("/whatsapp");
    await page.getByRole("link", { name: "Solicitar um número", exact: true }).click();
    await page.waitForURL((u) => u.pathname === "/whatsapp/request");
    await page.getByText("Nenhuma solicitação ainda.").waitFor();
    await expect.poll(() => page.getByRole("link", { name: "Solicitar número", exact: true }).count(), { timeout: 10_000 }).toBe(1);

    const last8 = digits(8);
    const local = `11 9${last8.slice(0, 4)}-${last8.slice(4)}`;
    await page.getByLabel("Razão social", { exact: true }).fill("Padaria Pão Quente Ltda");
    await page.getByLabel("CNPJ", { exact: true }).fill("11.222.333/0001-80");
    await page.getByLabel("Site", { exact: true }).fill("https://paoquente.com.br");
    await page.getByLabel("E-mail da empresa", { exact: true }).fill("contato@paoquente.com.br");
    await page.getByLabel("Telefone da empresa", { exact: true }).fill("(11) 3456-7890");
    await page.getByLabel("Endereço", { exact: true }).fill("Rua das Flores, 10 - São Paulo");
    await page.getByLabel("Nome de exibição", { exact: true }).fill("Pão Quente");
    await page.getByLabel("Categoria", { exact: true }).selectOption("RESTAURANT");
    await page.getByLabel("Número a cadastrar", { exact: true }).fill(local);
    await page.getByLabel("Integração", { exact: true }).selectOption("cloud");
    await page.getByLabel("Descrição", { exact: true }).fill("Pedidos e avisos de entrega");
    await page.getByRole("button", { name: "Enviar solicitação", exact: true }).click();

    // The CNPJ field's own error (its id + "-error"), translated; the rest kept as typed.
    const cnpjId = await page.getByLabel("CNPJ", { exact: true }).getAttribute("id");
    await page.locator(`#${cnpjId}-error`).getByText("CNPJ inválido: confira o número e os dígitos verificadores").waitFor();
    expect(await page.getByLabel("Nome de exibição", { exact: true }).inputValue()).toBe("Pão Quente");
    expect(await page.getByLabel("Categoria", { exact: true }).inputValue()).toBe("RESTAURANT");
    expect(await query("SELECT 1 FROM whatsapp_number_requests WHERE account_id = $1", [person.accountId])).toHaveLength(0);
    await page.screenshot({ path: screenshotPath("whatsapp-request-error-nojs"), fullPage: true });

    await page.getByLabel("CNPJ", { exact: true }).fill("11.222.333/0001-81");
    await page.getByRole("button", { name: "Enviar solicitação", exact: true }).click();
    await page.waitForURL((u) => u.pathname === "/whatsapp/request");
    await page.getByText(`Solicitação do número (11) 9${last8.slice(0, 4)}-${last8.slice(4)} enviada`).waitFor();
    const [stored] = await query<{ id: string; phone_number: string; cnpj: string; created_at: Date }>(
      "SELECT id, phone_number, cnpj, created_at FROM whatsapp_number_requests WHERE account_id = $1",
      [person.accountId],
    );
    expect(stored).toMatchObject({ phone_number: `+55119${last8}`, cnpj: "11222333000181" });
    const row = page.locator(`tr[data-request="${stored.id}"]`);
    await row.waitFor();
    expect(await row.locator("[data-status]").textContent()).toBe("Solicitado");
    expect(await row.getByText("11.222.333/0001-81").isVisible()).toBe(true);
    expect(await row.getByText("Restaurante").isVisible()).toBe(true);
    expect(await row.locator("[data-created-at]").textContent()).toBe(formatInTimeZone(stored.created_at, "America/Sao_Paulo", "dd/MM/yy HH:mm"));
    await page.screenshot({ path: screenshotPath("whatsapp-request-listed-nojs"), fullPage: true });

    // Cancel behind the confirmation disclosure.
    await row.getByText("Cancelar", { exact: true }).click();
    await row.getByRole("button", { name: "Cancelar solicitação", exact: true }).click();
    await page.getByText(`Solicitação do número (11) 9${last8.slice(0, 4)}-${last8.slice(4)} cancelada`).waitFor();
    expect(await page.locator(`tr[data-request="${stored.id}"] [data-status]`).textContent()).toBe("Cancelado");
    expect(await page.locator(`tr[data-request="${stored.id}"]`).getByText("Cancelar", { exact: true }).count()).toBe(0);
    const [after] = await query<{ status: string }>("SELECT status FROM whatsapp_number_requests WHERE id = $1", [stored.id]);
    expect(after.status).toBe("canceled");
    await page.screenshot({ path: screenshotPath("whatsapp-request-canceled-nojs"), fullPage: true });
    await page.context().close();
  }, 90_000);
});
