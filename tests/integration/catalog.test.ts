/**
 * The product catalogue (issue 22) through the real API and web processes, PostgreSQL and the
 * disk: every field rule of spec sections 3 and 5 (refused with a translated message naming the
 * field), images decoded by sharp (JPG/PNG only, exactly 500x500, at most 8 MB — by the declared
 * length and while streaming — a corrupted file refused, a retried upload one image, the 160x160
 * WebP thumbnail, ETag and 304), signed image links, tenant scoping (another account's product,
 * image or thumbnail is a 404 and stays untouched), the roles, the screens without JavaScript
 * (create, edit, upload refused and accepted, bulk delete, the published list and the RCS and
 * WhatsApp send screens prefilled from a product) and the demo seed.
 */
import sharp from "sharp";
import { inject } from "vitest";
import { beforeAll, describe, expect, it } from "vitest";
import { simulatedAppSecret } from "../../api/simulator/whatsapp-cloud";
import { api, login } from "../support/api";
import { query } from "../support/db";
import { giveOmni, makeRcsAgent } from "../support/factories";
import { location, signedInCustomer, type WebCustomer } from "../support/web";

let a: WebCustomer;
let b: WebCustomer;
let aToken: string;
let bToken: string;

const solid = (width: number, height: number, colour: string, format: "png" | "jpeg" | "gif" | "webp" = "png") =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    .toFormat(format)
    .toBuffer();
/** A PNG that does not compress (random pixels), so cutting it leaves a truncated stream. */
const noisy = (width: number, height: number) => {
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 2654435761) >>> 24;
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
};

async function upload(token: string, productId: string, bytes: Uint8Array, name = "foto.png", type = "image/png", lang = "en") {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)], { type }), name);
  const res = await fetch(new URL(`/api/catalog/products/${productId}/images`, inject("apiUrl")), {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Accept-Language": lang },
    body: form,
  });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: res.status, body, headers: res.headers };
}

async function bytesOf(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(new URL(path, inject("apiUrl")), { headers });
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}

async function newProduct(token: string, body: Record<string, unknown> = {}) {
  const res = await api("/api/catalog/products", { token, body: { name: "Produto teste", price_cents: 10_000, ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: string; name: string; images: Array<{ id: string; url: string; thumbnail_url: string }> };
}

beforeAll(async () => {
  [a, b] = await Promise.all([signedInCustomer("cata"), signedInCustomer("catb")]);
  [aToken, bToken] = await Promise.all([login(a.email, "Demo!Mensa#2026").then((t) => t.token), login(b.email, "Demo!Mensa#2026").then((t) => t.token)]);
});

describe("catalogue products over the API", () => {
  it("creates (201, Location), reads, changes part of, searches and deletes a product, in the account's currency", async () => {
    const res = await api("/api/catalog/products", {
      token: aToken,
      body: {
        name: "Cafeteira elétrica",
        description: "Prepara até 30 xícaras.",
        brand: "Quente",
        model: "CF-30",
        reference: "CAF-030",
        barcode: "7891000000001",
        included_items: "Jarra de vidro",
        additional_message: "Voltagem 127 V",
        warranty: "5_months",
        weight_grams: 1800,
        price_cents: 19_990,
        discount_cents: 2_000,
        url: "https://loja.example/cafeteira",
        published_channels: ["whatsapp"],
      },
    });
    expect(res.status).toBe(201);
    const p = res.body.data;
    expect(res.headers.get("location")).toBe(`/api/catalog/products/${p.id}`);
    expect(p).toMatchObject({
      account_id: a.accountId,
      warranty: "5_months",
      weight_grams: 1800,
      currency: "BRL",
      price_cents: 19_990,
      discount_cents: 2_000,
      final_price_cents: 17_990,
      published_channels: ["whatsapp"],
      images: [],
    });
    const read = await api(`/api/catalog/products/${p.id}`, { token: aToken });
    expect(read.status).toBe(200);
    expect(read.body.data.name).toBe("Cafeteira elétrica");

    const changed = await api(`/api/catalog/products/${p.id}`, { token: aToken, method: "PUT", body: { price_cents: 21_000, published_channels: ["rcs", "whatsapp"] } });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ name: "Cafeteira elétrica", brand: "Quente", price_cents: 21_000, discount_cents: 2_000, published_channels: ["rcs", "whatsapp"] });

    for (const q of ["cafeteira", "QUENTE", "CAF-030", "7891000000001", "cf-30"]) {
      const found = await api(`/api/catalog/products?q=${encodeURIComponent(q)}`, { token: aToken });
      expect(
        found.body.data.map((x: { id: string }) => x.id),
        q,
      ).toEqual([p.id]);
    }
    expect((await api(`/api/catalog/products?published=rcs`, { token: aToken })).body.data.map((x: { id: string }) => x.id)).toContain(p.id);

    const gone = await api(`/api/catalog/products/${p.id}`, { token: aToken, method: "DELETE" });
    expect(gone.body).toEqual({ deleted: 1 });
    expect((await api(`/api/catalog/products/${p.id}`, { token: aToken })).status).toBe(404);
  });

  it("refuses each field against its rule with a translated message naming it, and takes the limits exactly", async () => {
    const refused: Array<[Record<string, unknown>, string, string]> = [
      [{ name: "" }, "name", "Required"],
      [{ name: "x".repeat(101) }, "name", "100"],
      [{ description: "d".repeat(201) }, "description", "200"],
      [{ brand: "b".repeat(101) }, "brand", "100"],
      [{ model: "m".repeat(101) }, "model", "100"],
      [{ reference: "r".repeat(101) }, "reference", "100"],
      [{ included_items: "i".repeat(201) }, "included_items", "200"],
      [{ additional_message: "a".repeat(201) }, "additional_message", "200"],
      [{ barcode: "789ABC" }, "barcode", "The barcode takes digits only"],
      [{ barcode: "1".repeat(15) }, "barcode", "14"],
      [{ warranty: "2_years" }, "warranty", ""],
      [{ weight_grams: -1 }, "weight_grams", "0"],
      [{ weight_grams: "1.5" }, "weight_grams", ""],
      [{ price_cents: -5 }, "price_cents", "0"],
      [{ price_cents: 1000, discount_cents: 1001 }, "discount_cents", "The discount cannot be above the price"],
      [{ url: "ftp://loja.example/x" }, "url", ""],
      [{ url: "not a url" }, "url", ""],
      [{ published_channels: ["sms"] }, "published_channels.0", ""],
    ];
    for (const [body, field, text] of refused) {
      const res = await api("/api/catalog/products", { token: aToken, lang: "en", body: { name: "Válido", ...body } });
      expect(res.status, `${JSON.stringify(body)} -> ${JSON.stringify(res.body)}`).toBe(422);
      expect(res.body.error.fields[field], `${JSON.stringify(body)} -> ${JSON.stringify(res.body.error.fields)}`).toBeDefined();
      expect(res.body.error.fields[field].join(" ")).toContain(text);
    }
    // Portuguese by default.
    const pt = await api("/api/catalog/products", { token: aToken, body: { name: "Válido", price_cents: 100, discount_cents: 200 } });
    expect(pt.body.error.fields.discount_cents).toEqual(["O desconto não pode ser maior que o preço"]);
    // The limits themselves pass (characters, not bytes), and each warranty is taken.
    const edge = await newProduct(aToken, {
      name: "é".repeat(100),
      description: "ç".repeat(200),
      included_items: "i".repeat(200),
      additional_message: "a".repeat(200),
      barcode: "1".repeat(14),
      weight_grams: 0,
      price_cents: 500,
      discount_cents: 500,
    });
    expect(edge.name).toHaveLength(100);
    for (const warranty of ["none", "1_month", "5_months", "1_year"]) expect((await newProduct(aToken, { warranty })).id).toBeTruthy();
    // An edit is checked as a whole: a price below the stored discount is refused, nothing changes.
    const p = await newProduct(aToken, { price_cents: 1000, discount_cents: 800 });
    const lower = await api(`/api/catalog/products/${p.id}`, { token: aToken, lang: "en", method: "PUT", body: { price_cents: 700 } });
    expect(lower.status).toBe(422);
    expect(lower.body.error.fields.discount_cents).toBeDefined();
    expect((await query<{ price_cents: string }>(`SELECT price_cents FROM catalog_products WHERE id = $1`, [p.id]))[0].price_cents).toBe("1000");
  });

  it("takes a 500x500 PNG or JPG, keeps it with a 160x160 WebP thumbnail served with an ETag (304), and a retried upload is one image", async () => {
    const p = await newProduct(aToken);
    const png = await solid(500, 500, "#ff0000");
    const up = await upload(aToken, p.id, png);
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    expect(up.body.data).toMatchObject({ position: 0, content_type: "image/png", size: png.byteLength, width: 500, height: 500 });
    expect(up.headers.get("location")).toBe(up.body.data.url);

    const image = await bytesOf(up.body.data.url, { Authorization: `Bearer ${aToken}` });
    expect(image.res.status).toBe(200);
    expect(image.res.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(image.bytes).equals(png)).toBe(true);
    const etag = image.res.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    const again = await bytesOf(up.body.data.url, { Authorization: `Bearer ${aToken}`, "If-None-Match": etag });
    expect(again.res.status).toBe(304);

    const thumb = await bytesOf(up.body.data.thumbnail_url, { Authorization: `Bearer ${aToken}` });
    expect(thumb.res.status).toBe(200);
    expect(thumb.res.headers.get("content-type")).toBe("image/webp");
    expect(thumb.res.headers.get("etag")).toMatch(/^"[0-9a-f]{64}"$/);
    const meta = await sharp(thumb.bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["webp", 160, 160]);

    // The same bytes again (a retry): the same image, no second row.
    const retry = await upload(aToken, p.id, png);
    expect(retry.status).toBe(200);
    expect(retry.body.data.id).toBe(up.body.data.id);
    const jpg = await upload(aToken, p.id, await solid(500, 500, "#00ff00", "jpeg"), "foto.jpg", "image/jpeg");
    expect(jpg.status).toBe(201);
    expect(jpg.body.data).toMatchObject({ position: 1, content_type: "image/jpeg" });
    const read = await api(`/api/catalog/products/${p.id}`, { token: aToken });
    expect(read.body.data.images.map((i: { id: string }) => i.id)).toEqual([up.body.data.id, jpg.body.data.id]);

    // Removing the cover moves the next one up.
    expect((await api(`/api/catalog/products/${p.id}/images/${up.body.data.id}`, { token: aToken, method: "DELETE" })).body).toEqual({ deleted: 1 });
    const after = await api(`/api/catalog/products/${p.id}`, { token: aToken });
    expect(after.body.data.images.map((i: { id: string; position: number }) => [i.id, i.position])).toEqual([[jpg.body.data.id, 0]]);
  });

  it("refuses a wrong size, another format, a file that is not an image, a truncated one and a file over 8 MB — nothing stored", async () => {
    const p = await newProduct(aToken);
    const cases: Array<[Uint8Array, string, string]> = [
      [await solid(499, 500, "#123456"), "foto.png", "The image must be exactly 500x500 pixels; this one is 499x500"],
      [await solid(500, 501, "#123456", "jpeg"), "foto.jpg", "this one is 500x501"],
      [await solid(1000, 1000, "#123456"), "grande.png", "this one is 1000x1000"],
      [await solid(500, 500, "#123456", "gif"), "foto.png", "only JPG or PNG"],
      [await solid(500, 500, "#123456", "webp"), "foto.png", "only JPG or PNG"],
      [new TextEncoder().encode("isto não é uma imagem, só texto com nome de png"), "foto.png", "Invalid image or corrupted"],
    ];
    const full = await noisy(500, 500);
    cases.push([full.subarray(0, Math.floor(full.byteLength / 2)), "cortada.png", "Invalid image or corrupted"]);
    for (const [bytes, name, text] of cases) {
      const res = await upload(aToken, p.id, bytes, name);
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(422);
      expect(res.body.error.fields.file.join(" ")).toContain(text);
    }
    const pt = await upload(aToken, p.id, await solid(499, 500, "#123456"), "foto.png", "image/png", "pt-BR");
    expect(pt.body.error.fields.file).toEqual(["A imagem deve ter exatamente 500x500 pixels; esta tem 499x500"]);

    // Over 8 MB: refused by the declared length before it is read…
    const big = new Uint8Array(8 * 1024 * 1024 + 1);
    big.set(await solid(500, 500, "#abcdef"));
    const tooBig = await upload(aToken, p.id, big);
    expect(tooBig.status).toBe(422);
    expect(tooBig.body.error.fields.file).toEqual(["Invalid file size: the image must be at most 8 MB"]);
    // …and, with no length declared (chunked), as soon as the stream passes it.
    const boundary = "----catalogue";
    const head = new TextEncoder().encode(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.png"\r\nContent-Type: image/png\r\n\r\n`);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        if (sent === 0) c.enqueue(head);
        if (sent > 12 * 1024 * 1024) return c.close();
        c.enqueue(new Uint8Array(256 * 1024));
        sent += 256 * 1024;
      },
    });
    const chunked = await fetch(new URL(`/api/catalog/products/${p.id}/images`, inject("apiUrl")), {
      method: "POST",
      headers: { Authorization: `Bearer ${aToken}`, "Accept-Language": "en", "Content-Type": `multipart/form-data; boundary=${boundary}` },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(chunked.status).toBe(422);
    expect(((await chunked.json()) as any).error.fields.file).toEqual(["Invalid file size: the image must be at most 8 MB"]);
    expect((await query(`SELECT id FROM catalog_product_images WHERE product_id = $1`, [p.id])).length).toBe(0);
  });

  it("holds at most 8 images a product", async () => {
    const p = await newProduct(aToken);
    for (let i = 0; i < 8; i++) expect((await upload(aToken, p.id, await solid(500, 500, `#0000${(i * 16 + 15).toString(16).padStart(2, "0")}`))).status).toBe(201);
    const ninth = await upload(aToken, p.id, await solid(500, 500, "#ffffff"));
    expect(ninth.status).toBe(422);
    expect(ninth.body.error.fields.file).toEqual(["A product holds at most 8 images"]);
  });

  it("serves an image by its signed link only while the signature holds; a changed one or another extension is a 404", async () => {
    const { signedImageUrl } = await import("../../api/catalog/images");
    const p = await newProduct(aToken);
    const up = await upload(aToken, p.id, await solid(500, 500, "#336699"));
    const link = signedImageUrl(up.body.data.id, "png", 3600);
    expect((await bytesOf(link)).res.status).toBe(200);
    const thumb = await bytesOf(signedImageUrl(up.body.data.id, "webp", 3600));
    expect(thumb.res.headers.get("content-type")).toBe("image/webp");
    const tampered = link.replace(/sig=([A-Za-z0-9_-])/, (_m, c: string) => `sig=${c === "A" ? "B" : "A"}`);
    expect(tampered).not.toBe(link);
    expect((await bytesOf(tampered)).res.status).toBe(404);
    expect((await bytesOf(link.replace(".png?", ".jpg?"))).res.status).toBe(404);
    expect((await bytesOf(signedImageUrl(up.body.data.id, "png", -2 * 86_400))).res.status).toBe(404);
  });
});

describe("tenant scoping", () => {
  it("another account's product, its images and thumbnail answer 404 to every verb, and stay untouched", async () => {
    const p = await newProduct(aToken, { name: "Só da A", published_channels: ["rcs"] });
    const up = await upload(aToken, p.id, await solid(500, 500, "#445566"));
    const imageId = up.body.data.id;
    const before = await query(`SELECT * FROM catalog_products WHERE id = $1`, [p.id]);
    const attempts: Array<[string, string, unknown?]> = [
      ["GET", `/api/catalog/products/${p.id}`],
      ["PUT", `/api/catalog/products/${p.id}`, { name: "Tomado" }],
      ["DELETE", `/api/catalog/products/${p.id}`],
      ["GET", `/api/catalog/products/${p.id}/images/${imageId}`],
      ["GET", `/api/catalog/products/${p.id}/images/${imageId}/thumbnail`],
      ["DELETE", `/api/catalog/products/${p.id}/images/${imageId}`],
    ];
    for (const [method, path, body] of attempts) {
      const res = await api(path, { token: bToken, method, body });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect((await upload(bToken, p.id, await solid(500, 500, "#000001"))).status).toBe(404);
    const bulk = await api("/api/catalog/products/delete", { token: bToken, body: { ids: [p.id] } });
    expect(bulk.body).toEqual({ deleted: 0 });
    expect((await api("/api/catalog/products", { token: bToken })).body.data.map((x: { id: string }) => x.id)).not.toContain(p.id);
    expect((await api("/api/catalog/products?published=any", { token: bToken })).body.data.map((x: { id: string }) => x.id)).not.toContain(p.id);
    expect(await query(`SELECT * FROM catalog_products WHERE id = $1`, [p.id])).toEqual(before);
    expect((await query(`SELECT id FROM catalog_product_images WHERE product_id = $1`, [p.id])).length).toBe(1);
    // The screens too.
    expect((await b.client.get(`/catalog/list/${p.id}`)).status).toBe(404);
    expect((await b.client.get(`/rcs/send?product=${p.id}`)).status).toBe(404);
    const list = await (await b.client.get("/catalog/list/registered")).text();
    expect(list).not.toContain("Só da A");
  });

  it("people whose role has no catalogue are refused (403), the product roles get in", async () => {
    const analyst = await signedInCustomer("catan", { role: "analyst" });
    const token = (await login(analyst.email, "Demo!Mensa#2026")).token;
    expect((await api("/api/catalog/products", { token })).status).toBe(403);
    expect((await api("/api/catalog/products", { token, body: { name: "X" } })).status).toBe(403);
    expect(location(await analyst.client.get("/catalog/list"))).toBe("/403");
    const sales = await signedInCustomer("catsa", { role: "sales" });
    expect((await api("/api/catalog/products", { token: (await login(sales.email, "Demo!Mensa#2026")).token })).status).toBe(200);
  });
});

describe("the catalogue screens without JavaScript", () => {
  it("creates a product from the form, refuses bad fields in place, edits and publishes it", async () => {
    expect((await a.client.page("/catalog/list/new")).res.status).toBe(200);
    const bad = await a.client.post("/catalog/list/new", { intent: "save", name: "", price: "10,00", discount: "20,00", barcode: "12a" });
    expect(bad.status).toBe(422);
    const badHtml = await bad.text();
    expect(badHtml).toContain("O desconto não pode ser maior que o preço");
    expect(badHtml).toContain("O código de barras aceita só dígitos");

    const res = await a.client.post("/catalog/list/new", {
      intent: "save",
      name: "Mochila urbana",
      description: "Impermeável, 20 litros",
      brand: "Rota",
      price: "1.234,56",
      discount: "34,56",
      warranty: "1_year",
      weight_grams: "700",
      url: "https://loja.example/mochila",
    });
    expect(res.status).toBe(302);
    const path = location(res)!;
    expect(path).toMatch(/^\/catalog\/list\/[0-9a-f-]{36}$/);
    const id = path.split("/").pop()!;
    const [row] = await query<{ price_cents: string; discount_cents: string; warranty: string; weight_grams: number; account_id: string }>(
      `SELECT price_cents, discount_cents, warranty, weight_grams, account_id FROM catalog_products WHERE id = $1`,
      [id],
    );
    expect(row).toEqual({ price_cents: "123456", discount_cents: "3456", warranty: "1_year", weight_grams: 700, account_id: a.accountId });

    const page = await a.client.page(path);
    expect(page.html).toContain("Mochila urbana");
    const saved = await a.client.post(path, { intent: "save", name: "Mochila urbana", price: "1.234,56", discount: "", published_channels: "rcs" });
    expect(saved.status).toBe(302);
    const [after] = await query<{ published_channels: string[]; discount_cents: string }>(`SELECT published_channels, discount_cents FROM catalog_products WHERE id = $1`, [id]);
    expect(after).toEqual({ published_channels: ["rcs"], discount_cents: "0" });
  });

  it("refuses a 499x500 upload with its message and shows a valid one by its thumbnail", async () => {
    const p = await newProduct(aToken, { name: "Luminária" });
    const path = `/catalog/list/${p.id}`;
    await a.client.page(path);
    const wrong = new FormData();
    wrong.append("intent", "upload");
    wrong.append("file", new Blob([await solid(499, 500, "#777777")], { type: "image/png" }), "luminaria.png");
    const refused = await a.client.postMultipart(path, wrong);
    expect(refused.status).toBe(422);
    expect(await refused.text()).toContain("A imagem deve ter exatamente 500x500 pixels; esta tem 499x500");

    const right = new FormData();
    right.append("intent", "upload");
    right.append("file", new Blob([await solid(500, 500, "#777777")], { type: "image/png" }), "luminaria.png");
    const ok = await a.client.postMultipart(path, right);
    expect(ok.status).toBe(302);
    const [image] = await query<{ id: string }>(`SELECT id FROM catalog_product_images WHERE product_id = $1`, [p.id]);
    const html = (await a.client.page(path)).html;
    const thumb = new RegExp(`/api/catalog/images/${image.id}\\.webp\\?exp=\\d+&amp;sig=[A-Za-z0-9_-]+`).exec(html);
    expect(thumb).not.toBeNull();
    const served = await a.client.get(thumb![0].replace(/&amp;/g, "&"));
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/webp");

    // Without the CSRF token nothing is stored.
    const forged = new FormData();
    forged.append("intent", "upload");
    forged.append("file", new Blob([await solid(500, 500, "#888888")], { type: "image/png" }), "x.png");
    expect((await a.client.postMultipart(path, forged, { csrf: null })).status).toBe(403);
    expect((await query(`SELECT id FROM catalog_product_images WHERE product_id = $1`, [p.id])).length).toBe(1);
  });

  it("searches the list and bulk deletes the rows ticked (another account's ids are ignored)", async () => {
    const [x, y] = [await newProduct(aToken, { name: "Bule esmaltado" }), await newProduct(aToken, { name: "Bule de vidro" })];
    const theirs = await newProduct(bToken, { name: "Bule da B" });
    const list = await a.client.page("/catalog/list?q=bule");
    expect(list.html).toContain("Bule esmaltado");
    expect(list.html).not.toContain("Bule da B");
    const body = new URLSearchParams({ intent: "bulk-delete", csrf: a.client.csrf });
    for (const id of [x.id, y.id, theirs.id]) body.append("ids", id);
    const res = await a.client.request("/catalog/list?index", { method: "POST", body, headers: { "Content-Type": "application/x-www-form-urlencoded" } });
    expect(res.status).toBe(302);
    expect((await query(`SELECT id FROM catalog_products WHERE id = ANY($1::uuid[])`, [[x.id, y.id, theirs.id]])).map((r) => r.id)).toEqual([theirs.id]);
  });

  it("lists the published products with links that open /rcs/send and /whatsapp/send prefilled from the product", async () => {
    // The channels exist: a launched RCS agent, a WhatsApp number connected through the simulator.
    await makeRcsAgent(a.accountId, { name: "Loja Catálogo" });
    await giveOmni(a.accountId);
    const digits = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 10)).join("");
    const connected = await api("/api/whatsapp/numbers", {
      token: aToken,
      body: { phone_number_id: `1${digits(14)}`, waba_id: `2${digits(14)}`, access_token: `EAAG${digits(20)}`, app_secret: simulatedAppSecret(inject("simulatorApiKey")) },
    });
    expect(connected.status, JSON.stringify(connected.body)).toBe(201);
    const p = await newProduct(aToken, {
      name: "Kit churrasco",
      description: "Faca, garfo e tábua",
      price_cents: 15_990,
      url: "https://loja.example/kit",
      published_channels: ["rcs", "whatsapp"],
    });
    const img = await upload(aToken, p.id, await solid(500, 500, "#aa3300"));
    const hidden = await newProduct(aToken, { name: "Não publicado" });
    const page = await a.client.page("/catalog/list/registered");
    expect(page.html).toContain("Kit churrasco");
    expect(page.html).not.toContain(hidden.name);
    expect(page.html).toContain(`/rcs/send?product=${p.id}`);
    expect(page.html).toContain(`/whatsapp/send?product=${p.id}`);

    const rcs = await a.client.page(`/rcs/send?product=${p.id}`);
    expect(rcs.res.status).toBe(200);
    expect(rcs.html).toContain("Kit churrasco");
    expect(rcs.html).toContain("R$");
    expect(rcs.html).toContain(`/api/catalog/images/${img.body.data.id}.png?exp=`);
    expect(rcs.html).toContain("https://loja.example/kit");
    expect(rcs.html).toContain("Ver produto");

    const wa = await a.client.page(`/whatsapp/send?product=${p.id}`);
    expect(wa.res.status).toBe(200);
    expect(wa.html).toContain(`/api/catalog/images/${img.body.data.id}.png?exp=`);
    expect(wa.html).toContain("*Kit churrasco*");
  });
});

describe("the demo seed", () => {
  it("gives the demo account products with generated 500x500 cover images, some published", async () => {
    const rows = await query<{ name: string; published: number; images: number; width: number }>(
      `SELECT p.name, cardinality(p.published_channels) AS published, count(i.id)::int AS images, max(i.width) AS width
         FROM catalog_products p JOIN memberships m ON m.account_id = p.account_id JOIN users u ON u.id = m.user_id
         LEFT JOIN catalog_product_images i ON i.product_id = p.id
        WHERE u.email = 'owner@demo.example' GROUP BY p.id`,
    );
    expect(rows.length).toBeGreaterThanOrEqual(4);
    expect(rows.every((r) => r.images >= 1 && r.width === 500)).toBe(true);
    expect(rows.filter((r) => r.published > 0).length).toBeGreaterThanOrEqual(3);
  });
});
