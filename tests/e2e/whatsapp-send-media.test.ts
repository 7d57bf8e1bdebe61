/**
 * /whatsapp/send with a file from the computer (issue 16), in Chromium WITHOUT JavaScript: the
 * form is a plain multipart POST. Inside the contact's window an image picked from disk (a PNG)
 * goes, the page lands on /whatsapp/success, and the simulator's Graph peer receives the image by
 * a link of ours; an image over 14 MB comes back with the translated 'Invalid file size' next to
 * the file field, and nothing is sent; the form posted twice (each post with its own copy of the
 * file) sends once. With JavaScript only the chosen kind's fields show, and a PDF goes the same way.
 */
import { mkdtemp, open, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { simulatedAppSecret } from "../../api/simulator/whatsapp-cloud";
import { api, login, registerPerson } from "../support/api";
import { hasChromium, newPage, requireChromiumInCi, screenshotPath, signIn, useBrowser } from "../support/browser";
import { query } from "../support/db";
import { giveOmni, setAccount } from "../support/factories";
import { waitUntil } from "../support/loopback-peer";
import { pdf, png } from "../support/media-files";
import { handset } from "../support/whatsapp";

requireChromiumInCi();

const digits = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 10)).join("");
const sim = (path: string, body?: unknown) =>
  fetch(new URL(path, inject("simulatorUrl")), {
    method: body === undefined ? "GET" : "POST",
    headers: { Authorization: `Bearer ${inject("simulatorApiKey")}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

describe.skipIf(!hasChromium)("WhatsApp send with a file, without JavaScript", () => {
  const browser = useBrowser();

  it("a PNG picked from disk is sent and lands on success; a 15 MB image shows the translated 'Invalid file size'; a double post sends once; with JavaScript a PDF goes too", async () => {
    const person = await registerPerson("wa-media-e2e");
    await giveOmni(person.accountId);
    await setAccount(person.accountId, { balance: 10_000 });
    const { token } = await login(person.email, person.password);
    const phoneNumberId = `1${digits(14)}`;
    const wabaId = `2${digits(14)}`;
    const connected = await api("/api/whatsapp/numbers", {
      token,
      body: { phone_number_id: phoneNumberId, waba_id: wabaId, access_token: `EAAG${digits(20)}`, app_secret: simulatedAppSecret(inject("simulatorApiKey")) },
    });
    expect(connected.status).toBe(201);
    const numberId = connected.body.data.id as string;
    // The contact writes first: free-form messages (files included) go inside their 24-hour window.
    const to = handset();
    expect((await sim("/whatsapp/_sim/inbound", { waba_id: wabaId, phone_number_id: phoneNumberId, from: to, text: "Pode mandar a foto?" })).status).toBe(202);
    await expect.poll(async () => (await api(`/api/whatsapp/window?number_id=${numberId}&to=${encodeURIComponent(to)}`, { token })).body.data.open, { timeout: 15_000 }).toBe(true);

    const dir = await mkdtemp(join(tmpdir(), "wa-send-media-"));
    try {
      const page = await newPage(browser(), { javaScriptEnabled: false });
      await signIn(page, person);
      await page.goto(`/whatsapp/send?number_id=${numberId}&to=${encodeURIComponent(to)}&type=image`);
      await page.locator('[data-window="open"]').waitFor();
      expect(await page.getByLabel("Imagem", { exact: true }).isChecked()).toBe(true);
      // Without JavaScript every kind's rule is listed.
      await page.getByText("Imagem: JPEG ou PNG, até 14 MB.").waitFor();
      await page.getByText("Figurinha: WebP de 512x512 pixels, até 100 KB.").waitFor();

      // Too large: 15 MB of zeros after a PNG signature (a sparse file).
      const big = join(dir, "foto-grande.png");
      const fh = await open(big, "w");
      await fh.write(png().subarray(0, 8));
      await fh.truncate(15 * 1024 * 1024);
      await fh.close();
      await page.getByLabel("Arquivo do computador").setInputFiles(big);
      await page.getByLabel("Legenda").fill("A foto grande");
      await page.getByRole("button", { name: "Enviar", exact: true }).click();
      await page.getByText("Tamanho de arquivo inválido: até 14 MB para este tipo de mensagem").waitFor();
      expect(new URL(page.url()).pathname).toBe("/whatsapp/send");
      expect(await page.getByLabel("Legenda").inputValue()).toBe("A foto grande");
      await page.screenshot({ path: screenshotPath("whatsapp-send-media-too-large-nojs"), fullPage: true });
      expect(await query("SELECT 1 FROM messages WHERE account_id = $1 AND recipient = $2 AND direction = 'outbound'", [person.accountId, to])).toHaveLength(0);

      // A real PNG: sent, with its caption.
      const photo = png(120, 80);
      await page.getByLabel("Arquivo do computador").setInputFiles({ name: "produto.png", mimeType: "image/png", buffer: photo });
      await page.getByLabel("Legenda").fill("Nosso produto novo");
      await page.getByRole("button", { name: "Enviar", exact: true }).click();
      await page.waitForURL(/\/whatsapp\/success\?message=[0-9a-f-]{36}$/);
      await page.getByRole("heading", { name: "Mensagem aceita", level: 2 }).waitFor();
      await page.screenshot({ path: screenshotPath("whatsapp-send-media-success-nojs"), fullPage: true });
      const id = new URL(page.url()).searchParams.get("message")!;
      const [message] = await query<{ type: string; body: string }>("SELECT type, body FROM messages WHERE id = $1", [id]);
      expect(message).toMatchObject({ type: "image", body: "Nosso produto novo" });
      const peerMessages = async () => ((await (await sim(`/whatsapp/_sim/messages?to=${encodeURIComponent(to)}`)).json()) as any).data as Array<{ type: string; content: any }>;
      const out = await waitUntil("the image at the peer", async () => (await peerMessages()).find((m) => m.type === "image"));
      expect(out.content.image.caption).toBe("Nosso produto novo");
      const link = new URL(out.content.image.link);
      const fetched = await fetch(new URL(`${link.pathname}${link.search}`, inject("apiUrl")));
      expect(Buffer.from(await fetched.arrayBuffer()).equals(photo)).toBe(true);

      // The same form posted twice under its idempotency key, each post with its own copy of the file (a double submit): one message.
      await page.goto(`/whatsapp/send?number_id=${numberId}&to=${encodeURIComponent(to)}&type=image`);
      const fields: Record<string, string> = {};
      for (const input of await page.locator("form#whatsapp-send").locator("input[name], select[name], textarea[name]").all()) {
        const type = await input.getAttribute("type");
        if (type === "file" || (type === "radio" && !(await input.isChecked()))) continue;
        fields[(await input.getAttribute("name"))!] = await input.inputValue();
      }
      const again = png(30, 30);
      const post = () =>
        page.request.post("/whatsapp/send", {
          multipart: { ...fields, caption: "De novo", media_file: { name: "de-novo.png", mimeType: "image/png", buffer: again }, intent: "send" },
          maxRedirects: 0,
        });
      const [first, second] = await Promise.all([post(), post()]);
      expect(first.status()).toBe(302);
      expect(second.headers().location).toBe(first.headers().location);
      const twice = await query<{ id: string }>("SELECT id FROM messages WHERE account_id = $1 AND recipient = $2 AND body = 'De novo'", [person.accountId, to]);
      expect(twice).toHaveLength(1);
      // The second copy is not kept: only the file the message carries.
      expect(await query("SELECT 1 FROM live_files WHERE account_id = $1 AND size = $2", [person.accountId, again.length])).toHaveLength(1);
      await page.context().close();

      // With JavaScript the form shows the chosen kind's rule and fields only, and sends the same way.
      const js = await newPage(browser());
      await signIn(js, person);
      await js.goto(`/whatsapp/send?number_id=${numberId}&to=${encodeURIComponent(to)}&type=document`);
      await js.waitForLoadState("networkidle");
      await js.getByText("Documento: PDF, DOC, DOCX, XLS, XLSX, PPT, PPTX ou TXT, até 100 MB.").waitFor();
      await expect.poll(() => js.getByText("Imagem: JPEG ou PNG, até 14 MB.").count()).toBe(0);
      expect(await js.getByLabel("Arquivo do computador").getAttribute("accept")).toContain(".pdf");
      await js.getByLabel("Arquivo do computador").setInputFiles({ name: "nota.pdf", mimeType: "application/pdf", buffer: pdf() });
      await js.getByLabel("Legenda").fill("Sua nota fiscal");
      await js.getByRole("button", { name: "Enviar", exact: true }).click();
      await js.waitForURL(/\/whatsapp\/success\?message=[0-9a-f-]{36}$/);
      const [doc] = await query<{ type: string; content: any }>("SELECT type, content FROM messages WHERE id = $1", [new URL(js.url()).searchParams.get("message")]);
      expect(doc.type).toBe("document");
      expect(doc.content.document).toMatchObject({ caption: "Sua nota fiscal", filename: "nota.pdf" });
      await js.context().close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
