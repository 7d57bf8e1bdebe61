/**
 * DKIM's RSA signatures by OpenSSL through bun:ffi (./rsa-openssl.ts, ADR 075). It only runs under
 * Bun, so the check runs in a Bun process: on this project's Debian machines libcrypto.so.3 is
 * there, the signer is made, and its signatures are node:crypto's bytes (PKCS #1 v1.5 is
 * deterministic). EMAIL_RSA_OPENSSL=false turns it off.
 */
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(__dirname, "..", "..");
const bun = resolve(root, "node_modules", ".bin", "bun");

const script = `
import { generateKeyPairSync, randomBytes, sign } from "node:crypto";
import { opensslSigner } from "./api/email/rsa-openssl";
const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048, privateKeyEncoding: { type: "pkcs8", format: "pem" }, publicKeyEncoding: { type: "spki", format: "pem" } });
const signer = await opensslSigner(privateKey);
let same = 0;
for (let i = 0; i < 50; i++) {
  const data = randomBytes(1 + i * 37);
  if (signer && signer(data).equals(sign("sha256", data, privateKey))) same++;
}
const ec = generateKeyPairSync("ec", { namedCurve: "P-256", privateKeyEncoding: { type: "pkcs8", format: "pem" }, publicKeyEncoding: { type: "spki", format: "pem" } });
console.log(JSON.stringify({ available: signer !== null, same, ec: (await opensslSigner(ec.privateKey)) !== null }));
`;

function run(env: Record<string, string> = {}) {
  const r = spawnSync(bun, ["-e", script], { cwd: root, encoding: "utf8", env: { ...process.env, ...env }, timeout: 60_000 });
  if (r.status !== 0) throw new Error(`bun failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split("\n").pop()!) as { available: boolean; same: number; ec: boolean };
}

describe("RSA signatures by OpenSSL (bun:ffi)", () => {
  it("signs with libcrypto.so.3 under Bun, the same bytes as node:crypto; an EC key is not its business", () => {
    expect(run()).toEqual({ available: true, same: 50, ec: false });
  });

  it("is off with EMAIL_RSA_OPENSSL=false (node:crypto signs)", () => {
    expect(run({ EMAIL_RSA_OPENSSL: "false" })).toEqual({ available: false, same: 0, ec: false });
  });
});
