/**
 * Fresh random secrets for one test run or one private stack, given explicitly to every process
 * it starts: a test run never reads or writes the checkout's development secrets file.
 */
import { randomBytes } from "node:crypto";
import { SECRET_NAMES } from "../../api/lib/env";

export type Secrets = Record<(typeof SECRET_NAMES)[number], string>;

export function randomSecrets(): Secrets {
  return Object.fromEntries(SECRET_NAMES.map((name) => [name, randomBytes(32).toString("base64url")])) as Secrets;
}
