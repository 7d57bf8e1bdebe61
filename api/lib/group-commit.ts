/**
 * Group commit: work items that arrive while a write of the same key is in flight are written
 * together by the next one (one statement, one COMMIT, one WAL flush for all of them), so a hot
 * row (an account's balance) is locked once per batch instead of once per item. Nothing waits
 * for a timer: an item that finds its key idle is written at once, alone; under load the batches
 * grow by themselves to what arrived during the previous write (at most `max`). ADR 027.
 *
 * The queue holds only items whose callers are still waiting for their answer (nothing here is
 * acknowledged to anyone before its write commits), so a process that dies loses no accepted
 * work: the callers' connections break and they retry. One write in flight per key per process;
 * processes batch independently and meet on the database's row lock.
 */
type Waiting<I, R> = { item: I; resolve: (r: R) => void; reject: (e: unknown) => void };

export class GroupCommit<I, R> {
  private readonly queues = new Map<string, Waiting<I, R>[]>();

  /** `write` answers one result per item, in the items' order; when it throws, every item of that batch gets the error. */
  constructor(
    private readonly write: (key: string, items: I[]) => Promise<R[]>,
    private readonly max = 256,
  ) {}

  run(key: string, item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const queue = this.queues.get(key);
      if (queue) {
        queue.push({ item, resolve, reject });
        return;
      }
      const fresh: Waiting<I, R>[] = [{ item, resolve, reject }];
      this.queues.set(key, fresh);
      void this.drain(key, fresh);
    });
  }

  /** Writes the key's queue batch after batch until it is empty, then forgets the key. */
  private async drain(key: string, queue: Waiting<I, R>[]) {
    while (queue.length > 0) {
      const batch = queue.splice(0, this.max);
      try {
        const results = await this.write(
          key,
          batch.map((w) => w.item),
        );
        if (results.length !== batch.length) throw new Error(`group commit: ${results.length} results for ${batch.length} items`);
        for (const [i, w] of batch.entries()) w.resolve(results[i]);
      } catch (e) {
        for (const w of batch) w.reject(e);
      }
    }
    this.queues.delete(key);
  }
}
