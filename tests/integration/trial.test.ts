/**
 * The 30-day trial (issue 18, spec section 1): a trial registration holds the experience plan
 * (omni, every feature) for 30 days; in its last week every screen says when it ends; at its end
 * the features close through the plan gates, nothing is deleted, every screen asks to choose a
 * plan (/billing says so too, and GET /api/accounts/info has trial_ended_at); choosing a plan
 * (a change from the trial: its first period paid whole) ends the notice and opens the features.
 */
import { describe, expect, inject, it } from "vitest";
import { api, login } from "../support/api";
import { query, uniqueEmail } from "../support/db";
import { setAccount, setUser } from "../support/factories";
import { DEMO_PASSWORD, signIn } from "../support/web";

async function trialCustomer() {
  const email = uniqueEmail("trial");
  const res = await fetch(new URL("/api/auth/register/trial", inject("apiUrl")), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      firstName: "Tina",
      lastName: "Teste",
      email,
      password: DEMO_PASSWORD,
      confirmPassword: DEMO_PASSWORD,
      companyName: `Trial ${email.split("@")[0]}`,
      acceptTerms: true,
      locale: "pt-BR",
    }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  const body = (await res.json()) as { user: { id: string }; account: { id: string } };
  await setUser(body.user.id, { verified: true });
  return { email, accountId: body.account.id };
}

const endTrialAt = (accountId: string, at: string) => query(`UPDATE account_plans SET ends_at = now() + $2::interval WHERE account_id = $1 AND service = 'omni'`, [accountId, at]);

describe("the trial", () => {
  it("says when it ends in its last week, closes its features at the end without deleting anything, and asks to choose a plan until one is", async () => {
    const c = await trialCustomer();
    const web = await signIn(c.email);
    // Early in the 30 days: no notice; the live chat features are open.
    const first = await (await web.get("/billing")).text();
    expect(first).not.toContain('data-testid="trial-notice"');
    expect((await web.get("/departments")).status).toBe(200);

    // Its last week: every screen says when it ends.
    await endTrialAt(c.accountId, "3 days");
    const ending = await (await web.get("/contacts")).text();
    expect(ending).toContain('data-testid="trial-notice"');
    expect(ending).toContain("Sua experiência termina em");

    // Ended: the features close (plan gate), the account's data stays, every screen asks to choose a plan.
    await query(`INSERT INTO departments (account_id, name, description) VALUES ($1, 'Vendas', 'kept')`, [c.accountId]);
    await endTrialAt(c.accountId, "-1 second");
    const token = (await login(c.email, DEMO_PASSWORD)).token;
    expect((await api("/api/departments", { token })).status).toBe(403);
    expect(await query(`SELECT name FROM departments WHERE account_id = $1`, [c.accountId])).toEqual([{ name: "Vendas" }]);
    const info = await api("/api/accounts/info", { token });
    expect(info.body.trial_ended_at).toEqual(expect.any(String));
    const ended = await (await web.get("/contacts")).text();
    expect(ended).toContain("Sua experiência terminou em");
    expect(ended).toContain('href="/billing/upgrade"');
    expect(await (await web.get("/billing")).text()).toContain('data-testid="trial-ended"');

    // A plan chosen (paid from the balance): the notice goes, the features open again.
    await setAccount(c.accountId, { balance: 100_000 });
    const omni = (await query<{ id: string }>(`SELECT id FROM plans WHERE name = 'Omni Essencial'`))[0].id;
    const changed = await api(`/api/plans/${omni}/change`, { token, method: "POST" });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.charged).toBe(14900);
    expect((await api("/api/accounts/info", { token })).body.trial_ended_at).toBeNull();
    expect(await (await web.get("/contacts")).text()).not.toContain('data-testid="trial-notice"');
    expect((await api("/api/departments", { token })).status).toBe(200);
  });
});
