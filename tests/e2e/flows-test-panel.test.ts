/**
 * The builder's test panel in Chromium (issue 20): a flow made from the welcome template, opened on
 * /flows/{id}; the test starts (the bot's greeting and its question with buttons), a button answers,
 * the bot's reply and the end show, the variables list the answer; a wrong typed answer is retried.
 * With JavaScript through the fetcher (the canvas stays, unsaved changes are flagged); without it
 * through the plain forms, the transcript carried from post to post. Nothing reaches a room.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { flowTemplate } from "../../api/flows/templates";
import { api, giveOmni, login, registerPerson } from "../support/api";
import { query } from "../support/db";
import { hasChromium, newPage, requireChromiumInCi, signIn, useBrowser } from "../support/browser";

requireChromiumInCi();

/** A turn is a round trip (a page load without JavaScript) on a busy machine: bounded, generously. */
const SETTLE = { timeout: 20_000, interval: 100 };
const transcript = (page: Page) => page.getByTestId("flow-test-transcript");
const said = async (page: Page) => (await transcript(page).locator("li").allInnerTexts()).map((s) => s.replace(/\s+/g, " ").trim());

describe.skipIf(!hasChromium)("/flows/{id} test panel in Chromium", () => {
  const browser = useBrowser();

  for (const javaScriptEnabled of [true, false]) {
    it(`runs the welcome template's draft: start, a button answer, the bot's reply, a retry (${javaScriptEnabled ? "with" : "without"} JavaScript)`, async () => {
      const person = await registerPerson(`flows-test-${javaScriptEnabled ? "js" : "nojs"}`);
      await giveOmni(person.accountId);
      const { token } = await login(person.email, person.password);
      const created = await api("/api/flow/flows", { token, body: { name: "Boas-vindas", channel: "webchat", trigger: "inbound", draft: flowTemplate("welcome", "pt-BR") } });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = created.body.data.id as string;

      const page = await newPage(browser(), { javaScriptEnabled });
      await signIn(page, person);
      await page.goto(`/flows/${id}`);
      if (javaScriptEnabled) await page.getByTestId("flow-canvas").waitFor();
      const panel = page.getByTestId("flow-test");
      await panel.getByText("Inicie o teste para ver as primeiras mensagens do bot.").waitFor();

      await panel.getByRole("button", { name: "Iniciar teste" }).click();
      await expect.poll(() => said(page), SETTLE).toEqual(["Bot: Olá! Que bom ter você por aqui.", "Bot: Como podemos ajudar? Horários Falar com uma pessoa"]);

      // A wrong typed answer: retried with the template's retry message.
      await panel.getByLabel("Mensagem do visitante").fill("talvez");
      await panel.getByRole("button", { name: "Enviar" }).click();
      await expect.poll(async () => (await said(page)).slice(2, 4), SETTLE).toEqual(["Visitante: talvez", "Validação falhou, tentar de novo (restam 1)"]);

      // A button answers with its text.
      await panel.getByRole("button", { name: 'Responder "Horários"' }).click();
      await expect
        .poll(async () => (await said(page)).slice(5), SETTLE)
        .toEqual(["Visitante: Horários", "Bot: Atendemos de segunda a sexta, das 8h às 18h.", "Bot: Obrigado pelo contato!", "Encerrado"]);
      // The earlier turns are still there, and the variables list the answer.
      expect((await said(page)).slice(0, 1)).toEqual(["Bot: Olá! Que bom ter você por aqui."]);
      expect([await panel.getByTestId("flow-test-vars").locator("dt").textContent(), await panel.getByTestId("flow-test-vars").locator("dd").textContent()]).toEqual([
        "option",
        "Horários",
      ]);
      expect(await panel.getByTestId("flow-test-status").textContent()).toBe("Encerrado");
      expect(await panel.getByLabel("Mensagem do visitante").count()).toBe(0);

      if (javaScriptEnabled) {
        // The fetcher posted: still the builder, canvas in place; a change on the canvas is flagged as unsaved.
        expect(new URL(page.url()).pathname).toBe(`/flows/${id}`);
        expect(await page.getByTestId("flow-canvas").count()).toBe(1);
        expect(await panel.getByTestId("flow-test-unsaved").count()).toBe(0);
        await page.getByRole("button", { name: "+ Mensagem" }).click();
        await panel.getByTestId("flow-test-unsaved").waitFor({ timeout: 20_000 });
      }

      // Restart: a fresh conversation.
      await panel.getByRole("button", { name: "Reiniciar" }).click();
      await expect.poll(() => said(page), SETTLE).toEqual(["Bot: Olá! Que bom ter você por aqui.", "Bot: Como podemos ajudar? Horários Falar com uma pessoa"]);

      // Nothing was written for the account: no room, no bot message, no stream.
      const [n] = await query<{ n: string }>(
        `SELECT ((SELECT count(*) FROM live_rooms WHERE account_id = $1) + (SELECT count(*) FROM live_messages WHERE account_id = $1) + (SELECT count(*) FROM flow_streams WHERE account_id = $1))::text AS n`,
        [person.accountId],
      );
      expect(n.n).toBe("0");
    });
  }
});
