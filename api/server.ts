import { createApp } from "./app";
import { env } from "./lib/env";
import { initModels } from "../models";
import { watchReadReplica } from "./lib/read-replica";

// Sequelize's model classes are mapped once per process, here at its entry point, never in a use-case (ADR 025).
initModels();
// The read replica (ADR 030), when configured, is measured from the start: its state is logged now, not at the first report.
void watchReadReplica();

const app = createApp().listen({ port: env().API_PORT, hostname: "127.0.0.1", maxRequestBodySize: env().MAX_UPLOAD_MB * 1024 * 1024 });
console.log(`api listening on http://127.0.0.1:${app.server?.port}/api (docs at /api/docs)`);

// A graceful stop (Procfile managers and the benches send SIGTERM): no new connections, then exit,
// so Bun's exit hooks (e.g. --cpu-prof output) run.
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    void app.stop().finally(() => process.exit(0));
    setTimeout(() => process.exit(0), 2000).unref();
  });
}
