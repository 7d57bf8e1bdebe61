import { describe, expect, it } from "vitest";
import { keysFor, shardOf, tagOf } from "./redis-keys";
import { parseRedisUrl, slotOf } from "./redis";

describe("slotOf (Redis Cluster's CRC16 of the hash tag)", () => {
  it("gives the slots Redis gives", () => {
    // Values from CLUSTER KEYSLOT on a real cluster and the cluster specification's example (CRC16 of "123456789" = 0x31C3).
    expect(slotOf("123456789")).toBe(0x31c3 & 16383);
    expect(slotOf("foo")).toBe(12182);
    expect(slotOf("bar")).toBe(5061);
    expect(slotOf("{user1000}.following")).toBe(slotOf("{user1000}.followers"));
    expect(slotOf("{user1000}.following")).toBe(slotOf("user1000"));
    // An empty tag is no tag: the whole key is hashed.
    expect(slotOf("foo{}{bar}")).not.toBe(slotOf("bar"));
    expect(slotOf("foo{{bar}}zap")).toBe(slotOf("{bar"));
  });
});

describe("the key scheme", () => {
  const k = keysFor("test:abc:");
  const user = "2b0c8f7e-0d7c-4d9e-9c1e-6f1c2b1a0e11";
  const account = "7d7f2e1a-3b4c-4d5e-8f90-a1b2c3d4e5f6";
  const room = "0f0e0d0c-0b0a-4909-8807-060504030201";

  it("puts the keys each multi-key command touches in one slot", () => {
    // MGET on every API call
    expect(slotOf(k.tokensValidAfter(user))).toBe(slotOf(k.tokenFamilyRevoked(user, "fam-1")));
    // MULTI SADD+EXPIRE of a person's sessions index, and the TOTP replay mark
    expect(slotOf(k.userSessions(user))).toBe(slotOf(k.totpUsed(user, 5)));
    // the presence scripts (2 keys)
    expect(slotOf(k.livePresence(account, user))).toBe(slotOf(k.liveSeen(account)));
    // the dispatch bucket script (2 keys)
    expect(slotOf(k.dispatchBucket("sms:sim:default"))).toBe(slotOf(k.dispatchBucketPause("sms:sim:default")));
    // one live event's pipeline: account and room streams; the realtime reader's wake-up stream
    const live = k.accountLiveStream(account);
    expect(slotOf(live)).toBe(slotOf(k.roomLiveStream(account, room)));
    expect(slotOf(live)).toBe(slotOf(k.notificationStream(account)));
    expect(slotOf(live)).toBe(slotOf(k.hubWake(tagOf(live), "p1")));
    // the SMTP peer's mailbox script (2 keys)
    expect(slotOf(k.simulatorMailIds())).toBe(slotOf(k.simulatorMailEntries()));
    // the runner's MULTI XADD dead + XACK
    for (let n = 0; n < 4; n++) expect(slotOf(k.jobStream("messages:sms", n))).toBe(slotOf(k.deadStream("messages:sms", n)));
  });

  it("writes every key under the prefix with a hash tag", () => {
    for (const key of [k.session("s1"), k.rateLimit("login-ip", "1.2.3.4"), k.jobStream("jobs:mail", 0), k.channel("revocations"), k.smppTps("u", 1)]) {
      expect(key.startsWith("test:abc:{")).toBe(true);
      expect(tagOf(key).length).toBeGreaterThan(0);
    }
  });

  it("spreads job stream shards and accounts over the slots, and keeps an id in one shard", () => {
    const slots = new Set(Array.from({ length: 6 }, (_, n) => slotOf(k.jobStream("messages:sms", n))));
    expect(slots.size).toBe(6);
    const ids = Array.from({ length: 1000 }, (_, i) => `id-${i}`);
    const counts = [0, 0, 0, 0];
    for (const id of ids) counts[shardOf(id, 4)]++;
    for (const c of counts) expect(c).toBeGreaterThan(150);
    expect(shardOf("same", 4)).toBe(shardOf("same", 4));
    expect(shardOf("anything", 1)).toBe(0);
  });
});

describe("REDIS_URL", () => {
  it("is one server or a cluster's seed list", () => {
    expect(parseRedisUrl("redis://127.0.0.1:6379/0")).toEqual({ cluster: false, url: "redis://127.0.0.1:6379/0" });
    expect(parseRedisUrl("redis://10.0.0.1:7000, redis://10.0.0.2:7001")).toEqual({
      cluster: true,
      seeds: [
        { host: "10.0.0.1", port: 7000 },
        { host: "10.0.0.2", port: 7001 },
      ],
    });
    expect(parseRedisUrl("redis+cluster://:s3cret@10.0.0.1:7000")).toMatchObject({ cluster: true, seeds: [{ host: "10.0.0.1", port: 7000 }], password: "s3cret" });
  });

  it("names what is wrong", () => {
    expect(() => parseRedisUrl("")).toThrow(/empty/);
    expect(() => parseRedisUrl("localhost:6379")).toThrow(/must start with redis:\/\//);
    expect(() => parseRedisUrl("redis://a:7000,nonsense")).toThrow(/"nonsense" is not a URL/);
    expect(() => parseRedisUrl("redis://a:7000/2,redis://b:7000")).toThrow(/only database 0/);
  });
});
