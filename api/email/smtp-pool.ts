/**
 * A pool of SMTP client connections (nodemailer's SMTPConnection: the protocol, STARTTLS, AUTH,
 * DSN parameters, dot-stuffing) for sending finished messages (ADR 076). nodemailer's own pool
 * wraps each send in its Mailer (options normalized, plugins, a MIME node for the raw text, a
 * message stream): ~180 µs of CPU a message on top of the ~95 µs the SMTP exchange costs, for
 * nothing we use — the e-mail adapter composes and signs the text itself (ADR 074).
 *
 * - At most `size` connections, each sending one message at a time; a send that finds none free
 *   waits its turn (first come, first served). A connection is opened (connect, EHLO, STARTTLS
 *   when offered unless `ignoreTLS`, AUTH when `auth` is given) when a send needs one, and kept
 *   for as many messages as come; one idle for `idleTimeoutMs` is closed with QUIT.
 * - A refusal of one message (an SMTP reply to MAIL, RCPT or DATA) leaves the connection usable:
 *   RSET, then the next message. The error carries `responseCode` and `response`.
 * - Any other error closes the connection and fails the send (the dispatcher retries it later, as
 *   it did with nodemailer's pool). A connection the server closes while idle leaves the pool at once.
 */
import { parseConnectionUrl } from "nodemailer/lib/shared";
import SMTPConnection from "nodemailer/lib/smtp-connection";

export type SmtpPoolOptions = {
  host: string;
  port: number;
  secure?: boolean;
  ignoreTLS?: boolean;
  requireTLS?: boolean;
  /** The host name we give in EHLO. */
  name?: string;
  auth?: { user: string; pass: string };
  tls?: Record<string, unknown>;
  size: number;
  connectionTimeout?: number;
  greetingTimeout?: number;
  socketTimeout?: number;
  /** Close a connection unused this long (default 30 s). */
  idleTimeoutMs?: number;
};

/** The envelope: MAIL FROM ("" is the null sender), RCPT TO, RFC 3461 parameters (nodemailer's form). */
export type SmtpEnvelope = {
  from: string;
  to: string[];
  dsn?: { id?: string; return?: "headers" | "full"; notify?: string[]; recipient?: string };
};

/**
 * The connection options of a relay URL (EMAIL_SMTP_URL), read by nodemailer's parser:
 * smtp://host:587 (STARTTLS when offered) or smtps://host:465 (TLS from the start), user and
 * password (percent-decoded), `tls.*` options, requireTLS / ignoreTLS.
 */
export function relayOptions(url: string): Pick<SmtpPoolOptions, "host" | "port" | "secure" | "auth" | "tls" | "requireTLS" | "ignoreTLS"> {
  const relay = parseConnectionUrl(url);
  return {
    host: relay.host ?? "localhost",
    port: relay.port ?? (relay.secure ? 465 : 587),
    secure: relay.secure === true,
    ...(relay.auth?.user ? { auth: { user: relay.auth.user, pass: relay.auth.pass ?? "" } } : {}),
    ...(relay.tls ? { tls: relay.tls } : {}),
    ...(relay.requireTLS === true ? { requireTLS: true } : {}),
    ...(relay.ignoreTLS === true ? { ignoreTLS: true } : {}),
  };
}

type Conn = { c: SMTPConnection; idleTimer: ReturnType<typeof setTimeout> | null; closed: boolean };

export class SmtpPool {
  private readonly idle: Conn[] = [];
  /** Sends waiting for a connection: given a free one, or `null` with room reserved to open one. */
  private readonly waiting: Array<{ resolve: (c: Conn | null) => void; reject: (e: unknown) => void }> = [];
  /** Connections open or being opened (room reserved included). */
  private open = 0;
  private closing = false;

  constructor(private readonly options: SmtpPoolOptions) {}

  /** Sends `raw` (a finished RFC 5322 message, CRLF) with `envelope`; answers the server's reply to DATA. */
  async send(envelope: SmtpEnvelope, raw: string | Buffer): Promise<string> {
    const conn = await this.acquire();
    try {
      const response = await new Promise<string>((resolve, reject) => {
        conn.c.send(envelope as never, raw, (err, info) => (err ? reject(err) : resolve(String(info?.response ?? ""))));
      });
      this.release(conn);
      return response;
    } catch (e) {
      const err = e as Error & { code?: string; responseCode?: number };
      // The server refused this message (MAIL, RCPT or DATA answered 4xx/5xx): the session is fine.
      if (typeof err.responseCode === "number" && err.responseCode !== 421 && (err.code === "EENVELOPE" || err.code === "EMESSAGE") && !conn.closed) {
        conn.c.reset((resetError) => (resetError ? this.discard(conn) : this.release(conn)));
      } else {
        this.discard(conn);
      }
      throw err;
    }
  }

  /** Closes every connection (QUIT) and refuses new sends. */
  close() {
    this.closing = true;
    for (const w of this.waiting.splice(0)) w.reject(new Error("SMTP pool closed"));
    for (const conn of [...this.idle]) this.quit(conn);
  }

  private async acquire(): Promise<Conn> {
    if (this.closing) throw new Error("SMTP pool closed");
    const free = this.idle.pop();
    if (free) {
      if (free.idleTimer) clearTimeout(free.idleTimer);
      free.idleTimer = null;
      return free;
    }
    if (this.open < this.options.size) this.open++;
    else {
      const given = await new Promise<Conn | null>((resolve, reject) => this.waiting.push({ resolve, reject }));
      if (given) return given;
    }
    // Room is reserved (open counts it): open a connection, or give the room back.
    try {
      return await this.connect();
    } catch (e) {
      this.open--;
      this.handOver();
      throw e;
    }
  }

  private connect(): Promise<Conn> {
    const o = this.options;
    const c = new SMTPConnection({
      host: o.host,
      port: o.port,
      secure: o.secure ?? false,
      ignoreTLS: o.ignoreTLS,
      requireTLS: o.requireTLS,
      name: o.name,
      tls: o.tls,
      connectionTimeout: o.connectionTimeout,
      greetingTimeout: o.greetingTimeout,
      socketTimeout: o.socketTimeout,
      logger: false,
    } as ConstructorParameters<typeof SMTPConnection>[0]);
    const conn: Conn = { c, idleTimer: null, closed: false };
    return new Promise<Conn>((resolve, reject) => {
      let settled = false;
      const done = (e?: unknown) => {
        if (settled) return;
        settled = true;
        if (e === undefined) return resolve(conn);
        conn.closed = true;
        reject(e);
      };
      // An open connection that fails or is closed (by the server after its idle time, or by us)
      // leaves the pool; a send in flight on it gets the error from SMTPConnection itself.
      const lost = (e: unknown) => {
        if (settled && !conn.closed) this.forget(conn);
        done(e);
      };
      c.on("error", lost);
      c.on("end", () => lost(new Error("SMTP connection closed")));
      c.connect((err) => {
        if (err) {
          done(err);
          return c.close();
        }
        if (!o.auth) return done();
        c.login({ user: o.auth.user, pass: o.auth.pass }, (loginError) => {
          if (loginError) {
            done(loginError);
            return c.close();
          }
          done();
        });
      });
    });
  }

  /** Gives a free connection to the first waiting send, else keeps it idle (closed after idleTimeoutMs). */
  private release(conn: Conn) {
    if (conn.closed) return;
    const next = this.waiting.shift();
    if (next) return next.resolve(conn);
    if (this.closing) return this.quit(conn);
    conn.idleTimer = setTimeout(() => this.quit(conn), this.options.idleTimeoutMs ?? 30_000);
    conn.idleTimer.unref?.();
    this.idle.push(conn);
  }

  private quit(conn: Conn) {
    if (conn.closed) return;
    this.forget(conn);
    conn.c.quit();
  }

  private discard(conn: Conn) {
    if (conn.closed) return;
    this.forget(conn);
    conn.c.close();
  }

  /** The connection no longer counts: out of the idle list, its room to the first waiting send. */
  private forget(conn: Conn) {
    if (conn.closed) return;
    conn.closed = true;
    if (conn.idleTimer) clearTimeout(conn.idleTimer);
    const i = this.idle.indexOf(conn);
    if (i >= 0) this.idle.splice(i, 1);
    this.open--;
    this.handOver();
  }

  /** Room freed: the first waiting send reserves it and opens a connection of its own. */
  private handOver() {
    if (this.open >= this.options.size) return;
    const next = this.waiting.shift();
    if (!next) return;
    this.open++;
    next.resolve(null);
  }
}
