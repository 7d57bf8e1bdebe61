/**
 * The WhatsApp rule of /integrations/{id} in Chromium (issue 23, ADR 072): with JavaScript the
 * channel shows only its own fields and the chosen template's variable fields appear at once;
 * without it the template is chosen, saved, and the answer shows its fields to fill. Both save the
 * same rule. The page passes axe (no serious or critical violation) and fits a phone's width.
 */
import AxeBuilder from "@axe-core/playwright";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { api, login } from "../support/api";
import { hasChromium, newPage, requireChromiumInCi, screenshotPath, signIn, useBrowser } from "../support/browser";
import { query } from "../support/db";
import { giveOmni } from "../support/factories";
import { DEMO_PASSWORD, signedInCustomer } from "../support/web";
import { approvedTemplate, connectCloudNumber, digits } from "../support/whatsapp";

requireChromiumInCi();

let email: string;
let integrationId: string;
let template: string;

beforeAll(async () => {
  const owner = await signedInCustomer("intwae2e", { balance: 10_000 });
  email = owner.email;
  await giveOmni(owner.accountId);
  const token = (await login(owner.email, DEMO_PASSWORD)).token;
  const n = await connectCloudNumber(token);
  template = `envio_${digits(8)}`;
  await approvedTemplate(n, { name: template, body: "Oi {{1}}, seu pedido {{2}} foi pago.", body_examples: ["Ana", "42"] });
  expect((await api("/api/settings/resources", { method: "PUT", token, body: { whatsapp_number_id: n.numberId } })).status).toBe(200);
  const res = await fetch(new URL("/nuvemshop/_sim/stores", inject("simulatorUrl")), {
    method: "POST",
    headers: { Authorization: `Bearer ${inject("simulatorApiKey")}`, "Content-Type": "application/json" },
    body: JSON.stringify({ name: "Loja E2E" }),
  });
  const store = await res.json();
  const installed = await api("/api/integrations", { token, body: { kind: "nuvemshop", ...store } });
  expect(installed.status, JSON.stringify(installed.body)).toBe(201);
  integrationId = installed.body.data.id;
});

const storedRule = async () =>
  (await query<{ channel: string; template: unknown }>(`SELECT channel, template FROM integration_rules WHERE integration_id = $1 AND event = 'order/paid'`, [integrationId]))[0];

describe.skipIf(!hasChromium)("/integrations/{id}: a WhatsApp rule in Chromium", () => {
  const browser = useBrowser();

  it("with JavaScript: WhatsApp shows the template picker instead of the text, the template's fields appear when chosen, and it saves; axe and phone width pass", async () => {
    await query(`UPDATE integration_rules SET channel = 'sms', template = NULL WHERE integration_id = $1`, [integrationId]);
    const page = await newPage(browser());
    await signIn(page, { email, password: DEMO_PASSWORD });
    await page.goto(`/integrations/${integrationId}`);
    const rule = page.locator('[data-rule="order/paid"]');
    await expect.poll(() => rule.getByLabel("Texto", { exact: true }).isVisible()).toBe(true);
    await rule.getByLabel("Canal").selectOption("whatsapp");
    await expect.poll(() => rule.getByLabel("Texto", { exact: true }).isVisible()).toBe(false);
    await rule.getByLabel("Modelo").selectOption(`${template}|pt_BR`);
    await expect.poll(() => rule.getByLabel("Valor de {{2}}").isVisible()).toBe(true);
    await expect.poll(() => rule.getByText("Oi {{1}}, seu pedido {{2}} foi pago.").isVisible()).toBe(true);
    await rule.getByLabel("Valor de {{1}}").fill("{{first_name}}");
    await rule.getByLabel("Valor de {{2}}").fill("{{order_number}}");

    const axe = await new AxeBuilder({ page })
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
      .options({ resultTypes: ["violations"] })
      .analyze();
    expect(axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.map((x) => x.target.join(" ")).join(" | ")}`)).toEqual(
      [],
    );

    await page.getByRole("button", { name: "Salvar" }).click();
    await expect.poll(async () => (await storedRule()).channel, { timeout: 10_000 }).toBe("whatsapp");
    expect((await storedRule()).template).toEqual({ name: template, language: "pt_BR", variables: ["{{first_name}}", "{{order_number}}"] });

    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(`/integrations/${integrationId}`);
    await expect.poll(() => page.locator('[data-rule="order/paid"]').getByLabel("Valor de {{2}}").inputValue()).toBe("{{order_number}}");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: screenshotPath("integrations-whatsapp-rule-phone"), fullPage: true });
    await page.context().close();
  });

  it("without JavaScript: choose the template and save, then fill the fields the answer shows, and save", async () => {
    await query(`UPDATE integration_rules SET channel = 'sms', template = NULL WHERE integration_id = $1`, [integrationId]);
    const page = await newPage(browser(), { javaScriptEnabled: false });
    await signIn(page, { email, password: DEMO_PASSWORD });
    await page.goto(`/integrations/${integrationId}`);
    const rule = page.locator('[data-rule="order/paid"]');
    await rule.getByLabel("Canal").selectOption("whatsapp");
    await rule.getByLabel("Modelo").selectOption(`${template}|pt_BR`);
    await page.getByRole("button", { name: "Salvar" }).click();
    // The answer of the post: waited for, not read once right after the click.
    await expect.poll(() => rule.getByText("Um valor para cada variável do modelo (2 no total)").isVisible(), { timeout: 10_000 }).toBe(true);
    expect((await storedRule()).channel).toBe("sms");
    await rule.getByLabel("Valor de {{1}}").fill("{{first_name}}");
    await rule.getByLabel("Valor de {{2}}").fill("Pedido {{order_number}}");
    await page.getByRole("button", { name: "Salvar" }).click();
    await expect.poll(async () => (await storedRule()).channel, { timeout: 10_000 }).toBe("whatsapp");
    expect((await storedRule()).template).toEqual({ name: template, language: "pt_BR", variables: ["{{first_name}}", "Pedido {{order_number}}"] });
    await page.screenshot({ path: screenshotPath("integrations-whatsapp-rule-nojs"), fullPage: true });
    await page.context().close();
  });
});
