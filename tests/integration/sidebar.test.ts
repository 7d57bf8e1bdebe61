/**
 * Issue 19: the sidebar, through the web without JavaScript. It offers only what the account's
 * plans include (the policy's plan gates, api/policy/policy.ts: live chat needs the omni service,
 * the live dashboard, supervision, opening hours, tabulations, departments and WhatsApp templates
 * their plan permission; and live chat's whole area the omni service, nav.ts) and each product
 * area is a <details> of its own: the group of the page on screen open, the others closed
 * (remix/app/components/shell/app-shell.tsx).
 */
import { describe, expect, it } from "vitest";
import { query } from "../support/db";
import { location, signedInCustomer, type WebClient } from "../support/web";

async function html(c: WebClient, path: string) {
  const { res, html } = await c.page(path);
  expect(res.status, path).toBe(200);
  return html;
}

/** The sidebar's groups in `html` (the page has it twice: the desktop column and the phone's menu): key -> open, the same in both. */
function groups(page: string): Record<string, boolean> {
  const seen: Record<string, boolean[]> = {};
  for (const m of page.matchAll(/<details\b([^>]*)\bdata-group="([^"]+)"([^>]*)>/g)) {
    const attrs = `${m[1]} ${m[3]}`;
    (seen[m[2]] ??= []).push(/(^|\s)open(=""|\s|$)/.test(attrs));
  }
  return Object.fromEntries(
    Object.entries(seen).map(([key, open]) => {
      expect(open, `group ${key} appears in both sidebars, open alike`).toEqual([open[0], open[0]]);
      return [key, open[0]];
    }),
  );
}

const links = (page: string) =>
  new Set([...page.matchAll(/<nav aria-label="Navegação principal"[\s\S]*?<\/nav>/g)].flatMap((n) => [...n[0].matchAll(/href="([^"]+)"/g)].map((h) => h[1])));

describe("the sidebar (issue 19)", () => {
  it("an account without a plan sees no live chat area nor the plan-gated links; the current page's group is open, the others closed", async () => {
    const { client } = await signedInCustomer("sidebar-noplan");
    const home = await html(client, "/");
    const shown = links(home);
    expect(shown.has("/sms/send")).toBe(true);
    expect(shown.has("/contacts")).toBe(true);
    // The policy's plan gates, and live chat's area as a whole: its macros, holidays and canned messages are live chat's too (nav.ts `feature`).
    for (const gated of [
      "/live",
      "/live/dashboard",
      "/live/manage",
      "/opening-hours",
      "/tabulations",
      "/departments",
      "/whatsapp/templates",
      "/chat/reports",
      "/chat/macros",
      "/holidays",
      "/responses",
    ]) {
      expect(shown.has(gated), `${gated} without a plan`).toBe(false);
    }
    const g = groups(home);
    expect(g.live).toBeUndefined();
    expect(g).toMatchObject({ main: true, sms: false, mail: false, account: false });

    const history = groups(await html(client, "/sms/reports/history"));
    expect(history).toMatchObject({ main: true, sms: true, mail: false, whatsapp: false, account: false });
    expect(groups(await html(client, "/billing/upgrade"))).toMatchObject({ sms: false, account: true });
  });

  it("with the Omni Essencial plan the live chat area appears with that plan's features only, its group open on its pages", async () => {
    const { client } = await signedInCustomer("sidebar-essencial", { balance: 50_000 });
    const [{ id }] = await query<{ id: string }>(`SELECT id FROM plans WHERE name = 'Omni Essencial'`);
    const res = await client.post(`/billing/plans/${id}`, {});
    expect(res.status).toBe(302);

    const page = await html(client, "/opening-hours");
    const shown = links(page);
    // The plan: omni with opening hours, departments and tabulations; no live dashboard (dashboard) nor supervision (spie).
    for (const href of ["/live", "/live/history", "/opening-hours", "/tabulations", "/departments", "/chat/reports", "/chat/macros", "/holidays", "/responses"])
      expect(shown.has(href), href).toBe(true);
    for (const href of ["/live/dashboard", "/live/manage", "/whatsapp/templates"]) expect(shown.has(href), href).toBe(false);
    expect(groups(page)).toMatchObject({ main: true, live: true, sms: false, people: false });
    // The policy refuses them too: the sidebar hides exactly what would answer the plan's 403.
    for (const gated of ["/live/dashboard", "/live/manage"]) {
      const r = await client.get(gated);
      await r.body?.cancel();
      expect([r.status, location(r)], gated).toEqual([302, "/403"]);
    }
  });
});
