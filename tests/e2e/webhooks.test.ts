/** /webhooks in Chromium, with and without JavaScript: create an endpoint from the form, reveal its secret, send a test event and see the attempt. */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium, newPage, requireChromiumInCi, screenshotPath, useBrowser, openNavGroup } from "../support/browser";
import { query } from "../support/db";
import { DEMO_PASSWORD } from "../support/web";

requireChromiumInCi();

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(204).end());
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe.skipIf(!hasChromium)("/webhooks in Chromium", () => {
  const browser = useBrowser();

  for (const js of [true, false]) {
    it(`a developer registers an endpoint and sees a signed test delivery (JavaScript ${js ? "on" : "off"})`, async () => {
      const page = await newPage(browser(), { javaScriptEnabled: js });
      await page.goto("/login");
      await page.getByLabel("E-mail").fill("developer@demo.example");
      await page.getByLabel("Senha").fill(DEMO_PASSWORD);
      await page.getByRole("button", { name: "Entrar", exact: true }).click();
      await page.waitForURL((u) => u.pathname === "/");
      await openNavGroup(page, "developer");
      await page.getByRole("link", { name: "Webhooks" }).first().click();
      await page.waitForURL("**/webhooks");

      const url = `${base}/e2e-${js ? "js" : "nojs"}-${Date.now()}`;
      await page.getByLabel("URL").fill(url);
      await page.getByLabel("Descrição").fill("Navegador");
      await page.getByLabel("Uma mensagem mudou de status").check();
      await page.getByRole("button", { name: "Criar endpoint" }).click();
      await page.waitForURL(/\/webhooks\/[0-9a-f-]{36}\?reveal=1$/);
      await expect(page.getByTestId("webhook-secret").textContent()).resolves.toMatch(/^whsec_/);
      const id = new URL(page.url()).pathname.split("/")[2];
      expect((await query("SELECT url, events FROM webhook_endpoints WHERE id = $1", [id]))[0]).toEqual({ url, events: ["message.status_changed"] });

      await page.getByRole("button", { name: "Enviar evento de teste" }).click();
      await expect
        .poll(async () => (await query<{ status: string }>("SELECT status FROM webhook_deliveries WHERE endpoint_id = $1", [id]))[0]?.status, {
          timeout: 15_000,
          interval: 200,
        })
        .toBe("succeeded");
      await page.goto(`/webhooks/${id}`);
      await expect(page.getByTestId("webhook-attempt").first().textContent()).resolves.toContain("HTTP 204");
      await page.screenshot({ path: screenshotPath(`webhooks-${js ? "js" : "nojs"}`), fullPage: true });
      await query("DELETE FROM webhook_endpoints WHERE id = $1", [id]);
      await page.context().close();
    });
  }
});
