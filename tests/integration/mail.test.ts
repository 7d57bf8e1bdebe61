/** Transactional e-mail goes out through the worker over real SMTP (a loopback peer started by the test setup). */
import { afterAll, describe, expect, inject, it } from "vitest";
import { lastMailTo, query, uniqueEmail } from "../support/db";
import { jobsHandled } from "../support/wait";
import { WebClient } from "../support/web";
import { ago, makeOutboundEmail } from "../support/factories";
import { openRedis } from "../support/redis";

const redis = openRedis(inject("redisUrl"));
afterAll(() => redis.quit());

async function receivedBy(address: string, ms = 8000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const all = (await redis.lrange(`${inject("redisPrefix")}smtp:received`, 0, -1)).map((m) => JSON.parse(m) as { to: string[]; raw: string });
    const hit = all.filter((m) => m.to.includes(address.toLowerCase()));
    if (hit.length) return hit;
    await new Promise((r) => setTimeout(r, 100));
  }
  return [];
}

describe("mail delivery", () => {
  it("a registration's verification e-mail is delivered once over SMTP and marked sent", async () => {
    const email = uniqueEmail("smtp");
    const c = new WebClient();
    await c.get("/register");
    const pw = "Correio!Forte#2026";
    await c.post("/register", { firstName: "Caio", lastName: "Reis", companyName: "Correio Ltda", email, password: pw, confirmPassword: pw, acceptTerms: "on" });
    await lastMailTo(email);
    const got = await receivedBy(email);
    expect(got).toHaveLength(1);
    expect(got[0].raw).toMatch(/Subject: Confirme seu e-mail/);
    expect(got[0].raw).toContain("/email-verify/");
    const until = Date.now() + 5000;
    let status = "";
    while (Date.now() < until && status !== "sent") {
      [{ status }] = await query<{ status: string }>("SELECT status FROM outbound_emails WHERE to_address = $1", [email]);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe("sent");
  });

  it("a lost stream announcement is recovered by the sweep, still delivered exactly once", async () => {
    const email = uniqueEmail("sweep");
    // a queued row whose XADD never happened (as if the process died right after commit)
    await makeOutboundEmail({ toAddress: email, subject: "Teste de varredura", html: "<p>x</p>", textBody: "x", status: "queued", updatedAt: ago("1 minute") });
    const got = await receivedBy(email, 25_000);
    expect(got).toHaveLength(1);
    // Signal: the row is sent (the sweep announces only queued rows) and the mailers handled every
    // entry on the stream by now (a second announcement of it included).
    await expect.poll(async () => (await query<{ status: string }>("SELECT status FROM outbound_emails WHERE to_address = $1", [email]))[0]?.status).toBe("sent");
    await jobsHandled("jobs:mail", "mailers");
    expect(await receivedBy(email, 100)).toHaveLength(1);
  }, 40_000);
});
