/**
 * Where and as whom the platform speaks RCS Business Messaging (ADR 055), from the environment:
 * - RBM_SERVICE_ACCOUNT set: Google (RBM_API_URL, RBM_TOKEN_URL default to Google's) with that key;
 * - unset outside production: the simulator's loopback RBM peer (api/simulator/rbm.ts) at
 *   SIMULATOR_URL/rbm, with a development key both sides derive from SIMULATOR_API_KEY (an Ed25519
 *   key: nothing written down, no file), and the webhook's client token derived the same way;
 * - unset in production: not configured (RCS has no provider).
 * No database, no Redis: the simulator imports it too.
 */
import { createHmac } from "node:crypto";
import { env } from "../../lib/env";
import type { ServiceAccountKey } from "../../lib/google-oauth";

export const RBM_SCOPE = "https://www.googleapis.com/auth/rcsbusinessmessaging";
const GOOGLE_RBM_URL = "https://rcsbusinessmessaging.googleapis.com";
const GOOGLE_TOKEN_URL = "https://oauth2.googleapis.com/token";
/** The development service account's e-mail (the peer accepts only it, signed with the derived key). */
export const SIMULATED_RBM_ACCOUNT = "platform@rbm-simulator.iam.gserviceaccount.com";
/** Under SIMULATOR_URL: the peer's RBM API and its token endpoint. */
export const SIMULATED_RBM_PATH = "/rbm";
export const SIMULATED_RBM_TOKEN_PATH = "/rbm/oauth2/token";

const derive = (simulatorKey: string, label: string) => createHmac("sha256", simulatorKey).update(label).digest();

/** The development key (PKCS#8 PEM of an Ed25519 key whose seed is an HMAC of the simulator's key). */
export function simulatedRbmKey(simulatorKey: string): ServiceAccountKey {
  const der = Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), derive(simulatorKey, "rbm-service-account")]);
  const pem = `-----BEGIN PRIVATE KEY-----\n${der.toString("base64")}\n-----END PRIVATE KEY-----`;
  return { client_email: SIMULATED_RBM_ACCOUNT, private_key: pem };
}

/** The simulated webhook's client token (X-Goog-Signature's HMAC key). */
export const simulatedRbmClientToken = (simulatorKey: string) => derive(simulatorKey, "rbm-client-token").toString("base64url").slice(0, 32);

export type RbmConfig = { apiUrl: string; tokenUrl: string; key: ServiceAccountKey; clientToken: string | null; simulated: boolean };

/** Reads RBM_SERVICE_ACCOUNT (the JSON key) or throws naming the variable. */
function platformKey(raw: string): ServiceAccountKey {
  try {
    const k = JSON.parse(raw) as Record<string, unknown>;
    if (typeof k.client_email === "string" && typeof k.private_key === "string") return { client_email: k.client_email, private_key: k.private_key };
  } catch {}
  throw new Error("RBM_SERVICE_ACCOUNT is not a Google service-account key (JSON with client_email and private_key)");
}

let cached: RbmConfig | null | undefined;

/** The RBM endpoint, key and client token in force; null when RCS has no provider (production without a key). */
export function rbmConfig(): RbmConfig | null {
  if (cached !== undefined) return cached;
  const e = env();
  const trim = (u: string) => u.replace(/\/+$/, "");
  if (e.RBM_SERVICE_ACCOUNT) {
    cached = {
      apiUrl: trim(e.RBM_API_URL ?? GOOGLE_RBM_URL),
      tokenUrl: e.RBM_TOKEN_URL ?? GOOGLE_TOKEN_URL,
      key: platformKey(e.RBM_SERVICE_ACCOUNT),
      clientToken: e.RBM_CLIENT_TOKEN ?? null,
      simulated: false,
    };
  } else if (e.NODE_ENV !== "production") {
    const sim = trim(e.SIMULATOR_URL);
    cached = {
      apiUrl: trim(e.RBM_API_URL ?? `${sim}${SIMULATED_RBM_PATH}`),
      tokenUrl: e.RBM_TOKEN_URL ?? `${sim}${SIMULATED_RBM_TOKEN_PATH}`,
      key: simulatedRbmKey(e.SIMULATOR_API_KEY),
      clientToken: e.RBM_CLIENT_TOKEN ?? simulatedRbmClientToken(e.SIMULATOR_API_KEY),
      simulated: true,
    };
  } else cached = null;
  return cached;
}

/** The client token the webhook's signature is checked with (RBM_CLIENT_TOKEN; derived outside production), or null: every post refused. */
export function rbmClientToken(): string | null {
  const e = env();
  return e.RBM_CLIENT_TOKEN ?? (e.NODE_ENV === "production" ? null : simulatedRbmClientToken(e.SIMULATOR_API_KEY));
}
