/**
 * Onboarding (issue 19, ADR 050): the home page's checklist ticks each step from the account's own
 * data (e-mail verified, a plan or trial, balance, a test SMS to the person's own mobile, a channel,
 * a webchat room); starting the trial credits the trial credit through the ledger exactly once
 * whatever concurrent retries do; a 403 caused by the plan names the feature and where to upgrade,
 * a 403 caused by the role does not.
 */
import { describe, expect, it } from "vitest";
import { api, login, registerPerson } from "../support/api";
import { query } from "../support/db";
import { makeLiveRoom, makeMessage, setUser, sql } from "../support/factories";
import { signIn } from "../support/web";

const TRIAL_CREDIT = 200;
type Steps = { steps: Array<{ key: string; done: boolean; href: string }>; done: number; total: number; visible: boolean; dismissed: boolean };
const doneOf = (b: Steps) => Object.fromEntries(b.steps.map((s) => [s.key, s.done]));

describe("onboarding", () => {
  it("ticks each step from the account's real data, and hides when dismissed", async () => {
    const p = await registerPerson("onboard");
    const mobile = `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
    await query(`UPDATE users SET mobile = $2 WHERE id = $1`, [p.userId, mobile]);
    const { token } = await login(p.email, p.password);
    const read = async () => {
      const r = await api<Steps>("/api/onboarding", { token });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body;
    };

    let b = await read();
    expect(doneOf(b)).toEqual({ email: true, plan: false, balance: false, testSms: false, channel: false, widget: false });
    expect(b.steps.map((s) => s.href)).toEqual(["/email-verify", "/billing/upgrade", "/new-invoice", `/sms/send?to=${mobile}`, "/channels", "/widget/config"]);
    expect(b.visible).toBe(true);

    // The e-mail step is the user's own verification, nothing the checklist stores.
    await query(`UPDATE users SET email_verified_at = NULL WHERE id = $1`, [p.userId]);
    expect(doneOf(await read()).email).toBe(false);
    await setUser(p.userId, { verified: true });

    // An SMS to someone else is not the test; one to the person's own mobile is.
    await makeMessage(p.accountId, { recipient: "5511900000000", status: "delivered" });
    expect(doneOf(await read()).testSms).toBe(false);
    await makeMessage(p.accountId, { recipient: mobile, status: "delivered" });
    // A connected channel (a live channel connection) and a webchat room (the widget was used on a page).
    await query(`INSERT INTO live_channel_connections (account_id, channel, external_id, name, secrets_sealed) VALUES ($1, 'telegram', $2, 'bot', 'x')`, [
      p.accountId,
      `bot${Date.now()}${Math.floor(Math.random() * 1e6)}`,
    ]);
    await makeLiveRoom(p.accountId, { channel: "webchat" });
    b = await read();
    expect(doneOf(b)).toEqual({ email: true, plan: false, balance: false, testSms: true, channel: true, widget: true });

    // The home page shows the checklist, each step with its state.
    const web = await signIn(p.email, p.password);
    const home = await (await web.get("/")).text();
    expect(home).toContain('data-testid="onboarding"');
    expect(home).toContain('data-step="testSms" data-done="true"');
    expect(home).toContain('data-step="plan" data-done="false"');

    // Dismissed with the page's plain form (no JavaScript): stored per account, the list goes from the API's answer and the page.
    const posted = await web.post("/?index", { intent: "dismiss" });
    expect(posted.status).toBe(302);
    expect((await read()).dismissed).toBe(true);
    expect(await (await web.get("/")).text()).not.toContain('data-testid="onboarding"');
    const again = await api<Steps>("/api/onboarding/dismiss", { token, method: "POST" });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ dismissed: true, visible: false });
  });

  it("starting the trial credits the trial credit once under concurrent retries; the balance is the ledger's sum", async () => {
    const p = await registerPerson("onbtrial");
    const { token } = await login(p.email, p.password);
    const web = await signIn(p.email, p.password);
    // Eight API retries and the home page's plain form (no JavaScript), all at once.
    const [form, ...answers] = await Promise.all([
      web.post("/?index", { intent: "trial" }),
      ...Array.from({ length: 8 }, () => api<Steps & { credited: number }>("/api/onboarding/trial", { token, method: "POST" })),
    ]);
    expect(form.status).toBe(302);
    for (const a of answers) expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(answers.reduce((s, a) => s + a.body.credited, 0)).toBeLessThanOrEqual(TRIAL_CREDIT);
    // A later retry credits nothing more.
    expect((await api("/api/onboarding/trial", { token, method: "POST" })).body.credited).toBe(0);

    const [bal] = await query<{ balance: number }>(`SELECT balance::int AS balance FROM account_balances WHERE account_id = $1`, [p.accountId]);
    expect(bal.balance).toBe(TRIAL_CREDIT);
    const [ledger] = await query<{ sum: number; credits: number }>(
      `SELECT coalesce(sum(amount), 0)::int AS sum, count(*) FILTER (WHERE reference = 'trial_credit')::int AS credits FROM ledger_entries WHERE account_id = $1 AND book = 'customer'`,
      [p.accountId],
    );
    expect(ledger).toEqual({ sum: TRIAL_CREDIT, credits: 1 });
    expect(await query("SELECT * FROM ledger_mismatches() WHERE account_id = $1", [p.accountId])).toEqual([]);
    const plans = await query<{ trial: boolean }>(`SELECT p.is_trial AS trial FROM account_plans ap JOIN plans p ON p.id = ap.plan_id WHERE ap.account_id = $1`, [p.accountId]);
    expect(plans).toEqual([{ trial: true }]);
    const b = (await api<Steps>("/api/onboarding", { token })).body;
    expect(doneOf(b)).toMatchObject({ plan: true, balance: true });

    // The home page's figures: today's messages by channel and status, the balance, open rooms; the activity as sentences.
    await makeMessage(p.accountId, { status: "delivered" });
    await makeMessage(p.accountId, { status: "failed" });
    await makeMessage(p.accountId, { channel: "whatsapp", status: "sent" });
    await makeMessage(p.accountId, { status: "delivered", createdAt: sql("now() - interval '10 days'") });
    await makeLiveRoom(p.accountId, { status: "OPEN", closedAt: sql("NULL") });
    const row = (html: string, channel: string) => {
      const m = new RegExp(`<tr[^>]*data-channel="${channel}"[^>]*>(.*?)</tr>`).exec(html)?.[1] ?? "";
      return Object.fromEntries([...m.matchAll(/data-status="(\w+)"[^>]*>(\d+)</g)].map((x) => [x[1], Number(x[2])]));
    };
    // The figures are read from the replica (a moment behind at most).
    await expect.poll(async () => row(await (await web.get("/")).text(), "sms"), { timeout: 10_000, interval: 200 }).toEqual({ delivered: 1, sent: 0, pending: 0, failed: 1 });
    const today = await (await web.get("/")).text();
    expect(row(today, "whatsapp")).toEqual({ delivered: 0, sent: 1, pending: 0, failed: 0 });
    expect(row(await (await web.get("/?period=30d")).text(), "sms")).toEqual({ delivered: 2, sent: 0, pending: 0, failed: 1 });
    expect(today).toMatch(/data-testid="home-balance"[^>]*>R\$(&nbsp;|\s|\u00a0)2,00</);
    expect(today).toMatch(/data-testid="home-open-rooms"[^>]*>1</);
    expect(today).toContain("Começou o teste grátis");
    expect(today).not.toContain(">billing.trial_started<");
  });

  it("a 403 caused by the plan names the feature and where to upgrade; a 403 caused by the role does not", async () => {
    const p = await registerPerson("onbplan");
    const { token } = await login(p.email, p.password);
    // No omni plan: live chat's departments.
    const refused = await api("/api/departments", { token, lang: "en" });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: "PLAN_REQUIRED", params: { feature: "omni", upgrade: "/billing/upgrade" } });
    expect(refused.body.error.message).toContain("live chat");
    expect(refused.body.error.message).toContain("/billing/upgrade");
    const pt = await api("/api/departments", { token, lang: "pt-BR" });
    expect(pt.body.error.message).toContain("atendimento ao vivo");

    // The web: /live goes to /403, which says which plans include live chat and links the upgrade.
    const web = await signIn(p.email, p.password);
    const live = await web.get("/live");
    expect(live.status).toBe(302);
    expect(live.headers.get("location")).toBe("/403");
    const page = await (await web.get("/403")).text();
    expect(page).toContain('data-reason="plan"');
    expect(page).toContain('data-testid="forbidden-plan"');
    expect(page).toContain('href="/billing/upgrade"');
    const [omni] = await query<{ name: string }>(`SELECT name FROM plans WHERE service = 'omni' AND active AND NOT is_trial ORDER BY price LIMIT 1`);
    expect(page).toContain(omni.name);

    // A role refusal (an agent on the users screen) says the role, with no upgrade link.
    await query(`UPDATE memberships SET role = 'agent' WHERE account_id = $1 AND user_id = $2`, [p.accountId, p.userId]);
    const users = await web.get("/users");
    expect(users.headers.get("location")).toBe("/403");
    const rolePage = await (await web.get("/403")).text();
    expect(rolePage).toContain('data-reason="role"');
    expect(rolePage).not.toContain('href="/billing/upgrade"');
  });
});
