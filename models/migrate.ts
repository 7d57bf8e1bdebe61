/** Versioned migrations (umzug). `bun models/migrate.ts [up|down]`. Never sync() outside tests. */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { QueryInterface } from "sequelize";
import { SequelizeStorage, Umzug, type MigrationFn as UmzugMigrationFn } from "umzug";
import { closeDb, sequelize } from "./db";

export type MigrationFn = UmzugMigrationFn<QueryInterface>;

const dir = join(import.meta.dir, "migrations");

export function migrator() {
  const db = sequelize();
  return new Umzug<QueryInterface>({
    migrations: readdirSync(dir)
      .filter((f) => /^\d{4}-.*\.ts$/.test(f))
      .sort()
      .map((file) => ({
        name: file.replace(/\.ts$/, ""),
        up: async (params) => (await import(join(dir, file))).up(params),
        down: async (params) => (await import(join(dir, file))).down(params),
      })),
    context: db.getQueryInterface(),
    storage: new SequelizeStorage({ sequelize: db, tableName: "schema_migrations" }),
    logger: undefined,
  });
}

if (import.meta.main) {
  const direction = process.argv[2] ?? "up";
  const m = migrator();
  const done = direction === "down" ? await m.down() : await m.up();
  console.log(`migrations ${direction}: ${done.map((d) => d.name).join(", ") || "nothing to do"}`);
  await closeDb();
}
