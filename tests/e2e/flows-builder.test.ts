/**
 * The flow screens in Chromium (issue 20): a flow created on /flows/create, built on the canvas (a
 * message and an end added, connected through the side panel's output selects), undo / redo by
 * button and keyboard, copy / paste, saved, published and listed active v1; a question without an
 * answer path refused at publish ('O fluxo tem erros') with its step marked; without JavaScript,
 * the JSON form saves and publishes, and the list's bulk forms inactivate and refuse to enable a
 * flow whose channel is taken, naming it; a template from the gallery creates a flow that publishes.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { api, giveOmni, login, registerPerson, type Person } from "../support/api";
import { hasChromium, newPage, requireChromiumInCi, screenshotPath, signIn, useBrowser } from "../support/browser";

requireChromiumInCi();

async function omniPerson(tag: string): Promise<Person> {
  const person = await registerPerson(tag);
  await giveOmni(person.accountId);
  return person;
}

/** Creates a flow through /flows/create and answers its id (the builder opens). */
async function createOnScreen(page: Page, name: string, channel = "Webchat") {
  await page.goto("/flows/create");
  await page.getByLabel("Nome", { exact: true }).fill(name);
  await page.getByLabel("Canal", { exact: true }).selectOption({ label: channel });
  await page.getByRole("button", { name: "Criar fluxo" }).click();
  await page.waitForURL((u) => /^\/flows\/[0-9a-f-]{36}$/.test(u.pathname));
  return new URL(page.url()).pathname.split("/").pop()!;
}

const panel = (page: Page) => page.getByTestId("flow-panel");
const pick = (page: Page, id: string) => panel(page).getByLabel("Passo", { exact: true }).selectOption(id);
const check = (page: Page) => page.getByTestId("flow-check");

describe.skipIf(!hasChromium)("/flows in Chromium", () => {
  const browser = useBrowser();

  it("creates a flow, builds it on the canvas (add, connect, undo / redo, copy / paste), saves and publishes it: listed active v1", async () => {
    const person = await omniPerson("flows-e2e");
    const page = await newPage(browser());
    await signIn(page, person);
    const name = `Boas-vindas ${Date.now()}`;
    const id = await createOnScreen(page, name);
    await page.getByTestId("flow-canvas").waitFor();
    // A new flow is its start alone: it needs somewhere to go.
    await expect.poll(() => page.getByTestId("step-start").getAttribute("data-invalid")).toBe("true");

    await page.getByRole("button", { name: "+ Mensagem" }).click();
    await page.getByTestId("step-message-1").waitFor();
    await panel(page).getByLabel("Texto", { exact: true }).fill("Olá! Obrigado pelo contato.");
    await page.getByRole("button", { name: "+ Fim" }).click();
    await page.getByTestId("step-end-1").waitFor();
    await pick(page, "message-1");
    await panel(page).getByLabel("Saída seguir vai para").selectOption("end-1");
    await pick(page, "start");
    await panel(page).getByLabel("Saída seguir vai para").selectOption("message-1");
    await expect.poll(() => check(page).textContent()).toBe("Pronto para publicar");
    expect(await page.locator(".react-flow__edge").count()).toBe(2);

    // Undo and redo, by button and by keyboard.
    await page.getByRole("button", { name: "Desfazer" }).click();
    await expect.poll(() => page.getByTestId("step-start").getAttribute("data-invalid")).toBe("true");
    await expect.poll(() => page.locator(".react-flow__edge").count()).toBe(1);
    await page.getByRole("button", { name: "Refazer" }).click();
    await expect.poll(() => check(page).textContent()).toBe("Pronto para publicar");
    await page.getByRole("button", { name: "Refazer" }).focus();
    await page.keyboard.press("Control+z");
    await expect.poll(() => check(page).textContent()).not.toBe("Pronto para publicar");
    await page.keyboard.press("Control+Shift+z");
    await expect.poll(() => check(page).textContent()).toBe("Pronto para publicar");

    // Copy and paste the message: a new id, then undone.
    await pick(page, "message-1");
    await page.getByRole("button", { name: "Copiar" }).click();
    await page.getByRole("button", { name: "Colar" }).click();
    await page.getByTestId("step-message-2").waitFor();
    await page.getByRole("button", { name: "Desfazer" }).click();
    await expect.poll(() => page.getByTestId("step-message-2").count()).toBe(0);
    await expect.poll(() => check(page).textContent()).toBe("Pronto para publicar");
    // Delete: a step added and removed with the toolbar's button.
    await page.getByRole("button", { name: "+ Espera" }).click();
    await page.getByTestId("step-delay-1").waitFor();
    await page.getByRole("button", { name: "Excluir", exact: true }).click();
    await expect.poll(() => page.getByTestId("step-delay-1").count()).toBe(0);
    await expect.poll(() => check(page).textContent()).toBe("Pronto para publicar");
    await page.screenshot({ path: screenshotPath("flows-builder"), fullPage: true });
    // The canvas, its panel and toolbar pass the same axe rules as every screen (tests/e2e/accessibility.test.ts).
    const axe = await new AxeBuilder({ page })
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
      .options({ resultTypes: ["violations"] })
      .analyze();
    expect(axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`)).toEqual(
      [],
    );

    await page.getByRole("button", { name: "Salvar rascunho" }).click();
    await page.getByText("Rascunho salvo", { exact: true }).first().waitFor();
    await page.reload();
    await page.getByTestId("step-end-1").waitFor();
    await expect.poll(() => check(page).textContent()).toBe("Pronto para publicar");

    await page.getByRole("button", { name: "Publicar" }).click();
    await page.getByText("Versão 1 publicada").first().waitFor();
    await expect.poll(() => page.getByTestId("flow-status").textContent()).toBe("Ativo");

    await page.goto("/flows");
    const row = page.locator(`[data-flow-id="${id}"]`);
    expect(await row.getByTestId("flow-status").textContent()).toBe("Ativo");
    expect(await row.getByTestId("flow-version").textContent()).toBe("v1");
    expect(await row.getByRole("link", { name, exact: true }).count()).toBe(1);
  });

  it("refuses to publish a question with no answer path: 'O fluxo tem erros', the question marked", async () => {
    const person = await omniPerson("flows-e2e-faulty");
    const page = await newPage(browser());
    await signIn(page, person);
    await createOnScreen(page, "Pergunta sem saída");
    await page.getByTestId("flow-canvas").waitFor();
    await page.getByRole("button", { name: "+ Pergunta" }).click();
    await page.getByTestId("step-question-1").waitFor();
    await panel(page).getByLabel("Texto", { exact: true }).fill("Qual é o seu nome?");
    await pick(page, "start");
    await panel(page).getByLabel("Saída seguir vai para").selectOption("question-1");
    await page.getByRole("button", { name: "Publicar" }).click();
    await page.getByRole("alert").getByText("O fluxo tem erros").waitFor();
    await page.screenshot({ path: screenshotPath("flows-builder-errors"), fullPage: true });
    const question = page.getByTestId("step-question-1");
    expect(await question.getAttribute("data-invalid")).toBe("true");
    await question.getByText("A pergunta precisa de um caminho para a resposta").first().waitFor();
    expect(await page.getByTestId("step-start").getAttribute("data-invalid")).toBeNull();
    expect(await page.getByTestId("flow-status").textContent()).toBe("Rascunho");
  });

  it("without JavaScript: creates, saves the JSON form (a bad JSON refused), publishes; the list inactivates, and refuses to enable a flow whose channel is taken, naming it", async () => {
    const person = await omniPerson("flows-e2e-nojs");
    const page = await newPage(browser(), { javaScriptEnabled: false });
    await signIn(page, person);
    const id = await createOnScreen(page, "Sem JavaScript");
    const json = page.getByLabel("Definição (JSON)");
    expect(JSON.parse(await json.inputValue())).toMatchObject({ nodes: [{ id: "start", type: "start" }], edges: [] });
    // The steps and their issues, readable.
    await page.locator('[data-step="start"][data-invalid="true"]').waitFor();

    await json.fill("{ nodes: ");
    await page.getByRole("button", { name: "Salvar rascunho" }).click();
    await page.getByText("JSON inválido").waitFor();

    const draft = {
      nodes: [
        { id: "start", type: "start", position: { x: 0, y: 0 }, data: {} },
        { id: "hello", type: "message", position: { x: 0, y: 140 }, data: { text: "Olá sem JavaScript" } },
        { id: "bye", type: "end", position: { x: 0, y: 280 }, data: {} },
      ],
      edges: [
        { id: "e1", source: "start", output: "next", target: "hello" },
        { id: "e2", source: "hello", output: "next", target: "bye" },
      ],
    };
    await page.getByLabel("Definição (JSON)").fill(JSON.stringify(draft));
    await page.getByRole("button", { name: "Salvar rascunho" }).click();
    await page.getByText("Rascunho salvo", { exact: true }).first().waitFor();
    expect(await page.getByLabel("Definição (JSON)").inputValue()).toContain("Olá sem JavaScript");
    expect(await page.locator('[data-step="hello"]').textContent()).toContain("Olá sem JavaScript");
    expect(await page.locator('[data-invalid="true"]').count()).toBe(0);
    await page.getByRole("button", { name: "Publicar" }).click();
    await page.getByText("Versão 1 publicada").first().waitFor();
    expect(await page.getByTestId("flow-status").textContent()).toBe("Ativo");

    // The list: inactivate it, let another flow take the channel, then enabling it is refused naming it.
    await page.goto("/flows");
    await page.getByLabel("Selecionar Sem JavaScript").check();
    await page.getByRole("button", { name: "Inativar selecionados" }).click();
    await page.getByText("1 fluxo inativado").first().waitFor();
    expect(await page.locator(`[data-flow-id="${id}"]`).getByTestId("flow-status").textContent()).toBe("Inativo");

    const { token } = await login(person.email, person.password);
    const other = await api("/api/flow/flows", { token, body: { name: "Outro", channel: "webchat", trigger: "inbound", draft } });
    expect(other.status).toBe(201);
    expect((await api(`/api/flow/flows/${other.body.data.id}/publish`, { token, method: "POST" })).status).toBe(200);

    await page.goto("/flows?status=inactive");
    expect(await page.locator("[data-flow-id]").count()).toBe(1);
    await page.getByLabel("Selecionar Sem JavaScript").check();
    await page.getByRole("button", { name: "Ativar selecionados", exact: true }).click();
    const errors = page.getByTestId("bulk-errors");
    await errors.waitFor();
    expect(await errors.textContent()).toContain("Sem JavaScript: Este canal já pode ter um fluxo");
    await page.goto("/flows");
    expect(await page.locator(`[data-flow-id="${id}"]`).getByTestId("flow-status").textContent()).toBe("Inativo");
  });

  it("the templates gallery creates a flow from a template that publishes as it is", async () => {
    const person = await omniPerson("flows-e2e-templates");
    const page = await newPage(browser());
    await signIn(page, person);
    await page.goto("/flows/templates");
    expect(await page.locator("[data-template]").count()).toBe(5);
    await page.getByRole("link", { name: "Usar o modelo Captura de leads" }).click();
    await page.waitForURL((u) => u.pathname === "/flows/create" && u.searchParams.get("template") === "lead");
    expect(await page.getByLabel("Nome", { exact: true }).inputValue()).toBe("Captura de leads");
    await page.getByLabel("Canal", { exact: true }).selectOption({ label: "Telegram" });
    await page.getByRole("button", { name: "Criar fluxo" }).click();
    await page.waitForURL((u) => /^\/flows\/[0-9a-f-]{36}$/.test(u.pathname));
    await page.getByTestId("flow-canvas").waitFor();
    await page.getByTestId("step-phone").waitFor();
    await expect.poll(() => check(page).textContent()).toBe("Pronto para publicar");
    await page.getByRole("button", { name: "Publicar" }).click();
    await page.getByText("Versão 1 publicada").first().waitFor();
    expect(await page.getByTestId("flow-status").textContent()).toBe("Ativo");
  });
});
