/**
 * WhatsApp media from the person's computer (issue 16), against the simulator's loopback Graph
 * peer: POST /api/whatsapp/media takes a file of each kind (image, video, document, audio,
 * sticker), typed by its content, and a send names it by id as Graph does (`image: {id}`); the
 * peer receives Graph's media object with a signed link of ours that answers the very bytes.
 * Refused, translated and leaving nothing behind: a file over its kind's limit ('Invalid file
 * size', the limit in MB), content of another type than the kind (naming the types it takes), a
 * PNG that does not decode ('Invalid image or corrupted'), a sticker that is not 512x512. Another
 * account can neither read the upload, fetch its file nor send it.
 */
import { mkdtemp, open, rm } from "node:fs/promises";
import { openAsBlob } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, login, registerPerson } from "../support/api";
import { query } from "../support/db";
import { balanceOf, giveOmni, setAccount } from "../support/factories";
import { waitUntil } from "../support/loopback-peer";
import { mp4, oggOpus, pdf, png, webp } from "../support/media-files";
import { type CloudNumber, connectCloudNumber, contactWrites, digits, peerMessages } from "../support/whatsapp";

/** A Blob of bytes (copied: a Buffer may view a shared pool). */
const blobOf = (parts: Uint8Array[], opts?: BlobPropertyBag) =>
  new Blob(
    parts.map((p) => new Uint8Array(p)),
    opts,
  );
let token: string;
let accountId: string;
let numberId: string;
let n: CloudNumber;
let tmp: string;

const as = (path: string, o: { method?: string; body?: unknown; lang?: string } = {}) => api(path, { token, ...o });

/** POST /api/whatsapp/media as multipart (type before the file, as a form sends it). */
async function upload(file: Blob, name: string, type?: string, o: { token?: string; lang?: string } = {}) {
  const form = new FormData();
  if (type) form.set("type", type);
  form.set("file", file, name);
  const res = await fetch(new URL("/api/whatsapp/media", inject("apiUrl")), {
    method: "POST",
    headers: { Authorization: `Bearer ${o.token ?? token}`, "Accept-Language": o.lang ?? "en" },
    body: form,
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

const filesOf = async (account: string) => Number((await query<{ n: string }>(`SELECT count(*) AS n FROM live_files WHERE account_id = $1`, [account]))[0].n);

/** A contact who wrote to the number (the peer posts Meta's signed webhook): their window is open. */
async function contactInWindow() {
  const to = `+5511${digits(9).replace(/0001$/, "0002")}`;
  await contactWrites(n, to);
  return to;
}

beforeAll(async () => {
  const p = await registerPerson("wa-media");
  accountId = p.accountId;
  await giveOmni(accountId);
  await setAccount(accountId, { balance: 100_000 });
  token = (await login(p.email, p.password)).token;
  n = await connectCloudNumber(token);
  numberId = n.numberId;
  tmp = await mkdtemp(join(tmpdir(), "wa-media-"));
});

afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe("WhatsApp media uploads", () => {
  it("each kind is typed by its content, sent by id, and the link the peer receives answers the same bytes", async () => {
    const to = await contactInWindow();
    const text = Buffer.from("Pedido 42\nEntrega amanhã entre 8h e 12h.\n");
    const cases = [
      { kind: "image", name: "produto.png", bytes: png(64, 48), media_type: "image/png", caption: "Nosso produto" },
      { kind: "video", name: "demo.mp4", bytes: mp4(), media_type: "video/mp4", caption: "Veja como funciona" },
      { kind: "document", name: "nota.pdf", bytes: pdf(), media_type: "application/pdf", caption: "Sua nota" },
      { kind: "document", name: "pedido.txt", bytes: text, media_type: "text/plain" },
      { kind: "audio", name: "recado.ogg", bytes: oggOpus(), media_type: "audio/ogg" },
      { kind: "sticker", name: "oi.webp", bytes: webp(512, 512), media_type: "image/webp" },
    ];
    for (const c of cases) {
      // Declared as something else: the content decides.
      const up = await upload(blobOf([c.bytes], { type: "application/octet-stream" }), c.name, c.kind);
      expect(up.status, `${c.name}: ${JSON.stringify(up.body)}`).toBe(201);
      expect(up.headers.get("location")).toBe(`/api/whatsapp/media/${up.body.data.id}`);
      expect(up.body.data).toMatchObject({ type: c.kind, media_type: c.media_type, filename: c.name, size: c.bytes.length });
      const media = { id: up.body.data.id, ...(c.caption ? { caption: c.caption } : {}) };
      const sent = await as("/api/whatsapp/messages", { body: { from: numberId, to, type: c.kind, [c.kind]: media } });
      expect(sent.status, `${c.name}: ${JSON.stringify(sent.body)}`).toBe(202);
      expect(sent.body.data.status).toBe("queued");
      const out = await waitUntil(`${c.name} at the peer`, async () => (await peerMessages(to)).find((m) => m.type === c.kind && m.content[c.kind].link.includes(up.body.data.id)));
      const object = out.content[c.kind];
      expect(object.id).toBeUndefined();
      if (c.caption) expect(object.caption).toBe(c.caption);
      if (c.kind === "document") expect(object.filename).toBe(c.name);
      // The link is ours and signed: it answers the very bytes to anyone (the provider), without a session.
      const link = new URL(object.link);
      expect(link.pathname).toBe(`/api/live/files/${up.body.data.id}`);
      const fetched = await fetch(new URL(`${link.pathname}${link.search}`, inject("apiUrl")));
      expect(fetched.status).toBe(200);
      expect(fetched.headers.get("content-type")).toBe(c.media_type);
      expect(Buffer.from(await fetched.arrayBuffer()).equals(c.bytes)).toBe(true);
    }
    // Without a type, the kind is the content's; GET answers the upload with a fresh link.
    const untyped = await upload(blobOf([png()]), "sem-tipo.png");
    expect(untyped.status).toBe(201);
    expect(untyped.body.data.type).toBe("image");
    const got = await as(`/api/whatsapp/media/${untyped.body.data.id}`);
    expect(got.status).toBe(200);
    expect(got.body.data).toMatchObject({ id: untyped.body.data.id, type: "image", media_type: "image/png" });
  });

  it("a file over its kind's limit is refused while it arrives: 'Invalid file size' with the limit in MB, nothing stored, sent or debited", async () => {
    const to = await contactInWindow();
    // 15 MB of zeros after a PNG signature (sparse on disk): over the image limit of 14 MB.
    const path = join(tmp, "grande.png");
    const fh = await open(path, "w");
    await fh.write(png().subarray(0, 8));
    await fh.truncate(15 * 1024 * 1024);
    await fh.close();
    const files = await filesOf(accountId);
    const balance = await balanceOf(accountId);
    const big = await upload(await openAsBlob(path), "grande.png", "image");
    expect(big.status, JSON.stringify(big.body)).toBe(413);
    expect(big.body.error.code).toBe("LIVE_FILE_TOO_LARGE");
    expect(big.body.error.fields.file).toEqual(["Invalid file size: up to 14 MB for this kind of message"]);
    const pt = await upload(await openAsBlob(path), "grande.png", "image", { lang: "pt-BR" });
    expect(pt.body.error.fields.file).toEqual(["Tamanho de arquivo inválido: até 14 MB para este tipo de mensagem"]);
    // A sticker's limit is 100 KB.
    const sticker = await upload(blobOf([webp(512, 512, 110 * 1024)]), "grande.webp", "sticker");
    expect(sticker.status).toBe(413);
    expect(sticker.body.error.fields.file).toEqual(["Invalid file size: a sticker is at most 100 KB"]);
    expect(await filesOf(accountId)).toBe(files);
    expect(await balanceOf(accountId)).toBe(balance);
    expect(await query(`SELECT 1 FROM messages WHERE account_id = $1 AND recipient = $2 AND direction = 'outbound'`, [accountId, to])).toHaveLength(0);
  });

  it("content of another type than the kind, a PNG that does not decode and a sticker that is not 512x512 are refused, translated", async () => {
    const files = await filesOf(accountId);
    // A PDF named .png, declared image/png: its first bytes say PDF.
    const fake = await upload(blobOf([pdf()], { type: "image/png" }), "foto.png", "image");
    expect(fake.status).toBe(415);
    expect(fake.body.error.fields.file).toEqual(["Format not accepted for this kind of message: send JPEG, PNG"]);
    const es = await upload(blobOf([png()]), "foto.png", "video", { lang: "es" });
    expect(es.status).toBe(415);
    expect(es.body.error.fields.file).toEqual(["Formato no aceptado para este tipo de mensaje: envía MP4, 3GPP (H.264)"]);
    // An executable is nothing WhatsApp takes.
    const exe = await upload(blobOf([Buffer.concat([Buffer.from("MZ"), Buffer.alloc(200, 0x90)])]), "nota.pdf", "document");
    expect(exe.status).toBe(415);
    // A PNG cut short: its signature is right, its pixels are not there.
    const whole = png(64, 48);
    const cut = await upload(blobOf([whole.subarray(0, whole.length - 30)]), "cortada.png", "image");
    expect(cut.status).toBe(422);
    expect(cut.body.error.fields.file).toEqual(["Invalid image or corrupted"]);
    const small = await upload(blobOf([webp(256, 256)]), "pequena.webp", "sticker");
    expect(small.status).toBe(422);
    expect(small.body.error.fields.file).toEqual(["Invalid image or corrupted: a sticker is a 512x512 pixel WebP image"]);
    expect(await filesOf(accountId)).toBe(files);
  });

  it("another account cannot read the upload, fetch its file or send it; a kind that does not match is refused", async () => {
    const to = await contactInWindow();
    const up = await upload(blobOf([png()]), "privada.png", "image");
    expect(up.status).toBe(201);
    const id = up.body.data.id;
    const other = await registerPerson("wa-media-other");
    await giveOmni(other.accountId);
    const otherToken = (await login(other.email, other.password)).token;
    expect((await api(`/api/whatsapp/media/${id}`, { token: otherToken })).status).toBe(404);
    const file = await fetch(new URL(`/api/live/files/${id}`, inject("apiUrl")), { headers: { Authorization: `Bearer ${otherToken}` } });
    expect(file.status).toBe(404);
    // Without a session or signature: 401; a forged signature: 404.
    expect((await fetch(new URL(`/api/live/files/${id}`, inject("apiUrl")))).status).toBe(401);
    expect((await fetch(new URL(`/api/live/files/${id}?exp=${Math.floor(Date.now() / 1000) + 3600}&sig=forged`, inject("apiUrl")))).status).toBe(404);
    // Its own number sending the other account's file: not found on image.id.
    const otherNumber = await connectCloudNumber(otherToken);
    const stolen = await api("/api/whatsapp/messages", { token: otherToken, lang: "en", body: { from: otherNumber.numberId, to, type: "image", image: { id } } });
    expect(stolen.status).toBe(422);
    expect(stolen.body.error.fields["image.id"]).toEqual(["File not found: upload it again (POST /api/whatsapp/media)"]);
    // The owner's image as a document: refused naming the document types; a link and an id at once: refused.
    const asDocument = await as("/api/whatsapp/messages", { lang: "en", body: { from: numberId, to, type: "document", document: { id } } });
    expect(asDocument.status).toBe(422);
    expect(asDocument.body.error.fields["document.id"][0]).toContain("PDF, DOC, DOCX");
    const both = await as("/api/whatsapp/messages", { lang: "en", body: { from: numberId, to, type: "image", image: { id, link: "https://loja.example/a.png" } } });
    expect(both.status).toBe(422);
    expect(both.body.error.fields["image.link"]).toEqual(["Give the link or the id of an uploaded file (one of the two)"]);
  });
});
