import { createHmac } from "node:crypto";
import { SignJWT, UnsecuredJWT } from "jose";
import { describe, expect, it } from "vitest";
import { verifyHs256 } from "./hs256";

const secret = "a-test-secret-of-enough-length-0123456789";
const key = new TextEncoder().encode(secret);
const now = Math.floor(Date.now() / 1000);
const sign = (claims: Record<string, unknown>, alg = "HS256") => new SignJWT(claims).setProtectedHeader({ alg }).sign(key);
/** A token with any header and payload, signed with HS256 over exactly what it carries. */
const forge = (header: object, payload: object, with_ = secret) => {
  const h = Buffer.from(JSON.stringify(header)).toString("base64url");
  const p = Buffer.from(JSON.stringify(payload)).toString("base64url");
  return `${h}.${p}.${createHmac("sha256", with_).update(`${h}.${p}`).digest("base64url")}`;
};

describe("verifyHs256", () => {
  it("accepts what jose signs with HS256, and answers its claims", async () => {
    const t = await sign({ sub: "u1", typ: "access", exp: now + 60, iat: now });
    expect(verifyHs256(t, secret, now)).toMatchObject({ sub: "u1", typ: "access", exp: now + 60 });
  });

  it("refuses another secret, a changed payload or signature, and malformed tokens", async () => {
    const t = await sign({ sub: "u1", exp: now + 60 });
    expect(verifyHs256(t, `${secret}x`, now)).toBeNull();
    const [h, p, s] = t.split(".");
    const other = Buffer.from(JSON.stringify({ sub: "admin", exp: now + 60 })).toString("base64url");
    expect(verifyHs256(`${h}.${other}.${s}`, secret, now)).toBeNull();
    // One whole character of the signature changed (its second-to-last carries 6 bits of the MAC; the
    // last only 4, so "AA" in place of the last two was now and then the same signature).
    const changed = `${s.slice(0, -2)}${s.at(-2) === "A" ? "B" : "A"}${s.at(-1)}`;
    expect(changed).not.toBe(s);
    expect(verifyHs256(`${h}.${p}.${changed}`, secret, now)).toBeNull();
    expect(verifyHs256(`${h}.${p}.${s}=`, secret, now)).toBeNull();
    for (const bad of ["", "a.b", "a.b.c.d", `${h}.${p}`, `${h}.${p}.`, "..."]) expect(verifyHs256(bad, secret, now)).toBeNull();
  });

  it("refuses alg none, any other algorithm, crit and unencoded payloads", async () => {
    expect(verifyHs256(new UnsecuredJWT({ sub: "u1", exp: now + 60 }).encode(), secret, now)).toBeNull();
    expect(verifyHs256(await sign({ sub: "u1", exp: now + 60 }, "HS512"), secret, now)).toBeNull();
    expect(verifyHs256(forge({ alg: "none" }, { sub: "u1", exp: now + 60 }), secret, now)).toBeNull();
    expect(verifyHs256(forge({ alg: "HS256", crit: ["x"], x: 1 }, { sub: "u1", exp: now + 60 }), secret, now)).toBeNull();
    expect(verifyHs256(forge({ alg: "HS256", b64: false }, { sub: "u1", exp: now + 60 }), secret, now)).toBeNull();
    expect(verifyHs256(forge({ alg: "HS256" }, { sub: "u1", exp: now + 60 }), secret, now)).toMatchObject({ sub: "u1" });
  });

  it("a token must expire, in the future, and may not be used before nbf", () => {
    expect(verifyHs256(forge({ alg: "HS256" }, { sub: "u1" }), secret, now)).toBeNull();
    expect(verifyHs256(forge({ alg: "HS256" }, { sub: "u1", exp: "9999999999" }), secret, now)).toBeNull();
    expect(verifyHs256(forge({ alg: "HS256" }, { sub: "u1", exp: now }), secret, now)).toBeNull();
    expect(verifyHs256(forge({ alg: "HS256" }, { sub: "u1", exp: now - 1 }), secret, now)).toBeNull();
    expect(verifyHs256(forge({ alg: "HS256" }, { sub: "u1", exp: now + 60, nbf: now + 30 }), secret, now)).toBeNull();
    expect(verifyHs256(forge({ alg: "HS256" }, { sub: "u1", exp: now + 60, nbf: now }), secret, now)).toMatchObject({ sub: "u1" });
    expect(verifyHs256(forge({ alg: "HS256" }, { sub: "u1", exp: now + 60, iat: "yesterday" }), secret, now)).toBeNull();
    expect(verifyHs256(forge({ alg: "HS256" }, ["not", "an", "object"]), secret, now)).toBeNull();
  });
});
