/**
 * A Google service account's OAuth2 access token (the JWT bearer grant, RFC 7523): one signed
 * assertion posted to a token endpoint the PLATFORM names (never the key's own token_uri when the
 * key is a tenant's: ADR 021), answered with a bearer token that is kept until shortly before it
 * expires. Shared by Google Business Messages (api/live/adapters.ts, a tenant's key) and RCS
 * Business Messaging (api/channels/rcs/rbm.ts, the platform's key).
 *
 * Google's keys are RSA and signed RS256. The development key of the simulator's RBM peer is an
 * Ed25519 key derived from the simulator's key (no file, nothing written down): signed EdDSA.
 * The token cache is per process (a token is cheap to get again; ADR 055 allows it).
 */
import { createHash, createPrivateKey, sign } from "node:crypto";
import { isOutboundError, outboundFetch } from "./outbound";

export type ServiceAccountKey = { client_email: string; private_key: string };

export const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const TIMEOUT_MS = 15_000;
const MAX_BYTES = 100_000;
/** A cached access token is dropped this long before Google says it expires. */
const TOKEN_MARGIN_MS = 5 * 60_000;

/** The token endpoint refused (status: its HTTP status; 0 for no answer). */
export class GoogleTokenError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = "GoogleTokenError";
  }
  /** Retrying cannot help (a 4xx other than 408/429). */
  get permanent() {
    return this.status >= 400 && this.status < 500 && this.status !== 408 && this.status !== 429;
  }
}

const b64url = (v: Buffer | string) => Buffer.from(v).toString("base64url");

/** The signed JWT assertion of the JWT bearer flow for a service account: RS256 for Google's RSA keys, EdDSA for an Ed25519 (development) key. */
export function serviceAccountAssertion(key: ServiceAccountKey, scope: string, audience: string, now = Math.floor(Date.now() / 1000)): string {
  const privateKey = createPrivateKey(key.private_key);
  const ed = privateKey.asymmetricKeyType === "ed25519";
  const header = b64url(JSON.stringify({ alg: ed ? "EdDSA" : "RS256", typ: "JWT" }));
  const claims = b64url(JSON.stringify({ iss: key.client_email, scope, aud: audience, iat: now, exp: now + 3600 }));
  const data = Buffer.from(`${header}.${claims}`);
  return `${header}.${claims}.${b64url(ed ? sign(null, data, privateKey) : sign("RSA-SHA256", data, privateKey))}`;
}

const accessTokens = new Map<string, { token: string; until: number }>();
const cacheKey = (key: ServiceAccountKey, scope: string, tokenUrl: string) =>
  createHash("sha256").update(`${key.client_email}\n${key.private_key}\n${scope}\n${tokenUrl}`).digest("hex");

/** An access token for `scope`, from `tokenUrl` (the platform's); cached until shortly before it expires. Throws GoogleTokenError. */
export async function googleAccessToken(key: ServiceAccountKey, scope: string, tokenUrl: string): Promise<string> {
  const id = cacheKey(key, scope, tokenUrl);
  const cached = accessTokens.get(id);
  if (cached && cached.until > Date.now()) return cached.token;
  const body = new URLSearchParams({ grant_type: JWT_BEARER, assertion: serviceAccountAssertion(key, scope, tokenUrl) });
  let status = 0;
  // biome-ignore lint/suspicious/noExplicitAny: the token endpoint's JSON, checked below
  let json: any = null;
  try {
    const res = await outboundFetch(tokenUrl, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body,
      timeoutMs: TIMEOUT_MS,
      maxBytes: MAX_BYTES,
      trust: "platform",
    });
    status = res.status;
    try {
      json = res.json();
    } catch {}
  } catch (e) {
    throw new GoogleTokenError(`google token: network: ${isOutboundError(e) ? e.message : (e as Error).message}`, 0);
  }
  if (status >= 200 && status < 300 && typeof json?.access_token === "string") {
    const seconds = Number(json.expires_in) > 0 ? Number(json.expires_in) : 3600;
    accessTokens.set(id, { token: json.access_token, until: Date.now() + seconds * 1000 - TOKEN_MARGIN_MS });
    return json.access_token;
  }
  throw new GoogleTokenError(`google token: HTTP ${status}`, status);
}

/** Drops a cached token (the API answered 401: revoked or expired early). */
export function forgetAccessToken(key: ServiceAccountKey, scope: string, tokenUrl: string): void {
  accessTokens.delete(cacheKey(key, scope, tokenUrl));
}
