import pg from "pg";
import { Sequelize } from "sequelize";
import { env } from "../api/lib/env";

// bigint columns (money in centavos, identities) come back as JS numbers: safe up to 2^53 centavos.
pg.types.setTypeParser(20, (v) => Number(v));

let instance: Sequelize | undefined;

export function sequelize(): Sequelize {
  if (!instance) {
    instance = new Sequelize(env().DATABASE_URL, {
      dialect: "postgres",
      dialectModule: pg,
      logging: false,
      timezone: "+00:00",
      pool: { max: 10, min: 0, idle: 10_000 },
      define: { underscored: true, timestamps: true },
    });
  }
  return instance;
}

export async function closeDb() {
  await instance?.close();
  instance = undefined;
}
