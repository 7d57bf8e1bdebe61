/**
 * Due tasks of workflow boards notify their owner (issue 22; /notifications): a worker sweep
 * (api/worker.ts) claims the undone tasks whose due time has come and that were never notified,
 * and in ONE transaction stamps each `notified_at` and writes its notification. The rows are locked
 * (SKIP LOCKED), so workers side by side never claim the same task, and a task stamped is never
 * claimed again: each due time is notified exactly once; a rolled-back run leaves the tasks to the
 * next. A task whose due time is changed (updateTask) is notified again at its new time. Tasks of
 * archived deals are not notified (until the deal is restored).
 */
import { sequelize } from "../../models";
import { notify } from "../notifications/services";
import { rows } from "../lib/sql";

/** How many tasks one run claims; the sweep runs again soon for the rest. */
export const DUE_BATCH = 500;
/** How often the worker looks for due tasks. */
export const DUE_SWEEP_MS = 30_000;
export const TASK_DUE_KIND = "pipeline_task_due";

/** One run: answers how many tasks it notified. */
export async function notifyDueTasks(now: Date = new Date()): Promise<number> {
  return sequelize().transaction(async (transaction) => {
    const due = await rows<{ id: string; account_id: string; user_id: string | null; title: string; deal_id: string; board_id: string; lead_name: string }>(
      `WITH claimed AS (
         SELECT k.id FROM pipeline_tasks k JOIN pipeline_deals d ON d.id = k.deal_id AND d.account_id = k.account_id
          WHERE k.done_at IS NULL AND k.notified_at IS NULL AND k.due_at <= $1 AND d.archived_at IS NULL
          ORDER BY k.due_at, k.id LIMIT ${DUE_BATCH} FOR UPDATE OF k SKIP LOCKED)
       UPDATE pipeline_tasks k SET notified_at = now() FROM claimed, pipeline_deals d
        WHERE k.id = claimed.id AND d.id = k.deal_id
       RETURNING k.id, k.account_id, coalesce(k.owner_id, d.owner_id) AS user_id, k.title, d.id AS deal_id, d.board_id, d.lead_name`,
      [now],
      { transaction },
    );
    for (const k of due) {
      await notify(
        { transaction },
        {
          accountId: k.account_id,
          userId: k.user_id,
          kind: TASK_DUE_KIND,
          params: { title: k.title, lead: k.lead_name },
          link: `/pipelines/${k.board_id}/deals/${k.deal_id}`,
        },
      );
    }
    return due.length;
  });
}
