/**
 * The registrant's development mailbox (issue 19): outside production, a browser that just
 * registered opens /dev/mailbox without signing in (it cannot before verifying) and sees the
 * e-mails addressed to the address it registered — only those — to follow the verification link.
 * A visitor with no registration in its session is sent to /login as before.
 */
import { describe, expect, it } from "vitest";
import { lastMailTo, query, uniqueEmail } from "../support/db";
import { makeOutboundEmail, sql } from "../support/factories";
import { WebClient, location, registerOnWeb } from "../support/web";

async function registered() {
  const { c, email, res } = await registerOnWeb(new WebClient(), { tag: "mailbox-reg", company: "Padaria Caixa" });
  expect(location(res)).toBe("/success");
  await lastMailTo(email);
  const [verify] = await query<{ id: string; subject: string }>("SELECT id, subject FROM outbound_emails WHERE to_address = $1", [email]);
  return { c, email, verify };
}

describe("/dev/mailbox for a registrant not signed in", () => {
  it("lists only the e-mails to the registered address, opens one with its verification link, refuses the others", async () => {
    const { c, email, verify } = await registered();
    const otherSubject = `Para outra pessoa ${Math.random().toString(36).slice(2, 8)}`;
    const other = await makeOutboundEmail({ toAddress: uniqueEmail("someone-else"), subject: otherSubject, html: "<p>x</p>", textBody: "x", status: "local" });
    const mineSubject = `Segunda mensagem ${Math.random().toString(36).slice(2, 8)}`;
    const mine = await makeOutboundEmail({
      toAddress: email,
      subject: mineSubject,
      html: "<p>y</p>",
      textBody: "y",
      status: "local",
      createdAt: sql("now() + interval '1 second'"),
    });

    const list = await c.page("/dev/mailbox");
    expect(list.res.status).toBe(200);
    expect(list.html).toContain(email);
    expect(list.html).toContain(`href="/dev/mailbox/${verify.id}"`);
    expect(list.html).toContain(`href="/dev/mailbox/${mine}"`);
    expect(list.html).toContain(verify.subject);
    // Newest first: the e-mail made after the registration's comes before it.
    expect(list.html.indexOf(mineSubject)).toBeLessThan(list.html.indexOf(verify.subject));
    // Every row is addressed to the registrant; nothing of anyone else's, and no link to the account's SMTP peer mail.
    const rows = [...list.html.matchAll(/data-mail-id="([0-9a-f-]{36})"/g)].map((m) => m[1]);
    expect(new Set(rows)).toEqual(new Set([verify.id, mine]));
    expect(list.html).not.toContain(otherSubject);
    expect(list.html).not.toContain('href="/dev/mailbox/email"');

    const detail = await c.page(`/dev/mailbox/${verify.id}`);
    expect(detail.res.status).toBe(200);
    expect(detail.html).toContain(verify.subject);
    expect(detail.html).toMatch(/href="http:\/\/[^"]+\/email-verify\/[^"]+"/);

    // Someone else's e-mail, and an id that is none, are not found.
    expect((await c.get(`/dev/mailbox/${other}`)).status).toBe(404);
    expect((await c.get("/dev/mailbox/not-a-uuid")).status).toBe(404);
    // The account's SMTP peer mail stays for the signed-in.
    expect(location(await c.get("/dev/mailbox/email"))).toMatch(/^\/login/);
  });

  it("the page after registering links to the mailbox", async () => {
    const { c } = await registered();
    const success = await c.page("/success");
    const tag = success.html.match(/<a[^>]*data-testid="dev-mailbox-link"[^>]*>/)?.[0];
    expect(tag).toContain('href="/dev/mailbox"');
  });

  it("without a registration in the session, /dev/mailbox and its e-mails send to /login", async () => {
    const { verify } = await registered();
    const stranger = new WebClient();
    const res = await stranger.get("/dev/mailbox");
    expect(res.status).toBe(302);
    expect(location(res)).toBe(`/login?redirectTo=${encodeURIComponent("/dev/mailbox")}`);
    expect(location(await stranger.get(`/dev/mailbox/${verify.id}`))).toMatch(/^\/login/);
  });
});
