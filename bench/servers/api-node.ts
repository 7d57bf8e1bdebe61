/**
 * GET /api/accounts/info on Node's http module, doing what the Elysia route does: verify the
 * JWT (same secret, same library as @elysiajs/jwt), load the actor, call the same use-case.
 * Bundled for Node by bench/run.mjs; used only to compare runtimes.
 */
import http from "node:http";
import { jwtVerify } from "jose";
import { accountInfo } from "../../api/accounts/services";
import { loadActor } from "../../api/auth/actor";
import { env } from "../../api/lib/env";
import { isAppError } from "../../api/lib/errors";
import { initModels } from "../../models";

// Sequelize's model classes are mapped once per process, here at its entry point, never in a use-case (ADR 025).
initModels();

const secret = new TextEncoder().encode(env().JWT_SECRET);
const port = Number(process.env.PORT);

http
  .createServer(async (req, res) => {
    try {
      if (req.url !== "/api/accounts/info") throw Object.assign(new Error("not found"), { status: 404 });
      const raw = (req.headers.authorization ?? "").replace(/^Bearer\s+/, "");
      const { payload } = await jwtVerify(raw, secret, { algorithms: ["HS256"], requiredClaims: ["exp"] });
      if (payload.typ !== "access" || payload.tfa !== "ok") throw Object.assign(new Error("unauthenticated"), { status: 401 });
      const actor = await loadActor(String(payload.sub), (req.headers["x-account-id"] as string) ?? (payload.acc as string));
      const body = JSON.stringify(await accountInfo({ actor }));
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(body);
    } catch (e) {
      const status = isAppError(e) ? e.status : (e as { status?: number }).status ?? 500;
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ error: String((e as Error).message) }));
    }
  })
  .listen(port, "127.0.0.1", () => console.log(`node api on ${port}`));
