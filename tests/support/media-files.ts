/**
 * Small media files made on the spot for the WhatsApp media tests: a real PNG (deflated rows,
 * CRCs), and the first bytes that make a WebP sticker, an MP4 with H.264, an OGG Opus audio and a
 * PDF what they are (their content is not played by anyone here).
 */
import { deflateSync } from "node:zlib";
import { crc32 } from "../../api/lib/crc32";

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A PNG of width x height RGB pixels (a diagonal gradient), valid to any decoder. */
export function png(width = 4, height = 3): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const rows: number[] = [];
  for (let y = 0; y < height; y++) {
    rows.push(0); // filter: none
    for (let x = 0; x < width; x++) rows.push((x * 40) & 0xff, (y * 60) & 0xff, ((x + y) * 20) & 0xff);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(Buffer.from(rows))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A lossless WebP's header for width x height (what a sticker is checked by: RIFF size, VP8L dimensions). */
export function webp(width = 512, height = 512, padding = 64): Buffer {
  const vp8l = Buffer.alloc(5 + padding);
  vp8l[0] = 0x2f;
  vp8l.writeUInt32LE(((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14), 1);
  const body = Buffer.concat([Buffer.from("WEBP"), Buffer.from("VP8L"), Buffer.from(Uint32Array.of(vp8l.length).buffer), vp8l]);
  return Buffer.concat([Buffer.from("RIFF"), Buffer.from(Uint32Array.of(body.length).buffer), body]);
}

const box = (type: string, ...parts: Buffer[]) => {
  const body = Buffer.concat(parts);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length, 0);
  head.write(type, 4, "latin1");
  return Buffer.concat([head, body]);
};

/** An MP4 (isom) whose sample description names H.264 (avc1) video and AAC (mp4a) audio. */
export function mp4(): Buffer {
  return Buffer.concat([
    box("ftyp", Buffer.from("isom"), Buffer.from([0, 0, 2, 0]), Buffer.from("isomiso2avc1mp41")),
    box("moov", box("trak", box("stsd", Buffer.alloc(8), box("avc1", Buffer.alloc(78)))), box("trak", box("stsd", Buffer.alloc(8), box("mp4a", Buffer.alloc(28))))),
    box("mdat", Buffer.alloc(256, 7)),
  ]);
}

/** An OGG page whose first packet is an Opus header. */
export function oggOpus(): Buffer {
  const page = Buffer.alloc(27);
  page.write("OggS", 0, "latin1");
  page[5] = 0x02; // beginning of stream
  page[26] = 1; // one segment
  const head = Buffer.concat([Buffer.from("OpusHead"), Buffer.from([1, 1, 0x38, 0x01, 0x80, 0xbb, 0, 0, 0, 0, 0])]);
  return Buffer.concat([page, Buffer.from([head.length]), head, Buffer.alloc(64, 1)]);
}

/** A one-page PDF. */
export function pdf(): Buffer {
  return Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");
}
