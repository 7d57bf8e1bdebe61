/**
 * The simulator's loopback lookup provider (issue 22, ADR 058): the batch HLR / number-portability
 * API the HTTP adapter speaks (api/lookup/provider.ts), answering by ./hlr-rules.ts.
 *
 *   POST /hlr/v1/lookups {"msisdns": [...]}   Authorization: Bearer SIMULATOR_API_KEY
 *     -> 200 {"results": [...]} one per msisdn, in order; 401 without the key; 400 for a body
 *        that is not {msisdns: string[]} of 1..10,000; 503 when OUTAGE_MSISDN is in the batch.
 *   GET /hlr/_sim/stats -> {requests, numbers}: what it answered.
 *   POST /hlr/_sim/requests {"msisdns": [...]} -> {"requests": [n | null, …]}: the request that last
 *     asked each msisdn (numbered from 1), the batching proof of the tests (other tests' lookups in
 *     between do not disturb it).
 * State (the counters, the last request of up to 2,000,000 msisdns) is in memory.
 */
import { env } from "../lib/env";
import { OUTAGE_MSISDN, simulatedLookup } from "./hlr-rules";

const PATH = "/hlr";
const MAX_BATCH = 10_000;
const stats = { requests: 0, numbers: 0 };
const lastRequest = new Map<string, number>();
const REMEMBER = 2_000_000;

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
const problem = (status: number, code: string, message: string) => json({ error: { code, message } }, status);

export async function hlrPeer(req: Request, pathname: string): Promise<Response | null> {
  if (pathname !== PATH && !pathname.startsWith(`${PATH}/`)) return null;
  if (req.headers.get("authorization") !== `Bearer ${env().SIMULATOR_API_KEY}`) return problem(401, "unauthorized", "Invalid API key");
  if (pathname === `${PATH}/_sim/stats` && req.method === "GET") return json(stats);
  const isSim = pathname === `${PATH}/_sim/requests` && req.method === "POST";
  if (!isSim && (pathname !== `${PATH}/v1/lookups` || req.method !== "POST")) return problem(404, "not_found", "No such endpoint");
  let body: { msisdns?: unknown };
  try {
    body = (await req.json()) as { msisdns?: unknown };
  } catch {
    return problem(400, "bad_request", "Body is not JSON");
  }
  const list = body?.msisdns;
  if (!Array.isArray(list) || list.length === 0 || list.length > MAX_BATCH || list.some((m) => typeof m !== "string"))
    return problem(400, "bad_request", `msisdns must be 1 to ${MAX_BATCH} strings`);
  if (isSim) return json({ requests: (list as string[]).map((m) => lastRequest.get(m) ?? null) });
  if (list.includes(OUTAGE_MSISDN)) return problem(503, "unavailable", "HLR gateway unavailable");
  stats.requests++;
  stats.numbers += list.length;
  if (lastRequest.size > REMEMBER) lastRequest.clear();
  for (const m of list as string[]) lastRequest.set(m, stats.requests);
  return json({ results: (list as string[]).map(simulatedLookup) });
}
