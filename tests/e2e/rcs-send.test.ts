/**
 * /rcs/send in Chromium (issue 21). With JavaScript: a carousel composed in the screen (cards added
 * with the button, a card's "open link" button) shows in the phone preview as it is typed, with the
 * rich price; Send lands on /rcs/success, and the history detail renders the cards, their titles and
 * buttons. Without JavaScript: the same form posts, "Preview" brings the server-rendered preview and
 * the price, and Send accepts it. The screens are photographed at desktop width and at 375 px,
 * where nothing is wider than the phone.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { registerPerson } from "../support/api";
import { query } from "../support/db";
import { balanceOf, makeRcsAgent, mobileNumber, setAccount } from "../support/factories";
import { hasChromium, newPage, requireChromiumInCi, screenshotPath, signIn, useBrowser } from "../support/browser";

requireChromiumInCi();

const PHONE = { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const id = (name: string) => `#rcs-${name.replaceAll(".", "-")}`;

/** What sticks out of a 375 px screen (nothing, when the page fits). */
const overflowOf = (page: Page) =>
  page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    return [...document.querySelectorAll("body *")]
      .filter((el) => {
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.right <= width + 1) return false;
        // Inside a box that scrolls sideways (a table, the carousel) is fine.
        for (let p = el.parentElement; p; p = p.parentElement)
          if (/(auto|scroll|hidden)/.test(getComputedStyle(p).overflowX) && p.getBoundingClientRect().right <= width + 1) return false;
        return true;
      })
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${String(el.className).slice(0, 60)} right=${Math.round(el.getBoundingClientRect().right)}`);
  });

describe.skipIf(!hasChromium)("RCS send in Chromium", () => {
  const browser = useBrowser();

  it("with JavaScript: a carousel composed in the screen shows in the preview as typed, is sent, and its history detail renders the cards and buttons", async () => {
    const person = await registerPerson("rcs-e2e");
    await setAccount(person.accountId, { balance: 10_000 });
    await makeRcsAgent(person.accountId, { name: "Loja Aurora" });
    const page = await newPage(browser());
    await signIn(page, person);
    await page.goto("/rcs/send");
    // Hydrated: the add buttons exist only with JavaScript.
    await page.getByRole("button", { name: "Adicionar sugestão" }).waitFor();
    const preview = page.getByTestId("rcs-preview");
    await expect.poll(() => preview.getAttribute("data-type")).toBe("text");

    await page.locator(id("content.messageText")).fill("Olá");
    await expect.poll(() => preview.textContent()).toContain("Olá");
    await expect.poll(() => page.getByTestId("rcs-price").textContent()).toMatch(/Mensagem Básica: R\$\s0,06/);

    await page.locator(id("content.type")).selectOption("card-carousel");
    await expect.poll(() => preview.getAttribute("data-type")).toBe("card-carousel");
    await page.locator(id("content.images.0.title")).fill("Tênis Azul");
    await page.locator(id("content.images.0.uri")).fill("https://loja.example/tenis.jpg");
    await page.locator(id("content.images.1.title")).fill("Bota Marrom");
    await expect.poll(() => preview.locator("[data-preview=card-title]").allInnerTexts()).toEqual(["Tênis Azul", "Bota Marrom"]);
    // A third card, then a button on the first.
    expect(await page.locator(id("content.images.2.title")).isVisible()).toBe(false);
    await page.getByRole("button", { name: "Adicionar cartão" }).click();
    await page.locator(id("content.images.2.title")).fill("Chinelo");
    const first = page.locator("[data-card-slot='0']");
    await first.getByRole("button", { name: "Adicionar botão" }).click();
    await page.locator(id("content.images.0.suggestions.0.type")).selectOption("url");
    await page.locator(id("content.images.0.suggestions.0.text")).fill("Comprar");
    await page.locator(id("content.images.0.suggestions.0.url")).fill("https://loja.example/tenis");
    await expect.poll(() => preview.locator("[data-preview=card]").count()).toBe(3);
    await expect.poll(() => preview.locator("[data-preview=card-button]").allInnerTexts()).toEqual(["↗ Comprar"]);
    await expect.poll(() => page.getByTestId("rcs-price").textContent()).toMatch(/Mensagem Rica: R\$\s0,18/);
    await page.locator(id("to")).fill(mobileNumber());
    await page.screenshot({ path: screenshotPath("rcs-send-carousel"), fullPage: true });

    await page.getByRole("button", { name: "Enviar", exact: true }).click();
    await page.waitForURL((u) => u.pathname === "/rcs/success");
    const messageId = new URL(page.url()).searchParams.get("id")!;
    await expect.poll(() => page.getByTestId("rcs-preview").locator("[data-preview=card-title]").allInnerTexts()).toEqual(["Tênis Azul", "Bota Marrom", "Chinelo"]);
    expect(await balanceOf(person.accountId)).toBe(10_000 - 18);
    await page.screenshot({ path: screenshotPath("rcs-success"), fullPage: true });

    await page.getByRole("link", { name: "Ver a mensagem" }).click();
    await page.waitForURL((u) => u.pathname === `/rcs/history/${messageId}`);
    const shown = page.getByTestId("rcs-preview");
    await expect.poll(() => shown.locator("[data-preview=card-title]").allInnerTexts()).toEqual(["Tênis Azul", "Bota Marrom", "Chinelo"]);
    expect(await shown.locator("[data-preview=card-button]").allInnerTexts()).toEqual(["↗ Comprar"]);
    expect(await shown.locator("[data-preview=agent]").textContent()).toBe("Loja Aurora");
    expect(await shown.locator("[data-preview=image]").count()).toBe(1);
    await page.screenshot({ path: screenshotPath("rcs-history-detail"), fullPage: true });

    // At 375 px: the composer, the list and the detail fit the phone.
    const phone = await newPage(browser(), PHONE);
    await signIn(phone, person);
    for (const [path, name] of [
      ["/rcs/send", "rcs-send-375"],
      ["/rcs/history", "rcs-history-375"],
      [`/rcs/history/${messageId}`, "rcs-history-detail-375"],
    ]) {
      await phone.goto(path);
      // The composer hydrated: the fields of other types and the empty slots are hidden (without JavaScript every slot shows).
      if (path === "/rcs/send") await phone.getByRole("button", { name: "Adicionar sugestão" }).waitFor();
      await phone
        .locator(path === "/rcs/history" ? "table" : "[data-testid=rcs-preview]")
        .first()
        .waitFor();
      expect(await overflowOf(phone), path).toEqual([]);
      await phone.screenshot({ path: screenshotPath(name), fullPage: true });
    }
  });

  it("without JavaScript: Preview shows the server-rendered preview and price, and Send accepts the carousel", async () => {
    const person = await registerPerson("rcs-e2e-nojs");
    await setAccount(person.accountId, { balance: 10_000 });
    await makeRcsAgent(person.accountId, { name: "Loja Sem JS" });
    const page = await newPage(browser(), { javaScriptEnabled: false });
    await signIn(page, person);
    await page.goto("/rcs/send");
    // Every card slot is there, in its <details>.
    expect(await page.locator("[data-card-slot]").count()).toBe(10);
    await page.locator(id("content.type")).selectOption("card-carousel");
    await page.locator(id("to")).fill(mobileNumber());
    await page.locator(id("content.images.0.title")).fill("Produto Um");
    // A card's buttons are folded without JavaScript.
    await page.locator("[data-card-slot='0']").getByText("Botões (até 4)").click();
    await page.locator(id("content.images.0.suggestions.0.type")).selectOption("reply");
    await page.locator(id("content.images.0.suggestions.0.text")).fill("Quero");
    await page.locator(id("content.images.1.title")).fill("Produto Dois");
    expect(await page.getByTestId("rcs-price").textContent()).toContain("Clique em Pré-visualizar para ver o preço.");

    await page.getByRole("button", { name: "Pré-visualizar", exact: true }).click();
    await page.waitForLoadState();
    const preview = page.getByTestId("rcs-preview");
    expect(await preview.getAttribute("data-type")).toBe("card-carousel");
    expect(await preview.locator("[data-preview=card-title]").allInnerTexts()).toEqual(["Produto Um", "Produto Dois"]);
    expect(await preview.locator("[data-preview=card-button]").allInnerTexts()).toEqual(["Quero"]);
    expect(await page.getByTestId("rcs-price").textContent()).toMatch(/Mensagem Rica: R\$\s0,18/);
    expect(await query(`SELECT 1 FROM messages WHERE account_id = $1`, [person.accountId])).toHaveLength(0);
    await page.screenshot({ path: screenshotPath("rcs-send-nojs-preview"), fullPage: true });

    await page.getByRole("button", { name: "Enviar", exact: true }).click();
    await page.waitForURL((u) => u.pathname === "/rcs/success");
    expect(await page.getByTestId("rcs-preview").locator("[data-preview=card-title]").allInnerTexts()).toEqual(["Produto Um", "Produto Dois"]);
    expect(await balanceOf(person.accountId)).toBe(10_000 - 18);
  });
});
