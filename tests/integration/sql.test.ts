/**
 * The SQL helper of ADR 025 (api/lib/sql.ts) against the run's PostgreSQL: rows and row read with
 * bind parameters, exec answers the number of rows a statement touched whatever its kind, and all
 * three run inside the transaction they are given.
 */
import { afterAll, describe, expect, inject, it } from "vitest";

process.env.DATABASE_URL = inject("databaseUrl");
const { exec, row, rows } = await import("../../api/lib/sql");
const { closeDb, sequelize } = await import("../../models/db");

afterAll(() => closeDb());

describe("api/lib/sql", () => {
  it("reads rows with bind parameters; row is the first or null", async () => {
    expect(await rows<{ n: number }>("SELECT n FROM generate_series(1, $1::int) AS n ORDER BY n", [3])).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(await row<{ t: string }>("SELECT $1::text AS t", ["it's; DROP TABLE x"])).toEqual({ t: "it's; DROP TABLE x" });
    expect(await row("SELECT 1 WHERE false")).toBeNull();
  });

  it("exec counts the rows an INSERT, UPDATE or DELETE touched", async () => {
    await sequelize().transaction(async (transaction) => {
      const t = { transaction };
      await exec("CREATE TEMP TABLE sql_helper_check (n int) ON COMMIT DROP", [], t);
      expect(await exec("INSERT INTO sql_helper_check SELECT generate_series(1, $1::int)", [4], t)).toBe(4);
      expect(await exec("UPDATE sql_helper_check SET n = n * 10 WHERE n > $1", [2], t)).toBe(2);
      expect(await exec("DELETE FROM sql_helper_check WHERE n = $1", [99], t)).toBe(0);
      expect(await rows<{ n: number }>("SELECT n FROM sql_helper_check ORDER BY n", [], t)).toEqual([{ n: 1 }, { n: 2 }, { n: 30 }, { n: 40 }]);
    });
  });

  it("runs inside the given transaction: a rollback undoes the statements", async () => {
    const table = `sql_helper_rollback_${Date.now()}`;
    await expect(
      sequelize().transaction(async (transaction) => {
        await exec(`CREATE TABLE ${table} (v text)`, [], { transaction });
        await exec(`INSERT INTO ${table} VALUES ($1)`, ["kept?"], { transaction });
        expect(await row(`SELECT v FROM ${table}`, [], { transaction })).toEqual({ v: "kept?" });
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    // DDL is transactional in PostgreSQL: had the statements run outside the transaction, the table would remain.
    expect(await row("SELECT to_regclass($1) AS t", [`public.${table}`])).toEqual({ t: null });
  });
});

describe("api/lib/pg-session (a job's own connection)", () => {
  it("a connection cut under it (pg_terminate_backend), idle or mid-query, fails the query and ends the client, never the process", async () => {
    const { openSession } = await import("../../api/lib/pg-session");
    const quiet = console.error;
    console.error = () => undefined; // the helper logs the lost connection; expected here
    try {
      for (const midQuery of [false, true]) {
        const session = await openSession("mensageria-test-session");
        const pid = (await session.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0].pid;
        const ended = new Promise<void>((r) => session.once("end", () => r()));
        const running = midQuery
          ? session.query("SELECT pg_sleep(30)").then(
              () => "finished",
              (e: Error) => e.message,
            )
          : null;
        await row("SELECT pg_terminate_backend($1)", [pid]);
        await ended; // without a listener, pg's 'error' event here is an uncaught exception (vitest fails the run)
        if (running) expect(await running).toMatch(/terminat/);
      }
    } finally {
      console.error = quiet;
    }
  });
});
