/**
 * /sms/smpp, /sms/optouts, /sms/denylist and /sms/blacklist driven like a browser with JavaScript
 * off (plain GETs and form posts with the CSRF field), in a freshly registered account; the agent
 * role (no "smpp"/"optouts"/"denylist" in its allow-list) is refused. Translations: pt-BR default.
 */
import { beforeAll, describe, expect, inject, it } from "vitest";
import { query, uniqueEmail } from "../support/db";
import { smppClient } from "../support/smpp-client";
import { DEMO_PASSWORD, location, signIn, type WebClient } from "../support/web";
import { setUser } from "../support/factories";

let client: WebClient;
let accountId: string;

beforeAll(async () => {
  const email = uniqueEmail("smppweb");
  const res = await fetch(new URL("/api/auth/register", inject("apiUrl")), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      firstName: "Rita",
      lastName: "Smpp",
      email,
      password: DEMO_PASSWORD,
      confirmPassword: DEMO_PASSWORD,
      companyName: `Smpp ${Date.now().toString(36)}`,
      acceptTerms: true,
      locale: "pt-BR",
    }),
  });
  expect(res.status).toBe(201);
  const body = (await res.json()) as { user: { id: string }; account: { id: string } };
  accountId = body.account.id;
  await setUser(body.user.id, { verified: true });
  client = await signIn(email);
});

describe("/sms/smpp", () => {
  it("creates a user showing its password once, edits route/tps/enabled, refuses a taken system_id, deletes", async () => {
    const page = await client.page("/sms/smpp");
    expect(page.res.status).toBe(200);
    expect(page.html).toContain("Usuários SMPP");
    expect(page.html).toContain("Nenhum usuário SMPP ainda.");

    const sysId = `web${Date.now().toString(36).slice(-8)}`;
    const created = await client.post("/sms/smpp", { intent: "create", system_id: sysId, route: "T2", tps: "25", enabled: "on" });
    expect(created.status).toBe(200);
    const html = await created.text();
    const password = /<code[^>]*>([A-Za-z0-9]{8})<\/code>/.exec(html)?.[1];
    expect(password).toBeTruthy();
    const [row] = await query<{ id: string; route: string; tps: number; enabled: boolean; password_hash: string }>("SELECT * FROM smpp_users WHERE system_id = $1", [sysId]);
    expect(row).toMatchObject({ route: "T2", tps: 25, enabled: true });
    expect(row.password_hash.startsWith("$argon2id$")).toBe(true);
    // The password shown binds on our SMPP server.
    const smpp = await smppClient(inject("smppPort"));
    expect(await smpp.bind("transceiver", sysId, password!)).toBe(0);
    await smpp.close();
    // Shown once: the list never carries it.
    const list = await client.page("/sms/smpp");
    expect(list.html).toContain(sysId);
    expect(list.html).not.toContain(password!);

    const taken = await client.post("/sms/smpp", { intent: "create", system_id: sysId, route: "T1", tps: "10" });
    expect(taken.status).toBe(422);
    expect(await taken.text()).toContain("Este system_id já está em uso");
    const bad = await client.post("/sms/smpp", { intent: "create", system_id: "x", route: "T9", tps: "0" });
    expect(bad.status).toBe(422);

    const edited = await client.post("/sms/smpp", { intent: "edit", id: row.id, route: "T4", tps: "3" }); // unchecked: disabled
    expect(edited.status).toBe(302);
    expect(location(edited)).toBe("/sms/smpp");
    const [after] = await query<{ route: string; tps: number; enabled: boolean; password_hash: string }>("SELECT * FROM smpp_users WHERE id = $1", [row.id]);
    expect(after).toMatchObject({ route: "T4", tps: 3, enabled: false, password_hash: row.password_hash });

    const reset = await client.post("/sms/smpp", { intent: "edit", id: row.id, route: "T4", tps: "3", enabled: "on", reset_password: "on" });
    expect(reset.status).toBe(200);
    const newPassword = /<code[^>]*>([A-Za-z0-9]{8})<\/code>/.exec(await reset.text())?.[1];
    expect(newPassword && newPassword !== password).toBe(true);

    const del = await client.post("/sms/smpp", { intent: "delete", id: row.id });
    expect(del.status).toBe(302);
    expect(await query("SELECT 1 FROM smpp_users WHERE id = $1", [row.id])).toHaveLength(0);
    // Without the CSRF field nothing happens.
    expect((await client.post("/sms/smpp", { intent: "create", system_id: "nocsrf1" }, { csrf: null })).status).toBe(403);
  });
});

describe("/sms/optouts", () => {
  it("adds, searches, removes opt-outs and saves the keywords", async () => {
    const added = await client.post("/sms/optouts", { intent: "add", recipient: "(11) 94444-0001", channel: "sms" });
    expect(added.status).toBe(302);
    const [o] = await query<{ id: string; source: string }>("SELECT id, source FROM optouts WHERE account_id = $1 AND recipient = '+5511944440001'", [accountId]);
    expect(o.source).toBe("manual");
    const page = await client.page("/sms/optouts?q=944440001");
    expect(page.html).toContain("(11) 94444-0001");
    expect(page.html).toContain("SAIR, PARAR, CANCELAR, DESCADASTRAR, REMOVER, STOP");
    const bad = await client.post("/sms/optouts", { intent: "add", recipient: "123", channel: "sms" });
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain("Número de telefone inválido");

    const saved = await client.post("/sms/optouts", { intent: "settings", keywords: "sair, chega", resume_keywords: "voltar" });
    expect(saved.status).toBe(302);
    const rows = await query<{ keyword: string; action: string }>("SELECT keyword, action FROM optout_keywords WHERE account_id = $1 ORDER BY action, position", [accountId]);
    expect(rows).toEqual([
      { keyword: "SAIR", action: "optout" },
      { keyword: "CHEGA", action: "optout" },
      { keyword: "VOLTAR", action: "resume" },
    ]);
    const clash = await client.post("/sms/optouts", { intent: "settings", keywords: "sair", resume_keywords: "sair" });
    expect(clash.status).toBe(422);

    const removed = await client.post("/sms/optouts", { intent: "delete", id: o.id });
    expect(removed.status).toBe(302);
    expect(await query("SELECT 1 FROM optouts WHERE id = $1", [o.id])).toHaveLength(0);
  });
});

describe("/sms/denylist and /sms/blacklist", () => {
  it("adds, edits and removes deny-list entries; /sms/blacklist redirects to the same screen", async () => {
    expect((await client.post("/sms/denylist", { intent: "add", recipient: "11 93333-0001", reason: "fraude" })).status).toBe(302);
    const [d] = await query<{ id: string }>("SELECT id FROM deny_list WHERE account_id = $1 AND recipient = '+5511933330001'", [accountId]);
    const page = await client.page("/sms/denylist");
    expect(page.html).toContain("Lista de bloqueio");
    expect(page.html).toContain("fraude");
    expect((await client.post("/sms/denylist", { intent: "edit", id: d.id, recipient: "11 93333-0002", reason: "pedido" })).status).toBe(302);
    expect((await query("SELECT recipient, reason FROM deny_list WHERE id = $1", [d.id]))[0]).toEqual({ recipient: "+5511933330002", reason: "pedido" });
    const bl = await client.get("/sms/blacklist?q=9333");
    expect(bl.status).toBe(302);
    expect(location(bl)).toBe("/sms/denylist?q=9333");
    expect((await client.post("/sms/denylist", { intent: "delete", id: d.id })).status).toBe(302);
    expect(await query("SELECT 1 FROM deny_list WHERE id = $1", [d.id])).toHaveLength(0);
  });

  it("the agent role cannot open these screens", async () => {
    const agent = await signIn("agent@demo.example");
    for (const path of ["/sms/smpp", "/sms/optouts", "/sms/denylist"]) {
      const res = await agent.get(path);
      expect([302, 403], path).toContain(res.status);
      if (res.status === 302) expect(location(res), path).not.toBe(path);
    }
  });
});
