/**
 * The SMTP connection pool (./smtp-pool.ts, ADR 076) against a real SMTP server (smtp-server) on
 * loopback: connections reused up to the pool's size, AUTH, a refused message leaving the session
 * usable, a server that closes idle connections, the pool's own idle close.
 */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterEach, describe, expect, it } from "vitest";
import { relayOptions, SmtpPool } from "./smtp-pool";

type Received = { from: string; to: string[]; data: string; session: string };

async function server(opts: { auth?: boolean; onRcpt?: (to: string) => Error | null } = {}) {
  const received: Received[] = [];
  let connections = 0;
  let open = 0;
  const sockets = new Set<string>();
  const s = new SMTPServer({
    disabledCommands: opts.auth ? ["STARTTLS"] : ["STARTTLS", "AUTH"],
    allowInsecureAuth: true,
    authOptional: !opts.auth,
    logger: false,
    disableReverseLookup: true,
    hideDSN: false,
    onConnect(session, cb) {
      connections++;
      open++;
      sockets.add(session.id);
      cb();
    },
    onClose(session) {
      if (sockets.delete(session.id)) open--;
    },
    onAuth(auth, _session, cb) {
      if (auth.username === "loja" && auth.password === "s3gr3d0") return cb(null, { user: auth.username });
      cb(Object.assign(new Error("5.7.8 Authentication failed"), { responseCode: 535 }));
    },
    onRcptTo(address, _session, cb) {
      cb(opts.onRcpt?.(address.address) ?? undefined);
    },
    onData(stream, session, cb) {
      let data = "";
      stream.on("data", (c: Buffer) => (data += c.toString()));
      stream.on("end", () => {
        received.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "", to: session.envelope.rcptTo.map((r) => r.address), data, session: session.id });
        cb(null, "2.0.0 queued");
      });
    },
  });
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const port = (s.server.address() as AddressInfo).port;
  servers.push(s);
  return { s, port, received, counts: () => ({ connections, open }) };
}

const servers: SMTPServer[] = [];
const pools: SmtpPool[] = [];
afterEach(async () => {
  for (const p of pools.splice(0)) p.close();
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((r) => s.close(() => r()))));
});
const poolFor = (port: number, extra: Partial<ConstructorParameters<typeof SmtpPool>[0]> = {}) => {
  const p = new SmtpPool({ host: "127.0.0.1", port, ignoreTLS: true, size: 3, ...extra });
  pools.push(p);
  return p;
};
const message = (n: number) => `From: a@loja.test\r\nTo: b@example.org\r\nSubject: ${n}\r\n\r\nline one\r\n.starts with a dot\r\n`;

describe("SmtpPool", () => {
  it("sends over at most `size` connections, reuses them, keeps the envelope, DSN parameters and the text (dot-stuffing undone by the server)", async () => {
    const srv = await server();
    const pool = poolFor(srv.port);
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, n) =>
        pool.send(
          {
            from: `b-${n}@bounces.loja.test`,
            to: [`c${n}@example.org`],
            dsn: { id: `env${n}`, return: "headers", notify: ["success", "failure"], recipient: `c${n}@example.org` },
          },
          message(n),
        ),
      ),
    );
    expect(answers.every((a) => a.startsWith("250"))).toBe(true);
    expect(srv.received).toHaveLength(30);
    expect(srv.counts().connections).toBe(3);
    const got = srv.received.find((r) => r.to[0] === "c7@example.org")!;
    expect(got.from).toBe("b-7@bounces.loja.test");
    expect(got.data).toBe(message(7));
  });

  it("a refused recipient fails only that send (responseCode 550), and the same connection goes on", async () => {
    const srv = await server({ onRcpt: (to) => (to.startsWith("bounce") ? Object.assign(new Error("5.1.1 No such user"), { responseCode: 550 }) : null) });
    const pool = poolFor(srv.port, { size: 1 });
    await expect(pool.send({ from: "a@loja.test", to: ["bounce@example.org"] }, message(1))).rejects.toMatchObject({ responseCode: 550 });
    expect(await pool.send({ from: "a@loja.test", to: ["ok@example.org"] }, message(2))).toMatch(/^250/);
    expect(srv.counts().connections).toBe(1);
  });

  it("signs in with AUTH when given credentials; a wrong password fails the send with 535", async () => {
    const srv = await server({ auth: true });
    expect(await poolFor(srv.port, { auth: { user: "loja", pass: "s3gr3d0" } }).send({ from: "a@loja.test", to: ["b@example.org"] }, message(1))).toMatch(/^250/);
    await expect(poolFor(srv.port, { auth: { user: "loja", pass: "errada" } }).send({ from: "a@loja.test", to: ["b@example.org"] }, message(2))).rejects.toMatchObject({
      responseCode: 535,
    });
    await expect(poolFor(srv.port).send({ from: "a@loja.test", to: ["b@example.org"] }, message(3))).rejects.toMatchObject({ responseCode: 530 });
  });

  it("opens a new connection after the server closed an idle one, and closes its own idle ones", async () => {
    const srv = await server();
    const pool = poolFor(srv.port, { size: 1, idleTimeoutMs: 300 });
    await pool.send({ from: "a@loja.test", to: ["b@example.org"] }, message(1));
    // The server ends the idle session (as after its idle timeout): the pool lets it go.
    for (const conn of (srv.s as unknown as { connections: Set<{ close: () => void }> }).connections) conn.close();
    await expect.poll(() => srv.counts().open, { timeout: 5000 }).toBe(0);
    expect(await pool.send({ from: "a@loja.test", to: ["b@example.org"] }, message(2))).toMatch(/^250/);
    expect(srv.counts().connections).toBe(2);
    // Unused for idleTimeoutMs: QUIT.
    await expect.poll(() => srv.counts().open, { timeout: 5000 }).toBe(0);
  });

  it("a server that is not there fails the send, and the pool's room comes back", async () => {
    const srv = await server();
    const port = srv.port;
    await new Promise<void>((r) => srv.s.close(() => r()));
    servers.splice(servers.indexOf(srv.s), 1);
    const pool = poolFor(port, { size: 1, connectionTimeout: 2000 });
    await expect(pool.send({ from: "a@loja.test", to: ["b@example.org"] }, message(1))).rejects.toThrow();
    await expect(pool.send({ from: "a@loja.test", to: ["b@example.org"] }, message(2))).rejects.toThrow();
  });

  it("reads a relay URL: host, port, TLS mode, credentials (percent-decoded), tls.* options", () => {
    expect(relayOptions("smtp://loja%40envio:p%40ss%3Aw@relay.example.com:2525?tls.rejectUnauthorized=false&requireTLS=true")).toEqual({
      host: "relay.example.com",
      port: 2525,
      secure: false,
      auth: { user: "loja@envio", pass: "p@ss:w" },
      tls: { rejectUnauthorized: false },
      requireTLS: true,
    });
    expect(relayOptions("smtps://relay.example.com")).toEqual({ host: "relay.example.com", port: 465, secure: true });
    expect(relayOptions("smtp://relay.example.com")).toEqual({ host: "relay.example.com", port: 587, secure: false });
  });
});
