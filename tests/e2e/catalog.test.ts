/**
 * The catalogue in Chromium (issue 22): a product created from /catalog/list, then on its page an
 * image of 499x500 is refused with the translated message next to the file field and nothing is
 * stored, and a 500x500 one is taken and shown by its thumbnail (the 160x160 WebP, loaded). Without
 * JavaScript (plain multipart form) and with it (Remix's fetch of the same form).
 */
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { registerPerson } from "../support/api";
import { hasChromium, newPage, openNavGroup, requireChromiumInCi, screenshotPath, signIn, useBrowser } from "../support/browser";
import { query } from "../support/db";

requireChromiumInCi();

const solid = (width: number, height: number, colour: string) =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();
const imagesOf = async (productId: string) => (await query(`SELECT id FROM catalog_product_images WHERE product_id = $1`, [productId])).length;

describe.skipIf(!hasChromium)("catalogue images in Chromium", () => {
  const browser = useBrowser();

  for (const javaScriptEnabled of [false, true]) {
    it(`${javaScriptEnabled ? "with" : "without"} JavaScript: a 499x500 image is refused, a 500x500 one is shown by its thumbnail`, async () => {
      const person = await registerPerson(javaScriptEnabled ? "cat-e2e-js" : "cat-e2e");
      const page = await newPage(browser(), { javaScriptEnabled });
      await signIn(page, person);
      await openNavGroup(page, "catalog");
      await page.getByRole("navigation", { name: "Navegação principal" }).getByRole("link", { name: "Produtos", exact: true }).click();
      await page.waitForURL((u) => u.pathname === "/catalog/list");
      await page.getByText("Nenhum produto ainda. Crie o primeiro.").waitFor();
      await page.getByRole("link", { name: "Novo produto" }).click();
      await page.waitForURL((u) => u.pathname === "/catalog/list/new");
      await page.getByLabel("Nome", { exact: true }).fill("Abajur de mesa");
      await page.getByLabel("Preço (BRL)").fill("89,90");
      await page.getByRole("button", { name: "Criar produto" }).click();
      await page.waitForURL(/\/catalog\/list\/[0-9a-f-]{36}$/);
      const productId = new URL(page.url()).pathname.split("/").pop()!;
      await page.getByText("Nenhuma imagem ainda.").waitFor();

      const file = page.getByLabel("Arquivo da imagem (JPG ou PNG, 500x500)");
      await file.setInputFiles({ name: "abajur.png", mimeType: "image/png", buffer: await solid(499, 500, "#cc8800") });
      await page.getByRole("button", { name: "Enviar imagem" }).click();
      await expect.poll(() => page.getByRole("alert").filter({ hasText: "A imagem deve ter exatamente 500x500 pixels; esta tem 499x500" }).count(), { timeout: 15_000 }).toBe(1);
      await page.screenshot({ path: screenshotPath(`catalog-image-refused-${javaScriptEnabled ? "js" : "nojs"}`), fullPage: true });
      expect(await imagesOf(productId)).toBe(0);

      await page.getByLabel("Arquivo da imagem (JPG ou PNG, 500x500)").setInputFiles({ name: "abajur.png", mimeType: "image/png", buffer: await solid(500, 500, "#cc8800") });
      await page.getByRole("button", { name: "Enviar imagem" }).click();
      const thumb = page.getByRole("img", { name: "Imagem de Abajur de mesa" });
      await thumb.waitFor();
      await expect.poll(() => thumb.evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth), { timeout: 15_000 }).toBe(160);
      expect(await thumb.getAttribute("src")).toMatch(/^\/api\/catalog\/images\/[0-9a-f-]{36}\.webp\?exp=\d+&sig=[A-Za-z0-9_-]+$/);
      await page.getByText("Capa · 500x500").waitFor();
      expect(await imagesOf(productId)).toBe(1);
      await page.screenshot({ path: screenshotPath(`catalog-image-shown-${javaScriptEnabled ? "js" : "nojs"}`), fullPage: true });

      // The list shows it by the same thumbnail.
      await page.goto("/catalog/list");
      await page.getByRole("img", { name: "Imagem de Abajur de mesa" }).waitFor();
      await page.context().close();
    });
  }
});
