/** The frame of every room use-case: one transaction, then the notices, then the distribution. */
import { publishLive } from "../streams";
import { distribute } from "./distribution";
import { sequelize } from "../../../models";
import type { RoomWork } from "./transition";

/**
 * Runs `work` in a transaction; after COMMIT publishes its notices (a browser never sees a state
 * the database does not hold) and distributes the queues it touched.
 */
export async function inRoomTransaction<T>(work: (w: RoomWork) => Promise<T>): Promise<T> {
  const notices: RoomWork["notices"] = [];
  const accounts = new Set<string>();
  const result = await sequelize().transaction((transaction) => work({ transaction, notices, distribute: accounts }));
  await publishLive(notices);
  for (const accountId of accounts) await distribute(accountId);
  return result;
}
