/**
 * A handset's message to an RCS agent, handed to the live chat as the RBM callback does once it
 * recorded it (api/rcs/live.ts receiveRcsInbound), in a process of its own against DATABASE_URL
 * and REDIS_URL (the flows' wake and the room's events go to Redis as the api's would).
 * Usage: DATABASE_URL=… REDIS_URL=… REDIS_PREFIX=… bun tests/support/rcs-inbound-run.ts '<json>'
 *   json: { accountId, agent: { id, rbm_agent_id }, from, text, postbackData?, providerMessageId, at? }
 */
import { receiveRcsInbound } from "../../api/rcs/live";
import { initModels } from "../../models";

// Sequelize's model classes are mapped once per process, here at its entry point, never in a use-case (ADR 025).
initModels();

const input = JSON.parse(process.argv[2] ?? "{}");
await receiveRcsInbound({ ...input, at: new Date(input.at ?? Date.now()) });
console.log(JSON.stringify({ ok: true }));
process.exit(0);
