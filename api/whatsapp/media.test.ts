/**
 * The checks of a WhatsApp send's file (./media.ts) that need no stack: a PNG decodes only whole
 * (CRCs, the rows' exact size, filter bytes), a JPEG only with its frame, scan and end marker,
 * and a file is refused while it streams, once it passes the limit, without reading the rest.
 */
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { png } from "../../tests/support/media-files";
import { crc32 } from "../lib/crc32";

process.env.UPLOAD_DIR = mkdtempSync(join(tmpdir(), "wa-media-unit-"));
const { jpegDecodes, mediaTooLarge, pngDecodes } = await import("./media");
const { spoolFile, liveFilesDir } = await import("../live/uploads");

/** A structurally whole baseline JPEG of 1x1 (the checker reads its segments, not its pixels). */
function jpeg(opts: { end?: boolean; frame?: boolean } = {}): Buffer {
  const seg = (marker: number, body: number[]) => [0xff, marker, ((body.length + 2) >> 8) & 0xff, (body.length + 2) & 0xff, ...body];
  return Buffer.from([
    0xff,
    0xd8,
    ...seg(0xe0, [...Buffer.from("JFIF\0"), 1, 1, 0, 0, 1, 0, 1, 0, 0]),
    ...seg(0xdb, [0, ...Array(64).fill(1)]),
    ...(opts.frame === false ? [] : seg(0xc0, [8, 0, 1, 0, 1, 1, 1, 0x11, 0])),
    ...seg(0xc4, [
      0,
      ...Array(16)
        .fill(0)
        .map((_, i) => (i === 0 ? 1 : 0)),
      0,
    ]),
    ...seg(0xda, [1, 1, 0, 0, 63, 0]),
    0x12,
    0xff,
    0x00,
    0x34,
    ...(opts.end === false ? [] : [0xff, 0xd9]),
  ]);
}

describe("image decoding", () => {
  it("a whole PNG decodes; cut, with a flipped byte, with rows of the wrong size or a bad filter byte it does not", async () => {
    expect(await pngDecodes(png(33, 17))).toBe(true);
    const whole = png(40, 20);
    expect(await pngDecodes(whole.subarray(0, whole.length - 12))).toBe(false); // no IEND
    const flipped = Buffer.from(whole);
    flipped[45] ^= 0x01; // inside IDAT: its CRC no longer matches
    expect(await pngDecodes(flipped)).toBe(false);
    // A header that claims more rows than the data has.
    const taller = Buffer.from(whole);
    taller.writeUInt32BE(21, 20);
    taller.writeUInt32BE(crc32(taller.subarray(12, 29)), 29);
    expect(await pngDecodes(taller)).toBe(false);
    // Filter byte 9 on a row: not a PNG filter.
    const rows = Buffer.alloc(3 * (1 + 2 * 3));
    rows[0] = 9;
    const bad = pngWith(2, 3, deflateSync(rows));
    expect(await pngDecodes(bad)).toBe(false);
    expect(await pngDecodes(pngWith(2, 3, deflateSync(Buffer.alloc(3 * 7))))).toBe(true);
  });

  it("a JPEG needs its frame, a scan and the end marker", () => {
    expect(jpegDecodes(jpeg())).toBe(true);
    expect(jpegDecodes(jpeg({ end: false }))).toBe(false);
    expect(jpegDecodes(jpeg({ frame: false }))).toBe(false);
    expect(jpegDecodes(Buffer.from([0xff, 0xd8, 0xff, 0xd9]))).toBe(false);
  });
});

describe("streaming limit", () => {
  it("a 1 GB upload is refused once it passes the limit: the rest is never read and nothing stays on disk", async () => {
    const chunk = new Uint8Array(1024 * 1024);
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled >= 1024 * chunk.length) return controller.close();
        pulled += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const limit = 14_680_064;
    await expect(spoolFile(stream, limit, () => mediaTooLarge("image"))).rejects.toMatchObject({
      code: "LIVE_FILE_TOO_LARGE",
      fields: { file: ["validation.waMediaSize::14"] },
    });
    expect(pulled).toBeLessThanOrEqual(limit + 2 * chunk.length);
    expect(readdirSync(join(liveFilesDir(), "incoming"))).toEqual([]);
  });
});

/** A PNG of 8-bit RGB pixels with the given (already deflated) IDAT data. */
function pngWith(width: number, height: number, idat: Buffer): Buffer {
  const base = png(width, height);
  const ihdr = base.subarray(8, 8 + 25);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(idat.length, 0);
  head.write("IDAT", 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), idat])), 0);
  return Buffer.concat([base.subarray(0, 8), ihdr, head, idat, crc, base.subarray(base.length - 12)]);
}
