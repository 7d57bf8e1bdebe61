/**
 * E-mail campaigns in Chromium (issue 17, ADR 038), with and without JavaScript: /mail/send in
 * "contact group" mode sends one content with {{first_name}} to a group as a campaign, landing on
 * /mail/campaigns/{id}, whose per-status counters follow the messages (refetched with JavaScript, a
 * meta refresh without) until both are delivered through the local SMTP peer, each with its own
 * name; a scheduled group campaign is paused, resumed and canceled with the plain forms of its page,
 * every price coming back. /mail/campaigns lists both.
 */
import { describe, expect, inject, it } from "vitest";
import { login, registerPerson } from "../support/api";
import { hasChromium, newPage, requireChromiumInCi, screenshotPath, signIn, useBrowser } from "../support/browser";
import { query } from "../support/db";
import { rand, validatedDomain } from "../support/email";
import { balanceOf, makeGroupWithContacts, setAccount } from "../support/factories";

requireChromiumInCi();

const subjectAtPeer = async (to: string) =>
  (
    await fetch(new URL(`/email/_sim/messages?to=${encodeURIComponent(to)}`, inject("simulatorUrl")), {
      headers: { Authorization: `Bearer ${inject("simulatorApiKey")}` },
    }).then((r) => r.json() as Promise<{ data: Array<{ headers: { subject: string } }> }>)
  ).data[0]?.headers.subject;

/** A São Paulo wall-clock time two days ahead, as a datetime-local input takes it. */
function twoDaysAhead() {
  const d = new Date(Date.now() + 2 * 86_400_000 - 3 * 3_600_000);
  return d.toISOString().slice(0, 16);
}

describe.skipIf(!hasChromium)("e-mail campaigns in Chromium", () => {
  const browser = useBrowser();

  for (const javaScriptEnabled of [true, false]) {
    const how = javaScriptEnabled ? "js" : "nojs";
    it(`${javaScriptEnabled ? "with" : "without"} JavaScript: a group send with {{first_name}} delivered with live counters; a scheduled one paused, resumed and canceled, refunded`, async () => {
      const person = await registerPerson(`mail-camp-${how}`);
      await setAccount(person.accountId, { balance: 1_000 });
      const { domain } = await validatedDomain((await login(person.email, person.password)).token);
      const tag = rand();
      const ana = `ana-${tag}@destino.test`;
      const bia = `bia-${tag}@destino.test`;
      const group = `Clientes ${tag}`;
      await makeGroupWithContacts(person.accountId, group, [
        { firstName: "Ana", email: ana },
        { firstName: "Bia", email: bia },
      ]);
      const page = await newPage(browser(), { javaScriptEnabled });
      await signIn(page, person);

      const send = async (name: string, scheduled: boolean) => {
        await page.goto("/mail/send");
        await page.getByLabel("Remetente", { exact: true }).fill(`ofertas@${domain}`);
        await page.locator("input[data-mode=group]").check();
        await page.getByLabel("Grupo de contatos", { exact: true }).selectOption({ label: `${group} (2)` });
        await page.getByLabel("Nome da campanha (opcional)").fill(name);
        await page.getByLabel("Assunto").fill("Oi {{first_name}}");
        await page.getByLabel("HTML", { exact: true }).fill("<p>Olá {{first_name}}</p>");
        if (scheduled) await page.getByLabel("Enviar em (opcional)").fill(twoDaysAhead());
        await page.getByRole("button", { name: "Enviar", exact: true }).click();
        await page.waitForURL((u) => /^\/mail\/campaigns\/[0-9a-f-]{36}$/.test(u.pathname));
        await page.getByText("Campanha criada: 2 mensagens").waitFor();
        return new URL(page.url()).pathname.split("/").pop()!;
      };

      const now = await send(`Novidades ${how}`, false);
      await expect
        .poll(
          async () =>
            page
              .locator("[data-testid=campaign-counts] [data-count=delivered] dd")
              .textContent()
              .catch(() => null),
          { timeout: 30_000, interval: 500 },
        )
        .toBe("2");
      await page.screenshot({ path: screenshotPath(`mail-campaign-delivered-${how}`), fullPage: true });
      expect(await subjectAtPeer(ana)).toBe("Oi Ana");
      expect(await subjectAtPeer(bia)).toBe("Oi Bia");
      expect(await balanceOf(person.accountId)).toBe(998);

      const later = await send(`Agendada ${how}`, true);
      expect(await page.locator("[data-status]").first().textContent()).toBe("Agendada");
      await page.locator("[data-action=paused]").click();
      await page.getByText("Campanha pausada").waitFor();
      expect(await page.locator("[data-status]").first().textContent()).toBe("Pausada");
      await page.locator("[data-action=running]").click();
      await page.getByText("Campanha retomada").waitFor();
      await page.locator("[data-action=canceled]").click();
      await page.getByText(/Campanha cancelada/).waitFor();
      expect(await page.locator("[data-status]").first().textContent()).toBe("Cancelada");
      expect(await page.locator("[data-testid=campaign-counts] [data-count=failed] dd").textContent()).toBe("2");
      expect(await balanceOf(person.accountId)).toBe(998);
      const [{ n }] = await query<{ n: number }>("SELECT count(*)::int AS n FROM messages WHERE campaign_id = $1 AND error_code = 'canceled'", [later]);
      expect(n).toBe(2);

      await page.goto("/mail/campaigns");
      await page
        .locator(`tr[data-campaign="${now}"]`)
        .getByRole("link", { name: `Novidades ${how}` })
        .waitFor();
      await page
        .locator(`tr[data-campaign="${later}"]`)
        .getByRole("link", { name: `Agendada ${how}` })
        .waitFor();
      await page.screenshot({ path: screenshotPath(`mail-campaigns-list-${how}`), fullPage: true });
      await page.context().close();
    }, 120_000);
  }
});
