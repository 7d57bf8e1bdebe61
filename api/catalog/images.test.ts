/**
 * The catalogue's image check (ADR 059) on images made here: exactly 500x500 JPG or PNG passes
 * with a 160x160 WebP thumbnail; another size names its own, another format, bytes that are not an
 * image and a truncated PNG are "Invalid image or corrupted", more than 8 MB "Invalid file size".
 * And the product schema's rules that need no database.
 */
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { AppError } from "../lib/errors";
import { validate } from "../lib/validate";
import { checkImage, readLimited } from "./images";
import { productSchema } from "./schemas";

const solid = (w: number, h: number, format: "png" | "jpeg" | "gif" = "png") =>
  sharp({ create: { width: w, height: h, channels: 3, background: "#3366cc" } })
    .toFormat(format)
    .toBuffer();
const fieldError = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (e) {
    if (e instanceof AppError) return e.fields?.file;
    throw e;
  }
  return undefined;
};

describe("checkImage", () => {
  it("takes a 500x500 PNG and JPEG, with a 160x160 WebP thumbnail", async () => {
    for (const format of ["png", "jpeg"] as const) {
      const checked = await checkImage(await solid(500, 500, format));
      expect([checked.contentType, checked.width, checked.height]).toEqual([format === "png" ? "image/png" : "image/jpeg", 500, 500]);
      const thumb = await sharp(checked.thumb).metadata();
      expect([thumb.format, thumb.width, thumb.height]).toEqual(["webp", 160, 160]);
    }
  });

  it("refuses another size (naming it), another format, not an image, a truncated file, more than 8 MB", async () => {
    expect(await fieldError(checkImage(await solid(499, 500)))).toEqual(["catalog.errors.imageDimensions::499x500"]);
    expect(await fieldError(checkImage(await solid(500, 499, "jpeg")))).toEqual(["catalog.errors.imageDimensions::500x499"]);
    expect(await fieldError(checkImage(await solid(500, 500, "gif")))).toEqual(["catalog.errors.imageType"]);
    expect(await fieldError(checkImage(new TextEncoder().encode("not an image at all")))).toEqual(["catalog.errors.imageInvalid"]);
    const pixels = Buffer.alloc(500 * 500 * 3);
    for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 2654435761) >>> 24;
    const png = await sharp(pixels, { raw: { width: 500, height: 500, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(await fieldError(checkImage(png.subarray(0, png.byteLength >> 1)))).toEqual(["catalog.errors.imageInvalid"]);
    expect(await fieldError(checkImage(new Uint8Array(8 * 1024 * 1024 + 1)))).toEqual(["catalog.errors.fileSize::8"]);
  });

  it("stops reading a stream as soon as it passes the limit", async () => {
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        pulled++;
        c.enqueue(new Uint8Array(1024));
      },
    });
    expect(await fieldError(readLimited(stream, 10 * 1024))).toEqual(["catalog.errors.fileSize::8"]);
    expect(pulled).toBeLessThan(20);
  });
});

describe("productSchema", () => {
  const fields = (input: Record<string, unknown>) => {
    try {
      validate(productSchema, { name: "Produto", ...input });
      return {};
    } catch (e) {
      return (e as AppError).fields ?? {};
    }
  };
  it("counts characters, not bytes, and holds each limit exactly", () => {
    expect(fields({ name: "é".repeat(100), description: "ç".repeat(200) })).toEqual({});
    expect(fields({ name: "é".repeat(101) })).toEqual({ name: ["validation.maxLength::100"] });
    expect(fields({ description: "x".repeat(201) })).toEqual({ description: ["validation.maxLength::200"] });
    expect(fields({ price_cents: 100, discount_cents: 101 })).toEqual({ discount_cents: ["catalog.errors.discountAbovePrice"] });
    expect(fields({ barcode: "12a" })).toEqual({ barcode: ["catalog.errors.barcode"] });
    expect(fields({ warranty: "2_years" })).toEqual({ warranty: ["validation.option"] });
  });
  it("reads a form's single checkbox and blank fields", () => {
    const v = validate(productSchema, { name: " Caneca ", published_channels: "rcs", weight_grams: "", warranty: "", price_cents: "1500" });
    expect(v).toMatchObject({ name: "Caneca", published_channels: ["rcs"], weight_grams: null, warranty: "none", price_cents: 1500, discount_cents: 0 });
  });
});
