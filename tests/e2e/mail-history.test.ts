/**
 * /mail/history, /mail/history/{id}, /mail/exports and /mail/denylist in Chromium (issue 17),
 * with and without JavaScript, on e-mails sent through the real pipeline to the local SMTP peer
 * (one delivered, one bounced at RCPT): the history lists both, the bounced one's status tooltip
 * names its error code; a status filter keeps it alone; its detail shows the events and the e-mail
 * rendered in a sandboxed frame; Export queues the filtered history and /mail/exports offers the
 * CSV, downloaded for real; an address added on /mail/denylist is listed.
 */
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { api, login, registerPerson } from "../support/api";
import { hasChromium, newPage, requireChromiumInCi, screenshotPath, signIn, useBrowser } from "../support/browser";
import { query } from "../support/db";
import { rand, validatedDomain } from "../support/email";
import { setAccount } from "../support/factories";

requireChromiumInCi();

describe.skipIf(!hasChromium)("/mail/history in Chromium", () => {
  const browser = useBrowser();

  for (const javaScriptEnabled of [true, false]) {
    const tag = javaScriptEnabled ? "js" : "nojs";
    it(`${javaScriptEnabled ? "with" : "without"} JavaScript: history with tooltips, detail with the rendered e-mail, export and its CSV, the deny list form`, async () => {
      const person = await registerPerson(`mail-history-${tag}`);
      await setAccount(person.accountId, { balance: 100 });
      const token = (await login(person.email, person.password)).token;
      const { domain } = await validatedDomain(token);
      const ids: Record<string, string> = {};
      for (const local of ["ana", "bounce"]) {
        const res = await api("/api/email/messages", {
          token,
          body: { from: `loja@${domain}`, to: `${local}-${rand()}@destino.test`, subject: `Pedido ${local}`, html: `<h1>Pedido ${local}</h1>`, text: `Pedido ${local}` },
        });
        expect(res.status, JSON.stringify(res.body)).toBe(202);
        ids[local] = res.body.data.messages[0].id;
      }
      await expect
        .poll(
          async () => (await query<{ status: string }>("SELECT status FROM messages WHERE id = ANY($1::uuid[]) ORDER BY recipient", [Object.values(ids)])).map((m) => m.status),
          {
            timeout: 25_000,
            interval: 250,
          },
        )
        .toEqual(["delivered", "bounced"]);

      const page = await newPage(browser(), { javaScriptEnabled });
      await signIn(page, person);
      await page.goto("/mail/history");
      await page.locator(`[data-message-id="${ids.ana}"]`).waitFor();
      const bounced = page.locator(`[data-message-id="${ids.bounce}"] [data-col="status"]`);
      await bounced.getByText("Devolvido").waitFor();
      expect(await bounced.locator("[data-tooltip]").getAttribute("data-tooltip")).toContain("Erro smtp_550");
      if (javaScriptEnabled) {
        await bounced.getByText("Devolvido").hover();
        await expect.poll(() => bounced.getByRole("tooltip").isVisible()).toBe(true);
      }
      await page.screenshot({ path: screenshotPath(`mail-history-${tag}`), fullPage: true });

      await page.getByLabel("Status").selectOption("bounced");
      await page.getByRole("button", { name: "Filtrar" }).click();
      await page.waitForURL((u) => u.searchParams.get("status") === "bounced");
      await expect.poll(() => page.locator("[data-message-id]").count()).toBe(1);

      await page.getByRole("link", { name: /^Abrir o e-mail de / }).click();
      await page.waitForURL((u) => u.pathname === `/mail/history/${ids.bounce}`);
      await page.locator('[data-event-status="bounced"]').waitFor();
      const frame = page.frameLocator('[data-testid="email-preview"]');
      await frame.getByRole("heading", { name: "Pedido bounce" }).waitFor();
      await page.screenshot({ path: screenshotPath(`mail-history-detail-${tag}`), fullPage: true });

      await page.goBack();
      await page.getByRole("button", { name: "Exportar" }).click();
      await page.waitForURL((u) => u.pathname === "/mail/exports");
      const link = page.getByRole("link", { name: /^Baixar a exportação de / }).first();
      // The list follows the job by itself (revalidation with JavaScript, a meta refresh without).
      await link.waitFor({ timeout: 60_000 });
      const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
      const csv = (await readFile(await download.path())).toString("utf8").replace(/^\uFEFF/, "");
      const lines = csv.trim().split("\n");
      expect(lines[0]).toBe("id,created_at,sent_at,delivered_at,opened_at,sender,recipient,subject,status,error_code,error_message,price,currency");
      expect(lines.slice(1).map((l) => l.split(",")[0])).toEqual([ids.bounce]);
      await page.screenshot({ path: screenshotPath(`mail-exports-${tag}`), fullPage: true });

      await page.goto("/mail/denylist");
      const denied = `fora-${rand()}@destino.test`;
      await page.getByLabel("Endereço de e-mail").fill(denied);
      await page.getByRole("button", { name: "Adicionar à lista de bloqueio" }).click();
      await page.locator(`[data-address="${denied}"]`).waitFor();
      await page.screenshot({ path: screenshotPath(`mail-denylist-${tag}`), fullPage: true });
    }, 120_000);
  }
});
