/**
 * Which senders an account may send SMS from — the one rule (issue 11, item 7). The accept
 * use-case (api/sms/accept.ts) checks it for every send path: the API, the /sms/send screen,
 * campaigns (group, list and CSV file sends, one sender per send) and SMPP submit_sm; the send
 * screen and GET /api/sms/senders offer the same list (api/sms/catalog.ts).
 *
 * An account may send from:
 *   - no sender (blank): the route's default, set by the platform's provider;
 *   - one of its own short codes that is active (short_codes, assigned by the platform).
 * Neither the spec nor the data model has approved alphanumeric sender IDs, so a name such as
 * "LOJA" is not allowed: nothing would stop an account from posing as another brand or bank.
 */
import { type Transaction } from "sequelize";
import { AppError } from "../lib/errors";
import { rows } from "../lib/sql";

export type OwnSender = { number: string; nickname: string };

/** The account's active short codes, by number. */
export async function ownSenders(accountId: string, transaction?: Transaction): Promise<OwnSender[]> {
  return rows<OwnSender>(`SELECT number, nickname FROM short_codes WHERE account_id = $1 AND status = 'active' ORDER BY number`, [accountId], { transaction });
}

/** The rule as an SQL condition on two bind parameters (the account, the trimmed sender), for statements that read it with other facts. */
export const ownSenderSql = (account: string, sender: string) =>
  `(${sender} = '' OR EXISTS (SELECT 1 FROM short_codes WHERE account_id = ${account} AND number = ${sender} AND status = 'active'))`;

/** Whether the account may send from `sender` (already trimmed; blank is the route's default). */
export async function isOwnSender(accountId: string, sender: string, transaction?: Transaction): Promise<boolean> {
  if (sender === "") return true;
  const [found] = await rows<{ ok: boolean }>(`SELECT ${ownSenderSql("$1", "$2")} AS ok`, [accountId, sender], { transaction });
  return found.ok;
}

/** The refusal of a sender the account may not send from (422, field `from`). */
export const senderNotOwned = () => new AppError("VALIDATION", { fields: { from: ["sms.errors.senderNotOwned"] } });

/** Refuses (422, field `from`) a sender the account may not send from. */
export async function assertOwnSender(accountId: string, sender: string, transaction?: Transaction): Promise<void> {
  if (!(await isOwnSender(accountId, sender, transaction))) throw senderNotOwned();
}

/** The refusal of a send that names no sender when the account's default (ADR 071) is no longer usable (422, field `from`). */
export const defaultSenderUnusable = () => new AppError("VALIDATION", { fields: { from: ["settings.resources.errors.defaultSmsSenderUnusable"] } });
