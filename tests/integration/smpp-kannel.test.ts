/**
 * Kannel (Debian's `kannel`: bearerbox + smsbox) as an ESME of our SMPP server (issue 12): it binds
 * as transceiver with an SMPP user of the account, the test sends through smsbox's sendsms HTTP
 * interface and receives Kannel's delivery reports on a loopback dlr-url. Kannel asks for a
 * receipt on part 1 of a concatenated message only, and matches the receipt by the id part 1
 * was answered with; a UCS-2 text makes a receipt too long for short_message.
 * Skipped when bearerbox is not installed here; on CI (CI=true) its absence fails the run
 * (.ci/run installs the package).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { simulatedOutcome } from "../../api/simulator/outcome";
import { api, giveShortCode, login, registerPerson } from "../support/api";
import { query } from "../support/db";
import { startRecordingPeer, waitUntil, type RecordingPeer } from "../support/loopback-peer";
import { freePort } from "../support/net";
import { setAccount } from "../support/factories";

const installed = spawnSync("sh", ["-c", "command -v bearerbox && command -v smsbox"]).status === 0;
const onCi = process.env.CI === "true";

describe("Kannel installed", () => {
  it.runIf(!installed && onCi)("bearerbox and smsbox are on the PATH (apt-get install kannel)", () => {
    expect.fail("bearerbox is not installed: .ci/run installs the `kannel` package");
  });
  it.runIf(!installed && !onCi)("skipped: bearerbox is not installed (apt-get install -y kannel runs tests/integration/smpp-kannel.test.ts)", () => {});
});

describe.runIf(installed)("Kannel as an ESME of our SMPP server", () => {
  let dir: string;
  let peer: RecordingPeer;
  let code: string;
  let accountId: string;
  let sendsms: number;
  const boxes: ChildProcess[] = [];
  /** Kannel's final DLR codes: 1 delivered, 2 failed (UNDELIV, EXPIRED…). */
  const DLR = { delivered: "1", failed: "2", unavailable: "2" } as const;
  /** Kannel's DLR status is a bit set: 1 delivered, 2 failed; other bits (e.g. 32, seen as 34) only qualify them. */
  const outcomeBits = (status: string | null) => String(Number(status) & 3);

  beforeAll(async () => {
    const p = await registerPerson("smppkannel");
    accountId = p.accountId;
    const token = (await login(p.email, p.password)).token;
    await setAccount(accountId, { balance: 100000 });
    code = await giveShortCode(accountId);
    const tag = Date.now().toString(36).slice(-6);
    const u = await api("/api/smpp/users", { token, body: { system_id: `kan${tag}`, route: "T1", tps: 50 } });
    expect(u.status, JSON.stringify(u.body)).toBe(201);
    peer = await startRecordingPeer((_call, reply) => reply.send(200, { ok: true }));
    const [admin, box] = [await freePort(), await freePort()];
    sendsms = await freePort();
    dir = mkdtempSync(join(tmpdir(), "kannel-"));
    // No alt-charset: our SMSC default alphabet is GSM 03.38 (with alt-charset Kannel sends Latin-1 octets as data_coding 0).
    writeFileSync(
      join(dir, "kannel.conf"),
      `group = core
admin-port = ${admin}
admin-password = "adm"
admin-interface = "127.0.0.1"
smsbox-port = ${box}
smsbox-interface = "127.0.0.1"
box-allow-ip = "127.0.0.1"
log-file = "${dir}/bearerbox.log"
log-level = 1
dlr-storage = internal

group = smsc
smsc = smpp
smsc-id = ours
host = 127.0.0.1
port = ${inject("smppPort")}
transceiver-mode = true
smsc-username = "${u.body.data.system_id}"
smsc-password = "${u.body.password}"
system-type = ""

group = smsbox
bearerbox-host = 127.0.0.1
bearerbox-port = ${box}
sendsms-port = ${sendsms}
sendsms-interface = "127.0.0.1"
log-file = "${dir}/smsbox.log"
log-level = 1

group = sendsms-user
username = "u"
password = "p"
max-messages = 5
concatenation = true
`,
    );
    boxes.push(spawn("bearerbox", [join(dir, "kannel.conf")], { stdio: "ignore" }));
    await waitUntil(
      "bearerbox's admin port",
      () =>
        fetch(`http://127.0.0.1:${admin}/status.txt?password=adm`).then(
          (r) => r.ok,
          () => false,
        ),
      20_000,
    );
    boxes.push(spawn("smsbox", [join(dir, "kannel.conf")], { stdio: "ignore" }));
    // Kannel retries a failed connect every 10 s: bound within about that.
    await waitUntil(
      "Kannel's bind to our SMPP server",
      async () => /ours\[ours\].*\(online/.test(await (await fetch(`http://127.0.0.1:${admin}/status.txt?password=adm`)).text()),
      30_000,
    );
    await waitUntil(
      "smsbox's sendsms port",
      () =>
        fetch(`http://127.0.0.1:${sendsms}/`).then(
          () => true,
          () => false,
        ),
      20_000,
    );
  }, 90_000);

  afterAll(async () => {
    for (const b of boxes.reverse()) b.kill("SIGTERM");
    await Promise.all(boxes.map((b) => (b.exitCode === null ? new Promise((r) => b.once("exit", r)) : null)));
    await peer?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Sends through smsbox with a DLR request; answers the dlr-url's tag. */
  async function send(to: string, text: string, extra: Record<string, string> = {}) {
    const tag = `${to}-${Date.now()}`;
    const q = new URLSearchParams({
      username: "u",
      password: "p",
      from: code,
      to,
      text,
      charset: "UTF-8",
      "dlr-mask": "3",
      "dlr-url": `${peer.url}/dlr?tag=${tag}&status=%d&id=%F`,
      ...extra,
    });
    const res = await fetch(`http://127.0.0.1:${sendsms}/cgi-bin/sendsms?${q}`);
    expect(await res.text()).toMatch(/Accepted for delivery|Queued for later delivery/);
    return tag;
  }
  const dlrOf = (tag: string) => waitUntil(`Kannel's DLR ${tag}`, async () => peer.calls.find((c) => c.path === "/dlr" && c.query.get("tag") === tag), 30_000);

  it("a concatenated message (receipt asked on part 1 only) is ONE message, and Kannel gets the final DLR for the id it holds", async () => {
    const text = "Seu pedido 1234 saiu para entrega e chega amanha entre 8h e 12h. ".repeat(3).trim(); // 194 GSM-7 characters: 2 parts
    const tag = await send("5511988890001", text);
    const dlr = await dlrOf(tag);
    const id = dlr.query.get("id")!;
    const [m] = await query<Record<string, any>>("SELECT * FROM messages WHERE id = $1", [id]);
    expect(m).toMatchObject({ account_id: accountId, recipient: "+5511988890001", sender: code, body: text, segments: 2 });
    expect(outcomeBits(dlr.query.get("status"))).toBe(DLR[simulatedOutcome(id)]);
  });

  it("a UCS-2 text (coding=2) keeps ç and its receipt, too long for short_message, reaches Kannel in message_payload", async () => {
    // Curly quotes are not Latin-1: the receipt (its first 20 characters) must be UCS-2, 296 octets.
    const text = "Promoção “ação” já: ç";
    const tag = await send("5511988890002", text, { coding: "2" });
    const dlr = await dlrOf(tag);
    const id = dlr.query.get("id")!;
    const [m] = await query<Record<string, any>>("SELECT * FROM messages WHERE id = $1", [id]);
    expect(m).toMatchObject({ account_id: accountId, body: text, coding: "UCS2" });
    expect(outcomeBits(dlr.query.get("status"))).toBe(DLR[simulatedOutcome(id)]);
  });
});
