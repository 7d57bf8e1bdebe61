/**
 * RSA-SHA256 signatures (PKCS #1 v1.5, what DKIM's rsa-sha256 is) by the system's OpenSSL 3
 * (libcrypto.so.3) through bun:ffi, when it is there (ADR 075). Bun's node:crypto is BoringSSL,
 * whose RSA-2048 private-key operation costs ~0.6 ms of CPU here against ~0.26 ms in OpenSSL 3
 * (which has the wide-multiplier code paths for today's x86 CPUs): the signature was the largest
 * single cost of sending an e-mail. The signatures are the same bytes (PKCS #1 v1.5 is
 * deterministic); the unit test compares them with node:crypto's.
 *
 * `opensslSigner(pem)` is null whenever OpenSSL cannot be used — not under Bun, no libcrypto.so.3,
 * a symbol missing, a key it does not read, EMAIL_RSA_OPENSSL=false — and the caller then signs with
 * node:crypto: the answer is the same, only slower. A key's EVP_PKEY is freed when its signer is
 * garbage-collected.
 */
import { createPrivateKey, sign as nodeSign } from "node:crypto";
import { env } from "../lib/env";

type Lib = {
  d2i_AutoPrivateKey: (a: null, pp: BigUint64Array, length: number) => number | bigint | null;
  EVP_PKEY_free: (pkey: number | bigint) => void;
  EVP_MD_CTX_new: () => number | bigint | null;
  EVP_MD_CTX_free: (ctx: number | bigint) => void;
  EVP_sha256: () => number | bigint | null;
  EVP_DigestSignInit: (ctx: number | bigint, pctx: null, md: number | bigint, engine: null, pkey: number | bigint) => number;
  EVP_DigestSign: (ctx: number | bigint, sig: Uint8Array, siglen: BigUint64Array, tbs: Uint8Array, tbslen: number) => number;
  EVP_PKEY_get_size: (pkey: number | bigint) => number;
};

let lib: { symbols: Lib; ptr: (v: Uint8Array) => number } | null | undefined;

/** libcrypto.so.3's functions, loaded once per process; null when they cannot be. */
async function load(): Promise<typeof lib> {
  if (lib !== undefined) return lib;
  lib = null;
  if (env().EMAIL_RSA_OPENSSL === "false" || typeof (globalThis as { Bun?: unknown }).Bun === "undefined") return lib;
  try {
    const ffi = await import("bun:ffi");
    const { FFIType: T } = ffi;
    const opened = ffi.dlopen("libcrypto.so.3", {
      d2i_AutoPrivateKey: { args: [T.ptr, T.ptr, T.i64], returns: T.ptr },
      EVP_PKEY_free: { args: [T.ptr], returns: T.void },
      EVP_MD_CTX_new: { args: [], returns: T.ptr },
      EVP_MD_CTX_free: { args: [T.ptr], returns: T.void },
      EVP_sha256: { args: [], returns: T.ptr },
      EVP_DigestSignInit: { args: [T.ptr, T.ptr, T.ptr, T.ptr, T.ptr], returns: T.i32 },
      EVP_DigestSign: { args: [T.ptr, T.ptr, T.ptr, T.ptr, T.u64], returns: T.i32 },
      EVP_PKEY_get_size: { args: [T.ptr], returns: T.i32 },
    });
    lib = { symbols: opened.symbols as unknown as Lib, ptr: (v) => ffi.ptr(v) as number };
  } catch {
    lib = null;
  }
  return lib;
}

const freed = new FinalizationRegistry<() => void>((free) => free());

export type RsaSigner = (data: Buffer) => Buffer;

/**
 * A signer for the RSA private key in `pem`, backed by OpenSSL, or null when OpenSSL is not
 * usable here (sign with node:crypto then). Checked once against node:crypto on creation.
 */
export async function opensslSigner(pem: string): Promise<RsaSigner | null> {
  const l = await load();
  if (!l) return null;
  const key = createPrivateKey(pem);
  if (key.asymmetricKeyType !== "rsa") return null;
  const der = key.export({ type: "pkcs8", format: "der" });
  const pp = new BigUint64Array([BigInt(l.ptr(der))]);
  const pkey = l.symbols.d2i_AutoPrivateKey(null, pp, der.length);
  if (!pkey) return null;
  const s = l.symbols;
  const md = s.EVP_sha256();
  const size = s.EVP_PKEY_get_size(pkey);
  if (!md || size <= 0 || size > 1024) {
    s.EVP_PKEY_free(pkey);
    return null;
  }
  const signer: RsaSigner = (data) => {
    const ctx = s.EVP_MD_CTX_new();
    if (!ctx) throw new Error("OpenSSL: EVP_MD_CTX_new failed");
    try {
      const sig = Buffer.alloc(size);
      const len = new BigUint64Array([BigInt(size)]);
      if (s.EVP_DigestSignInit(ctx, null, md, null, pkey) !== 1) throw new Error("OpenSSL: EVP_DigestSignInit failed");
      if (s.EVP_DigestSign(ctx, sig, len, data, data.length) !== 1) throw new Error("OpenSSL: EVP_DigestSign failed");
      return sig.subarray(0, Number(len[0]));
    } finally {
      s.EVP_MD_CTX_free(ctx);
    }
  };
  freed.register(signer, () => s.EVP_PKEY_free(pkey));
  // Never trust a signer blindly: its first signature must be node:crypto's.
  const probe = Buffer.from("mensageria rsa probe");
  try {
    if (!signer(probe).equals(nodeSign("sha256", probe, key))) return null;
  } catch {
    return null;
  }
  return signer;
}
