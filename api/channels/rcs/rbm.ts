/**
 * Google's RCS Business Messaging (RBM) behind the one channel contract (ADR 055): channel `rcs`,
 * provider `rbm`. The dispatcher hands it a message whose sender is the agent's Google id
 * (rcs_agents.rbm_agent_id), whose recipient is an E.164 number and whose content is the spec's
 * content as stored (api/rcs/content.ts). Every call goes to the platform's RBM_API_URL (Google's;
 * the simulator's loopback peer without credentials: ./rbm-config.ts) through the guarded client,
 * with the service account's OAuth token (api/lib/google-oauth.ts):
 *   GET  /v1/phones/{msisdn}/capabilities?requestId=…&agentId=…   the number is RCS-capable (200)
 *        or not (404 NOT_FOUND); the answer is kept in Redis RCS_CAPABILITY_TTL_S (key scheme
 *        `rcs-cap`), so a number costs one round trip a day;
 *   POST /v1/phones/{msisdn}/agentMessages?messageId=…&agentId=…  {contentMessage}: one per part of
 *        toRbm(content), in order, messageId our message id (`<id>-<i>` for part i > 0). Google
 *        refuses a messageId it already has with 409 ALREADY_EXISTS: that part went out on an
 *        earlier attempt (a retried send is idempotent).
 * Errors: a number that is not capable fails the message with RCS_NOT_CAPABLE (refunded, and
 * afterFailure may send it as SMS: ../../rcs/fallback.ts); another 4xx (not 408/429) is permanent;
 * 429 is ThrottledError; a 5xx or a network error is transient (retried). A 401 gets a new token once.
 * Statuses and the user's messages come back by RBM's signed webhook (api/rcs/webhook.ts): they
 * name the messageId we chose, so providerMessageId is our message id.
 */
import { randomUUID } from "node:crypto";
import { env } from "../../lib/env";
import { forgetAccessToken, GoogleTokenError, googleAccessToken } from "../../lib/google-oauth";
import { isOutboundError, outboundFetch } from "../../lib/outbound";
import { redis } from "../../lib/redis";
import { keys } from "../../lib/redis-keys";
import { rcsContentSchema, toRbm } from "../../rcs/content";
import { PermanentSendError, ProviderThrottledError, ThrottledError, type ChannelAdapter, type OutboundMessage } from "../contract";
import { RBM_SCOPE, rbmConfig, type RbmConfig } from "./rbm-config";

export const RBM_PROVIDER = "rbm";
export const RCS_NOT_CAPABLE = "RCS_NOT_CAPABLE";

const TIMEOUT_MS = 15_000;
const MAX_BYTES = 256_000;

/** RBM's messageId of the n-th agent message one of ours is sent as (the first is our own id). */
export const rbmMessageId = (messageId: string, part: number) => (part === 0 ? messageId : `${messageId}-${part}`);

/** A failed RBM call: its HTTP status (0: no answer) and Google's error status word. */
export class RbmError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly googleStatus: string | null = null,
  ) {
    super(message);
    this.name = "RbmError";
  }
}

async function token(cfg: RbmConfig): Promise<string> {
  try {
    return await googleAccessToken(cfg.key, RBM_SCOPE, cfg.tokenUrl);
  } catch (e) {
    if (e instanceof GoogleTokenError) throw new RbmError(e.message, e.status);
    throw e;
  }
}

/** One RBM call with the service account's token (a 401 gets a fresh token once); answers the status and JSON. */
// biome-ignore lint/suspicious/noExplicitAny: RBM's JSON; each caller reads what it needs
async function rbmCall(cfg: RbmConfig, method: "GET" | "POST", path: string, body?: unknown): Promise<{ status: number; json: any }> {
  for (let attempt = 0; ; attempt++) {
    const bearer = await token(cfg);
    let status = 0;
    // biome-ignore lint/suspicious/noExplicitAny: see above
    let json: any = null;
    try {
      const res = await outboundFetch(`${cfg.apiUrl}${path}`, {
        method,
        headers: { Authorization: `Bearer ${bearer}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        timeoutMs: TIMEOUT_MS,
        maxBytes: MAX_BYTES,
        trust: "platform",
      });
      status = res.status;
      try {
        json = res.json();
      } catch {}
    } catch (e) {
      throw new RbmError(`rbm network: ${isOutboundError(e) ? e.message : (e as Error).message}`, 0);
    }
    if (status === 401 && attempt === 0) {
      forgetAccessToken(cfg.key, RBM_SCOPE, cfg.tokenUrl);
      continue;
    }
    return { status, json };
  }
}

const permanentStatus = (status: number) => status >= 400 && status < 500 && status !== 408 && status !== 429;

/** An RBM answer that is not a success, as the contract's error: permanent, throttled or transient. */
function sendError(what: string, status: number, json: { error?: { status?: string; message?: string } } | null): Error {
  const reason = `${what}: HTTP ${status}${json?.error?.status ? ` ${json.error.status}` : ""}${json?.error?.message ? ` — ${String(json.error.message).slice(0, 200)}` : ""}`;
  if (status === 429) return new ProviderThrottledError(reason);
  if (permanentStatus(status)) return new PermanentSendError(`rbm_${json?.error?.status ?? status}`.slice(0, 100), reason);
  return new RbmError(reason, status, json?.error?.status ?? null);
}

/**
 * Whether `msisdn` can get RCS messages from `agentId`: Redis first (RCS_CAPABILITY_TTL_S), else
 * RBM's capabilities (200 capable, 404 not), kept for next time. Throws on any other answer.
 */
export async function rcsCapable(agentId: string, msisdn: string, cfg = rbmConfig()): Promise<boolean> {
  if (!cfg) throw new PermanentSendError("rcs_not_configured", "RCS has no provider configured");
  const key = keys.rcsCapability(agentId, msisdn);
  const known = await redis().get(key);
  if (known === "1" || known === "0") return known === "1";
  const path = `/v1/phones/${encodeURIComponent(msisdn)}/capabilities?requestId=${randomUUID()}&agentId=${encodeURIComponent(agentId)}`;
  const { status, json } = await rbmCall(cfg, "GET", path);
  let capable: boolean;
  if (status >= 200 && status < 300) capable = true;
  else if (status === 404) capable = false;
  else throw sendError("rbm capabilities", status, json);
  await redis().set(key, capable ? "1" : "0", "EX", env().RCS_CAPABILITY_TTL_S);
  return capable;
}

export const rbmAdapter: ChannelAdapter = {
  channel: "rcs",
  provider: RBM_PROVIDER,
  capabilities: { text: true, media: true, deliveryReceipts: true, idempotentSubmit: true },
  configured: () => rbmConfig() !== null,
  async send(message: OutboundMessage) {
    const cfg = rbmConfig();
    if (!cfg) throw new PermanentSendError("rcs_not_configured", "RCS has no provider configured");
    const content = rcsContentSchema.safeParse(message.content);
    if (!content.success) throw new PermanentSendError("rcs_content_invalid", "The message's RCS content is not valid");
    if (!message.sender) throw new PermanentSendError("rcs_agent_missing", "The message names no RCS agent");
    try {
      if (!(await rcsCapable(message.sender, message.recipient, cfg))) throw new PermanentSendError(RCS_NOT_CAPABLE, "The handset is not RCS-capable");
      for (const [i, part] of toRbm(content.data).entries()) {
        const path = `/v1/phones/${encodeURIComponent(message.recipient)}/agentMessages?messageId=${encodeURIComponent(rbmMessageId(message.id, i))}&agentId=${encodeURIComponent(message.sender)}`;
        const { status, json } = await rbmCall(cfg, "POST", path, { contentMessage: part });
        if (status >= 200 && status < 300) continue;
        // The part went out on an earlier attempt: idempotent.
        if (status === 409 && (json?.error?.status ?? "ALREADY_EXISTS") === "ALREADY_EXISTS") continue;
        throw sendError("rbm agentMessages", status, json);
      }
    } catch (e) {
      if (e instanceof PermanentSendError || e instanceof ThrottledError) throw e;
      if (e instanceof RbmError && permanentStatus(e.status)) throw new PermanentSendError(`rbm_${e.status}`, e.message);
      throw e;
    }
    return { providerMessageId: message.id };
  },
  async afterFailure(message, error) {
    if (error.code !== RCS_NOT_CAPABLE) return;
    const { sendSmsFallback } = await import("../../rcs/fallback");
    await sendSmsFallback(message);
  },
};
