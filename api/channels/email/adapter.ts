/**
 * E-mail over SMTP behind the one channel contract (api/channels/contract.ts; ADR 036): the
 * dispatcher hands it a message of channel `email` (sender the from address, recipient the to
 * address, body the text part, content the subject, HTML and the rest: api/email/send.ts wrote
 * it). It goes through a pool of SMTP connections (../../email/smtp-pool.ts, nodemailer's
 * SMTPConnection; ADR 076) to EMAIL_SMTP_URL (the relay), or without one
 * to the simulator's local SMTP peer. The message is composed (../../email/compose.ts) and
 * DKIM-signed with the sending domain's key (../../email/dkim.ts) here, not by nodemailer (ADR 074); the envelope
 * sender the message's signed VERP return path (bounces come back to our inbound listener), the
 * Message-ID ours, DSNs asked for (success, failure, delay).
 * - 250: `sent` (the relay took it); the provider id is our message id (the reports name it).
 * - 5xx: the message fails for good — `blocked` for a 5.7.x policy/spam refusal, `bounced` otherwise.
 * - 4xx: `deferred`, retried by the dispatcher's runner; `dropped` when the attempts run out.
 * - the domain no longer validated: `dropped` (nothing is sent unsigned or from another's domain).
 * - connection errors: transient, retried.
 * The domain's key (parsed once into a KeyObject) and the account's tracking settings are read once
 * per EMAIL_SEND_CACHE_MS per process, not per message (api/lib/memo.ts): a domain that loses its
 * validation or a tracking switch reaches the messages sent after it within that time.
 */
import { createPrivateKey, type KeyObject } from "node:crypto";
import { signingKey } from "../../email/domains";
import { messageIdHeader, returnPath } from "../../email/return-path";
import { EMAIL_PROVIDER } from "../../email/provider";
import { renderEmail } from "../../email/campaign-content";
import { composeEmail } from "../../email/compose";
import { dkimSign } from "../../email/dkim";
import { relayOptions, SmtpPool } from "../../email/smtp-pool";
import { opensslSigner, type RsaSigner } from "../../email/rsa-openssl";
import { trackedHtml, trackingSettingsOf, type TrackingSettings } from "../../email/tracking";
import { shortLived, type ShortLived } from "../../lib/memo";
import { DKIM_HEADER_FIELDS, unsubscribeHeaders } from "../../email/unsubscribe";
import { env } from "../../lib/env";
import { DeferredSendError, PermanentSendError, type ChannelAdapter } from "../contract";

type Key = { selector: string; privateKey: KeyObject; signer: RsaSigner | null } | null;
let memos: { keys: ShortLived<Key>; tracking: ShortLived<TrackingSettings> } | undefined;
function memo() {
  memos ??= {
    keys: shortLived(env().EMAIL_SEND_CACHE_MS, async (k: string): Promise<Key> => {
      const [accountId, domain] = k.split("\u0000");
      const key = await signingKey(accountId, domain);
      return key ? { selector: key.selector, privateKey: createPrivateKey(key.privateKey), signer: await opensslSigner(key.privateKey) } : null;
    }),
    tracking: shortLived(env().EMAIL_SEND_CACHE_MS, trackingSettingsOf),
  };
  return memos;
}

let pool: SmtpPool | undefined;
/** The relay (EMAIL_SMTP_URL: smtp:// or smtps://, user and password, tls.* options), else the simulator's peer. */
function smtp(): SmtpPool {
  if (pool) return pool;
  const url = env().EMAIL_SMTP_URL;
  pool = new SmtpPool({
    ...(url ? relayOptions(url) : { host: "127.0.0.1", port: env().SIMULATOR_SMTP_PORT, secure: false, ignoreTLS: true }),
    size: env().EMAIL_SMTP_POOL,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 60_000,
  });
  return pool;
}

/** An SMTP error's reply code and text (SMTPConnection's error carries both), if it is one. */
function smtpReply(e: unknown): { code: number; text: string } | null {
  const err = e as { responseCode?: number; response?: string; message?: string };
  return typeof err?.responseCode === "number" ? { code: err.responseCode, text: String(err.response ?? err.message ?? "").slice(0, 1000) } : null;
}

export const emailSmtpAdapter: ChannelAdapter = {
  channel: "email",
  provider: EMAIL_PROVIDER,
  capabilities: { text: true, media: false, deliveryReceipts: true, idempotentSubmit: false },
  exhaustedStatus: "dropped",
  configured: () => true,
  async send(message) {
    // A campaign message is rendered from its campaign's one copy of the content (ADR 038).
    const content = await renderEmail(message);
    if (!content) throw new PermanentSendError("campaign_gone", "The message's campaign no longer exists", "dropped");
    const list = content.campaignId ? unsubscribeHeaders({ accountId: message.accountId, email: message.recipient, campaignId: content.campaignId }) : null;
    const key = await memo().keys.get(`${message.accountId}\u0000${content.domain}`);
    if (!key) throw new PermanentSendError("domain_not_validated", `The sending domain ${content.domain} is no longer validated`, "dropped");
    // Composed and signed here (ADR 074); the pool sends the text as it is.
    const composed = composeEmail({
      from: { address: message.sender, name: content.from_name },
      to: message.recipient,
      replyTo: content.reply_to,
      subject: content.subject,
      messageId: messageIdHeader(message.id, content.domain),
      headers: list ?? undefined,
      text: content.text || null,
      html: content.html ? trackedHtml(message.id, content.html, await memo().tracking.get(message.accountId)) : null,
    });
    const raw = dkimSign(composed, { domainName: content.domain, keySelector: key.selector, privateKey: key.privateKey, signer: key.signer }, DKIM_HEADER_FIELDS);
    try {
      await smtp().send(
        {
          from: returnPath(message.id, content.domain),
          to: [message.recipient],
          dsn: { id: message.id.replaceAll("-", ""), return: "headers", notify: ["success", "failure", "delay"], recipient: message.recipient },
        },
        raw,
      );
    } catch (e) {
      const reply = smtpReply(e);
      if (reply && reply.code >= 500) {
        throw new PermanentSendError(`smtp_${reply.code}`, reply.text, /\b5\.7\.\d{1,3}\b/.test(reply.text) ? "blocked" : "bounced");
      }
      if (reply && reply.code >= 400) throw new DeferredSendError(`smtp_${reply.code}`, reply.text);
      throw e;
    }
    return { providerMessageId: message.id };
  },
};
