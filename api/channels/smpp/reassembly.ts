/**
 * The parts of concatenated SMS (UDH IE 00/08), held in Redis until the last one arrives, for
 * every process at once: an ESME bound to two instances of our SMPP server, or an SMSC delivering
 * an MO's parts over the binds of two workers, may send part 1 to one process and part 2 to the
 * other. One hash per message (`{concat:<owner>}:<sender>|<recipient>|<ref>|<total>`): its id
 * (made by whichever process saw a part first) and each part by number. One script adds a part
 * and, when that completes the message, takes the parts and deletes the hash, so exactly one
 * caller gets the whole message. A part seen again replaces itself (it is not counted twice); a
 * message whose parts stop coming is dropped after `ttlMs` from its first part (as on a handset).
 */
import { randomUUID } from "node:crypto";
import { redis } from "../../lib/redis";
import { keys } from "../../lib/redis-keys";
import type { Concat } from "./protocol";

/** KEYS[1] the message's hash; ARGV: new id, seq, part, total, ttl ms. Returns {id} or {id, part1..partN}. */
const ADD = `
local id = redis.call('HGET', KEYS[1], 'id')
if not id then
  id = ARGV[1]
  redis.call('HSET', KEYS[1], 'id', id)
  redis.call('PEXPIRE', KEYS[1], ARGV[5])
end
redis.call('HSET', KEYS[1], 'p' .. ARGV[2], ARGV[3])
local total = tonumber(ARGV[4])
if redis.call('HLEN', KEYS[1]) - 1 < total then return {id} end
local out = {id}
for i = 1, total do out[i + 1] = redis.call('HGET', KEYS[1], 'p' .. i) or '' end
redis.call('DEL', KEYS[1])
return out
`;

export class SharedReassembler<P> {
  /** `owner`: whose parts these are (an SMPP user id, a provider connection id): the key's tag. */
  constructor(
    private owner: string,
    private ttlMs = 10 * 60_000,
  ) {}

  /**
   * The message's id (the same for all its parts, in every process), and its parts in order when
   * `part` completed it (else null). A part numbered outside 1..total is not kept.
   */
  async add(from: string, to: string, c: Concat, part: P): Promise<{ id: string; parts: P[] | null }> {
    const key = keys.smppConcat(this.owner, `${from}|${to}|${c.ref}|${c.total}`);
    if (c.total < 1 || c.seq < 1 || c.seq > c.total) {
      const id = (await redis().hget(key, "id")) ?? randomUUID();
      return { id, parts: null };
    }
    const out = (await redis().eval(ADD, 1, key, randomUUID(), String(c.seq), JSON.stringify(part), String(c.total), String(this.ttlMs))) as string[];
    const [id, ...held] = out;
    return { id, parts: held.length ? held.map((p) => JSON.parse(p) as P) : null };
  }
}
