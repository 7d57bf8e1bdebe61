/**
 * The inbound mail process (Procfile `inbound-mail`, ADR 036): runs the inbound SMTP listener
 * (./inbound-smtp.ts) on EMAIL_INBOUND_HOST:EMAIL_INBOUND_PORT (127.0.0.1:2526 by default; only
 * loopback with development secrets, like every listener: assertBindable), with STARTTLS when
 * EMAIL_INBOUND_TLS_KEY and EMAIL_INBOUND_TLS_CERT name PEM files.
 *
 * Each report is applied (./bounces.ts: statuses through the one receipt path, hard bounces to the
 * deny list, complaints to the opt-outs) and logged in one line; if applying it fails, the sender
 * is answered 451 and sends it again. A mail to the List-Unsubscribe mailto records the opt-out as
 * the one-click link does (./unsubscribe.ts).
 *
 * SIGTERM / SIGINT: no new sessions, the open ones may finish their mail (up to 5 s), then exit.
 */
import { readFileSync } from "node:fs";
import { assertBindable, env } from "../lib/env";
import { initModels } from "../../models";
import { applyInboundReport } from "./bounces";
import { type InboundReport, startInboundSmtp } from "./inbound-smtp";
import { unsubscribe } from "./unsubscribe";

const config = env();
initModels();
assertBindable(config.EMAIL_INBOUND_HOST, "EMAIL_INBOUND_HOST");

/** One line about a report: its kind, whom it came from, the messages it names and what it says of them. */
function summary({ report, recipients, size, mailFrom, remoteAddress }: InboundReport): string {
  const about = recipients.map((r) => `${r.messageId}@${r.domain}`).join(",") || "-";
  const from = `from ${remoteAddress} <${mailFrom}>, ${size} bytes`;
  if (report.kind === "dsn") {
    const outcomes = report.recipients.map((r) => `${r.action} ${r.status}`).join(", ") || "no recipients";
    return `inbound report dsn ${about} (${outcomes}) ${from}`;
  }
  if (report.kind === "arf") return `inbound report arf ${about} (${report.feedbackType}) ${from}`;
  return `inbound report other ${about} ${from}`;
}

const tls =
  config.EMAIL_INBOUND_TLS_KEY && config.EMAIL_INBOUND_TLS_CERT
    ? { key: readFileSync(config.EMAIL_INBOUND_TLS_KEY), cert: readFileSync(config.EMAIL_INBOUND_TLS_CERT) }
    : undefined;

const listener = await startInboundSmtp({
  host: config.EMAIL_INBOUND_HOST,
  port: config.EMAIL_INBOUND_PORT,
  tls,
  onReport: async (inbound) => {
    await applyInboundReport(inbound);
    console.log(summary(inbound));
  },
  // The mailto of List-Unsubscribe: the same opt-out as the one-click link (the account gone: nothing to record).
  onUnsubscribe: async ({ token, mailFrom, remoteAddress }) => {
    const done = await unsubscribe(token);
    console.log(`inbound unsubscribe ${done ? "recorded" : "for a closed account"} (campaign ${token.campaignId ?? "-"}) from ${remoteAddress} <${mailFrom}>`);
  },
});
console.log(`inbound mail listening on ${config.EMAIL_INBOUND_HOST}:${listener.port}${tls ? " (STARTTLS)" : ""}`);

let stopping = false;
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    void listener.close().finally(() => process.exit(0));
    setTimeout(() => process.exit(0), 8000).unref();
  });
}
