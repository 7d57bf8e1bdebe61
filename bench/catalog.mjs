#!/usr/bin/env node
/**
 * Catalogue images (issue 22, ADR 059): what one upload's check costs — the same sharp pipeline
 * as api/catalog/images.ts `checkImage` (header read, then full decode with failOn "warning" into
 * the 160x160 WebP thumbnail) — on 500x500 images: a flat PNG, a PNG of random pixels (about 750 KB:
 * the worst case for the decoder), and a JPEG of the same noise. Prints uploads checked per second, one at a time and two
 * at a time (the machine's two cores), and the thumbnail's size.
 * Run: `node bench/catalog.mjs` (BENCH_N: images per case, default 200). No database needed.
 */
import { randomBytes } from "node:crypto";
import sharp from "sharp";

sharp.cache(false);
const N = Number(process.env.BENCH_N ?? 200);
const SIDE = 500;

async function check(bytes) {
  const meta = await sharp(bytes).metadata();
  if ((meta.format !== "png" && meta.format !== "jpeg") || meta.width !== SIDE || meta.height !== SIDE) throw new Error("refused");
  return sharp(bytes, { failOn: "warning", limitInputPixels: SIDE * SIDE })
    .rotate()
    .resize(160, 160, { fit: "cover" })
    .webp({ quality: 80 })
    .toBuffer();
}

const noise = randomBytes(SIDE * SIDE * 3);
const cases = {
  "flat PNG": await sharp({ create: { width: SIDE, height: SIDE, channels: 3, background: "#0b57d0" } })
    .png()
    .toBuffer(),
  "noisy PNG": await sharp(noise, { raw: { width: SIDE, height: SIDE, channels: 3 } })
    .png()
    .toBuffer(),
  "noisy JPEG q90": await sharp(noise, { raw: { width: SIDE, height: SIDE, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer(),
};

console.log(`catalogue image check (sharp ${sharp.versions.sharp}, libvips ${sharp.versions.vips}), ${N} images per case`);
for (const [name, bytes] of Object.entries(cases)) {
  const thumb = await check(bytes);
  for (const parallel of [1, 2]) {
    const started = performance.now();
    for (let done = 0; done < N; done += parallel) await Promise.all(Array.from({ length: parallel }, () => check(bytes)));
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `${name.padEnd(15)} ${(bytes.byteLength / 1024).toFixed(0).padStart(5)} KB  ${parallel} at a time: ${(N / seconds).toFixed(0).padStart(5)} uploads/s (${((seconds * 1000) / N).toFixed(1)} ms each), thumbnail ${thumb.byteLength} bytes`,
    );
  }
}
