/**
 * A PostgreSQL connection of a job's own, outside the pool: for a session advisory lock, COPY
 * streams, or a long read. Its connection may be cut under it (a server restart, a failover,
 * pg_terminate_backend): the query in flight then fails and the job handles that like any other
 * failure, but pg also emits 'error' on the client, and an 'error' event nobody listens to ends
 * the whole process (every job of the worker with it). So every such client listens, here.
 */
import pg from "pg";
import { env } from "./env";

export async function openSession(name: string, url: string = env().DATABASE_URL): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, application_name: name });
  client.on("error", (e) => console.error(`${name}: connection lost: ${e.message}`));
  await client.connect();
  return client;
}
