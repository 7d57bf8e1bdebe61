/** /channels "Live chat channels" with JavaScript off: connect a page or a Google Business Messages agent, see the webhook URL, errors translated (secrets never echoed), disconnect. */
import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { giveOmni, registerPerson } from "../support/api";
import { query } from "../support/db";
import { location, signIn } from "../support/web";

const visible = (html: string) => html.replace(/<script[\s\S]*?<\/script>/g, "");

describe("/channels without JavaScript", () => {
  it("connects and disconnects a Messenger page; a bad id is refused with a translated error", async () => {
    const person = await registerPerson("channels-web");
    const c = await signIn(person.email, person.password);
    // Without the omni plan the section explains it instead of failing.
    const noPlan = await c.page("/channels");
    expect(noPlan.res.status).toBe(200);
    expect(visible(noPlan.html)).toContain("plano Omni");
    await giveOmni(person.accountId);
    const page = await c.page("/channels");
    expect(page.res.status).toBe(200);
    expect(visible(page.html)).toContain("Canais do chat ao vivo");
    expect(visible(page.html)).toContain("Não conectado");

    const bad = await c.post("/channels", {
      intent: "connect",
      channel: "messenger",
      page_id: "abc",
      access_token: "EAAB-web-token-0123456789",
      app_secret: "web-app-secret-0123456789",
      verify_token: "verify-web",
    });
    expect(bad.status).toBe(422);
    expect(visible(await bad.text())).toContain("Informe apenas os números do ID");

    const pageId = String(Date.now());
    const ok = await c.post("/channels", {
      intent: "connect",
      channel: "messenger",
      page_id: pageId,
      access_token: "EAAB-web-token-0123456789",
      app_secret: "web-app-secret-0123456789",
      verify_token: "verify-web",
    });
    expect(ok.status).toBe(302);
    expect(location(ok)).toBe("/channels");
    const [row] = await query<{ id: string; secrets_sealed: string }>(`SELECT id, secrets_sealed FROM live_channel_connections WHERE account_id = $1 AND channel = 'messenger'`, [
      person.accountId,
    ]);
    expect(row.secrets_sealed).not.toContain("web-app-secret");
    const after = visible((await c.page("/channels")).html);
    expect(after).toContain(`/api/channels/messenger/${row.id}`);
    expect(after).not.toContain("web-app-secret-0123456789");

    const del = await c.post("/channels", { intent: "delete", id: row.id });
    expect(del.status).toBe(302);
    expect(await query(`SELECT 1 FROM live_channel_connections WHERE id = $1`, [row.id])).toHaveLength(0);
  });

  it("connects a Google Business Messages agent; a bad service account key is refused naming the field, and no secret comes back in the page", async () => {
    const person = await registerPerson("channels-web-gbm");
    await giveOmni(person.accountId);
    const c = await signIn(person.email, person.password);
    expect(visible((await c.page("/channels")).html)).toContain("Google Business Messages");
    const { privateKey } = generateKeyPairSync("rsa", {
      modulusLength: 2048,
      privateKeyEncoding: { type: "pkcs8", format: "pem" },
      publicKeyEncoding: { type: "spki", format: "pem" },
    });
    const agent = `brands/web-${Date.now()}/agents/agent-1`;
    const form = (key: Record<string, unknown>) => ({
      intent: "connect",
      channel: "google_business",
      agent_id: agent,
      client_token: "web-gbm-client-token-0123",
      service_account_key: JSON.stringify({
        type: "service_account",
        private_key: privateKey,
        client_email: "bm@web-demo.iam.gserviceaccount.com",
        token_uri: "https://oauth2.googleapis.com/token",
        ...key,
      }),
    });
    const bad = await c.post("/channels", form({ client_email: undefined }));
    expect(bad.status).toBe(422);
    const badHtml = visible(await bad.text());
    expect(badHtml).toContain("A chave da conta de serviço não tem um campo client_email válido");
    expect(badHtml).not.toContain("web-gbm-client-token-0123");
    expect(badHtml).not.toContain(privateKey.split("\n")[3]);

    const ok = await c.post("/channels", form({}));
    expect(ok.status).toBe(302);
    const [row] = await query<{ id: string; external_id: string; secrets_sealed: string }>(
      `SELECT id, external_id, secrets_sealed FROM live_channel_connections WHERE account_id = $1 AND channel = 'google_business'`,
      [person.accountId],
    );
    expect(row.external_id).toBe(agent);
    expect(row.secrets_sealed).not.toContain("web-gbm-client-token");
    const after = visible((await c.page("/channels")).html);
    expect(after).toContain(`/api/channels/google_business/${row.id}`);
    expect(after).not.toContain("web-gbm-client-token-0123");
  });
});
