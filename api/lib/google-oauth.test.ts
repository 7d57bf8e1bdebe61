import { createPublicKey, generateKeyPairSync, verify } from "node:crypto";
import { describe, expect, it } from "vitest";
import { RBM_SCOPE, SIMULATED_RBM_ACCOUNT, simulatedRbmClientToken, simulatedRbmKey } from "../channels/rcs/rbm-config";
import { serviceAccountAssertion } from "./google-oauth";

const parts = (jwt: string) => {
  const [h, c, s] = jwt.split(".");
  return {
    header: JSON.parse(Buffer.from(h, "base64url").toString()),
    claims: JSON.parse(Buffer.from(c, "base64url").toString()),
    data: Buffer.from(`${h}.${c}`),
    sig: Buffer.from(s, "base64url"),
  };
};

describe("service-account assertions", () => {
  it("signs Google's RSA keys RS256 with the scope, audience and an hour of validity", () => {
    const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const key = { client_email: "svc@proj.iam.gserviceaccount.com", private_key: privateKey.export({ type: "pkcs8", format: "pem" }).toString() };
    const jwt = parts(serviceAccountAssertion(key, RBM_SCOPE, "https://oauth2.googleapis.com/token", 1_000));
    expect(jwt.header).toEqual({ alg: "RS256", typ: "JWT" });
    expect(jwt.claims).toEqual({ iss: key.client_email, scope: RBM_SCOPE, aud: "https://oauth2.googleapis.com/token", iat: 1_000, exp: 4_600 });
    expect(verify("RSA-SHA256", jwt.data, publicKey, jwt.sig)).toBe(true);
  });

  it("signs the simulator's development key EdDSA; the key and the client token come from the simulator's key alone", () => {
    const key = simulatedRbmKey("a-simulator-key-of-enough-length");
    expect(simulatedRbmKey("a-simulator-key-of-enough-length")).toEqual(key);
    expect(simulatedRbmKey("another-simulator-key-of-length").private_key).not.toBe(key.private_key);
    expect(key.client_email).toBe(SIMULATED_RBM_ACCOUNT);
    const jwt = parts(serviceAccountAssertion(key, RBM_SCOPE, "http://127.0.0.1:3003/rbm/oauth2/token"));
    expect(jwt.header.alg).toBe("EdDSA");
    expect(verify(null, jwt.data, createPublicKey(key.private_key), jwt.sig)).toBe(true);
    const tampered = Buffer.from(jwt.data);
    tampered[tampered.length - 1] ^= 1;
    expect(verify(null, tampered, createPublicKey(key.private_key), jwt.sig)).toBe(false);
    expect(simulatedRbmClientToken("a-simulator-key-of-enough-length")).toHaveLength(32);
    expect(simulatedRbmClientToken("a-simulator-key-of-enough-length")).not.toBe(simulatedRbmClientToken("another-simulator-key-of-length"));
  });
});
