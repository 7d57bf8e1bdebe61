/** argon2id through Bun's native implementation (web, api and worker all run on Bun). */
export function hashPassword(plain: string): Promise<string> {
  return Bun.password.hash(plain, { algorithm: "argon2id", memoryCost: 19456, timeCost: 2 });
}

export async function verifyPassword(plain: string, hash: string | null | undefined): Promise<boolean> {
  if (!hash) {
    // Spend comparable time so unknown accounts are not told apart by timing.
    dummyHash ??= await hashPassword("not-a-real-password");
    await Bun.password.verify(plain, dummyHash).catch(() => false);
    return false;
  }
  return Bun.password.verify(plain, hash).catch(() => false);
}

let dummyHash: string | undefined;
