/** The JWT API keeps tenants apart and mirrors the permission policy; every route is documented. */
import { beforeAll, describe, expect, it } from "vitest";
import { query, uniqueEmail } from "../support/db";
import { DEMO_PASSWORD } from "../support/web";
import { api, giveOmni, login, registerPerson, type Person } from "../support/api";
import { addMember, makeNotification, makeUser } from "../support/factories";

type Snapshot = Record<string, unknown>;
async function snapshotB(b: Person, deptId: string, invitationId: string): Promise<Snapshot> {
  const [user] = await query("SELECT first_name, last_name, mobile FROM users WHERE id = $1", [b.userId]);
  const memberships = await query("SELECT user_id, role, is_agent, department_id FROM memberships WHERE account_id = $1 ORDER BY user_id", [b.accountId]);
  const [dept] = await query("SELECT name, description, status FROM departments WHERE id = $1", [deptId]);
  const [inv] = await query("SELECT email, role, accepted_at FROM invitations WHERE id = $1", [invitationId]);
  const [account] = await query("SELECT name, currency, city FROM accounts WHERE id = $1", [b.accountId]);
  return { user, memberships, dept, inv, account };
}

describe("tenant scoping through the API", () => {
  let a: Person, b: Person;
  let aToken: string, bToken: string;
  let deptId: string, invitationId: string;
  let before: Snapshot;

  beforeAll(async () => {
    [a, b] = await Promise.all([registerPerson("tenantA"), registerPerson("tenantB")]);
    await giveOmni(b.accountId);
    [aToken, bToken] = await Promise.all([login(a.email, a.password).then((t) => t.token), login(b.email, b.password).then((t) => t.token)]);

    const dept = await api("/api/departments", { token: bToken, body: { name: "Atendimento B", description: "fila do B" } });
    expect(dept.status).toBe(201);
    deptId = dept.body.id;
    // 201 + Location: the new department, which GET answers
    expect(dept.headers.get("location")).toBe(`/api/departments/${deptId}`);
    const read = await api(dept.headers.get("location")!, { token: bToken });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: deptId, name: "Atendimento B", description: "fila do B", status: "active", members: 0 });
    const inv = await api("/api/users/invite", { token: bToken, body: { email: uniqueEmail("invitedB"), role: "agent" } });
    expect(inv.status).toBe(201);
    expect(inv.headers.get("location")).toBe(`/api/users/invitations/${inv.body.id}`);
    expect(inv.body.token).toBeUndefined(); // the link's secret only travels by e-mail
    invitationId = inv.body.id;
    before = await snapshotB(b, deptId, invitationId);
  });

  it("B sees its own resources", async () => {
    const users = await api("/api/users", { token: bToken });
    expect(users.status).toBe(200);
    expect(users.body).toMatchObject({ total: 1, next_cursor: null });
    expect(users.body).not.toHaveProperty("page");
    expect(users.body.data[0].id).toBe(b.userId);
    expect(users.body.invitations.map((i: { id: string }) => i.id)).toContain(invitationId);
    const depts = await api("/api/departments", { token: bToken });
    expect(depts.body.data.map((d: { id: string }) => d.id)).toEqual([deptId]);
    expect(depts.body.next_cursor).toBeNull();
    expect((await api(`/api/users/${b.userId}`, { token: bToken })).status).toBe(200);
  });

  it("A gets 404 (or 403) for every one of B's resources, and B's rows are unchanged", async () => {
    const attempts: Array<[string, string, unknown?]> = [
      ["GET", `/api/users/${b.userId}`],
      ["PUT", `/api/users/${b.userId}`, { firstName: "Hacked", lastName: "By A", role: "agent" }],
      ["DELETE", `/api/users/${b.userId}`],
      ["DELETE", `/api/users/invitations/${invitationId}`],
      ["PUT", `/api/departments/${deptId}`, { name: "Hacked", description: "by A", status: "inactive" }],
      ["DELETE", `/api/departments/${deptId}`],
      ["GET", `/api/accounts/${b.accountId}`],
      ["POST", `/api/accounts/summary/${b.accountId}`],
    ];
    for (const [method, path, body] of attempts) {
      const res = await api(path, { method, token: aToken, body });
      expect([403, 404], `${method} ${path} -> ${res.status} ${JSON.stringify(res.body)}`).toContain(res.status);
    }
    // Precisely: foreign ids are simply not found in A's account.
    expect((await api(`/api/users/${b.userId}`, { token: aToken })).body.error.code).toBe("NOT_FOUND");
    expect((await api(`/api/accounts/${b.accountId}`, { token: aToken })).body.error.code).toBe("NOT_FOUND");
    // A has no omni plan: departments are refused by plan before any lookup.
    expect((await api(`/api/departments/${deptId}`, { method: "DELETE", token: aToken })).body.error.code).toBe("PLAN_REQUIRED");

    expect(await snapshotB(b, deptId, invitationId)).toEqual(before);
    const [{ current }] = await query<{ current: string }>("SELECT current_account_id AS current FROM users WHERE id = $1", [a.userId]);
    expect(current).toBe(a.accountId);
  });

  it("A with an omni plan still cannot touch B's department", async () => {
    const c = await registerPerson("tenantC");
    await giveOmni(c.accountId);
    const { token } = await login(c.email, c.password);
    const put = await api(`/api/departments/${deptId}`, { method: "PUT", token, body: { name: "Hacked" } });
    expect(put.status).toBe(404);
    const del = await api(`/api/departments/${deptId}`, { method: "DELETE", token });
    expect(del.status).toBe(404);
    expect((await api("/api/departments", { token })).body).toEqual({ data: [], next_cursor: null });
    expect((await api(`/api/departments/${deptId}`, { token })).status).toBe(404);
    expect(await snapshotB(b, deptId, invitationId)).toEqual(before);
  });

  it("an X-Account-Id header naming an account the person is not in answers 403 ACCOUNT_INFO_FAILED", async () => {
    for (const path of ["/api/accounts/info", "/api/users", `/api/users/${b.userId}`, "/api/departments"]) {
      const res = await api(path, { token: aToken, account: b.accountId, lang: "en" });
      expect(res.status, path).toBe(403);
      expect(res.body.error.code).toBe("ACCOUNT_INFO_FAILED");
      expect(res.body.error.message).toBe("Failed to get account information");
    }
    const del = await api(`/api/users/invitations/${invitationId}`, { method: "DELETE", token: aToken, account: b.accountId });
    expect(del.status).toBe(403);
    expect(await snapshotB(b, deptId, invitationId)).toEqual(before);
    // Naming one's own account works.
    const own = await api("/api/accounts/info", { token: aToken, account: a.accountId });
    expect(own.status).toBe(200);
    expect(own.body.id).toBe(a.accountId);
  });

  it("a malformed id is refused by the route schema, not the database", async () => {
    const res = await api("/api/users/not-a-uuid", { token: aToken });
    expect(res.status).toBe(422);
  });
});

describe("accounts API", () => {
  it("creates a second account, lists both, switches to it and answers its summary", async () => {
    const p = await registerPerson("accounts");
    const { token } = await login(p.email, p.password);
    const info = await api("/api/accounts/info", { token });
    expect(info.body).toMatchObject({ id: p.accountId, role: "owner", is_agent: true, type: "customer", currency: "BRL", balance: 0, limit: 0, whitelabel_id: null });
    expect(info.body.address).toHaveProperty("postal_code");
    expect(info.body.plans).toEqual({});

    const bad = await api("/api/accounts", { token, body: { name: "", postalCode: "1" }, lang: "en" });
    expect(bad.status).toBe(422);
    expect(bad.body.error.fields.name).toEqual(["Required field"]);

    const created = await api("/api/accounts", { token, body: { name: "Filial Sul", city: "Porto Alegre", province: "RS", postalCode: "90010-000" } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "Filial Sul", role: "owner", address: { city: "Porto Alegre", postal_code: "90010-000" } });
    // Location names the new account, and GET there answers the same resource
    expect(created.headers.get("location")).toBe(`/api/accounts/${created.body.id}`);
    const located = await api(created.headers.get("location")!, { token });
    expect(located.status).toBe(200);
    expect(located.body).toEqual(created.body);

    const list = await api("/api/accounts", { token });
    expect(list.body.data.map((x: { name: string }) => x.name).sort()).toEqual(["Filial Sul", p.company].sort());
    expect(list.body.next_cursor).toBeNull();

    const sw = await api(`/api/accounts/summary/${created.body.id}`, { method: "POST", token });
    expect(sw.status).toBe(200);
    expect(sw.body.id).toBe(created.body.id);
    expect(sw.body.summary.account.name).toBe("Filial Sul");
    expect(sw.body.summary.members).toBe(1);
    const [{ current }] = await query<{ current: string }>("SELECT current_account_id AS current FROM users WHERE id = $1", [p.userId]);
    expect(current).toBe(created.body.id);
    // the tokens answered by the switch act in the new account without any header
    const switchedInfo = await api("/api/accounts/info", { token: sw.body.token });
    expect(switchedInfo.body.id).toBe(created.body.id);
    expect(sw.body.refresh_token).toBeTruthy();

    const upd = await api("/api/accounts", { method: "PUT", token, account: created.body.id, body: { name: "Filial Sul Ltda", currency: "USD" } });
    expect(upd.status).toBe(200);
    const [row] = await query<{ name: string; currency: string }>("SELECT name, currency FROM accounts WHERE id = $1", [created.body.id]);
    expect(row).toEqual({ name: "Filial Sul Ltda", currency: "USD" });
    const [orig] = await query<{ name: string }>("SELECT name FROM accounts WHERE id = $1", [p.accountId]);
    expect(orig.name).toBe(p.company);
  });
});

describe("users, profile, notifications and plans", () => {
  it("an owner invites, lists and revokes; edits a member; the profile and locale change", async () => {
    const p = await registerPerson("people");
    const { token } = await login(p.email, p.password);
    const email = uniqueEmail("invitee");
    const inv = await api("/api/users/invite", { token, body: { email, role: "manager" } });
    expect(inv.status).toBe(201);
    expect(inv.body).toMatchObject({ email, role: "manager" });
    const [mail] = await query("SELECT 1 FROM outbound_emails WHERE to_address = $1", [email]);
    expect(mail).toBeTruthy();
    const badRole = await api("/api/users/invite", { token, body: { email: uniqueEmail("x"), role: "owner" } });
    expect(badRole.status).toBe(422);
    const del = await api(`/api/users/invitations/${inv.body.id}`, { method: "DELETE", token });
    expect(del.status).toBe(200);
    expect(await query("SELECT 1 FROM invitations WHERE id = $1", [inv.body.id])).toHaveLength(0);

    const edited = await api(`/api/users/${p.userId}`, {
      method: "PUT",
      token,
      body: { firstName: "Dona", lastName: "Pessoa", mobile: "+55 11 98765-4321", role: "owner", isAgent: false },
    });
    expect(edited.status).toBe(200);
    const [m] = await query("SELECT u.first_name, u.last_name, m.role, m.is_agent FROM users u JOIN memberships m ON m.user_id = u.id WHERE u.id = $1", [p.userId]);
    expect(m).toEqual({ first_name: "Dona", last_name: "Pessoa", role: "owner", is_agent: false });
    const found = await api("/api/users?q=pessoa", { token });
    expect(found.body.data.map((u: { id: string }) => u.id)).toEqual([p.userId]);
    expect((await api("/api/users?q=zzzz-nobody", { token })).body).toMatchObject({ data: [], next_cursor: null, total: 0 });
    // the deprecated page parameter still answers page and last_page
    expect((await api("/api/users?q=zzzz-nobody&page=1", { token })).body).toMatchObject({ data: [], total: 0, page: 1, last_page: 1 });

    const last = await api(`/api/users/${p.userId}`, { method: "DELETE", token });
    expect(last.status).toBe(409);
    expect(last.body.error.code).toBe("LAST_OWNER");

    const me = await api("/api/me", { method: "PUT", token, body: { firstName: "Joana", lastName: "Silva", mobile: "+5511987654321", gender: "female", birthDate: "1990-05-17" } });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ firstName: "Joana", lastName: "Silva", mobile: "+5511987654321", gender: "female" });
    const locale = await api("/api/me/locale", { method: "PUT", token, body: { locale: "es" } });
    expect(locale.body).toEqual({ locale: "es" });
    expect((await api("/api/me", { token })).body.locale).toBe("es");
    expect((await api("/api/me/locale", { method: "PUT", token, body: { locale: "fr" } })).status).toBe(422);

    const wrongPw = await api("/api/me/password", {
      method: "PUT",
      token,
      body: { currentPassword: "Bad!Pass#9876", password: "Nv4$Hk8@Qz3!Ty", confirmPassword: "Nv4$Hk8@Qz3!Ty" },
    });
    expect(wrongPw.status).toBe(401);
    const pw = await api("/api/me/password", { method: "PUT", token, body: { currentPassword: p.password, password: "Nv4$Hk8@Qz3!Ty", confirmPassword: "Nv4$Hk8@Qz3!Ty" } });
    expect(pw.status).toBe(200);
    expect((await login(p.email, "Nv4$Hk8@Qz3!Ty")).token).toBeTruthy();
  });

  it("pages the people by keyset: `limit` a page, no one twice or missed (ties on the first name too), next_cursor null at the end, a bad cursor is 422 on cursor", async () => {
    const p = await registerPerson("keyset");
    const { token } = await login(p.email, p.password);
    // five people who share one first name (the order's tie-break is the membership id), two others
    const names = ["Mesmo", "Mesmo", "Mesmo", "Mesmo", "Mesmo", "Aline", "Zeca"];
    for (const name of names) {
      const id = await makeUser({ email: uniqueEmail("keyset"), firstName: name, lastName: "Keyset" });
      await addMember(p.accountId, id, { role: "agent" });
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: { status: number; body: any } = await api(`/api/users?limit=3${cursor ? `&cursor=${cursor}` : ""}`, { token });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.total).toBe(8);
      expect(res.body.data.length).toBeLessThanOrEqual(3);
      seen.push(...res.body.data.map((u: { id: string }) => u.id));
      cursor = res.body.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(8);
    const ids = await query<{ id: string }>("SELECT user_id AS id FROM memberships WHERE account_id = $1", [p.accountId]);
    expect([...seen].sort()).toEqual(ids.map((r) => r.id).sort());
    // by first name: Aline first, Zeca last
    const firsts = await query<{ id: string; first_name: string }>("SELECT id, first_name FROM users WHERE id = ANY($1)", [seen]);
    const byId = new Map(firsts.map((r) => [r.id, r.first_name]));
    expect(byId.get(seen[0])).toBe("Aline");
    expect(byId.get(seen[7])).toBe("Zeca");

    for (const bad of ["not-a-cursor", Buffer.from(JSON.stringify([1, 2])).toString("base64url")]) {
      const res = await api(`/api/users?cursor=${bad}`, { token, lang: "en" });
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.error.fields)).toEqual(["cursor"]);
    }
    expect((await api("/api/users?limit=0", { token })).status).toBe(422);
  });

  it("lists notifications with keyset paging and marks them read", async () => {
    const p = await registerPerson("notes");
    const { token } = await login(p.email, p.password);
    // a new account starts with its welcome; start the count from zero
    expect(await query("SELECT kind FROM notifications WHERE account_id = $1", [p.accountId])).toEqual([{ kind: "welcome" }]);
    await query("DELETE FROM notifications WHERE account_id = $1", [p.accountId]);
    for (let i = 0; i < 25; i++) {
      await makeNotification(p.accountId, { userId: i % 2 ? p.userId : null, kind: "test.note", params: { n: i } });
    }
    const page1 = await api("/api/notifications?limit=20", { token, lang: "en" });
    expect(page1.status).toBe(200);
    expect(page1.body.data).toHaveLength(20);
    expect(page1.body.unread).toBe(25);
    expect(page1.body.data[0].params.n).toBe(24);
    // a kind without its own text reads as the generic one, in the caller's language
    expect(page1.body.data[0].message).toBe("You have a new notification");
    const page2 = await api(`/api/notifications?limit=20&cursor=${page1.body.next_cursor}`, { token });
    expect(page2.body.data.map((n: { params: { n: number } }) => n.params.n)).toEqual([4, 3, 2, 1, 0]);
    expect(page2.body.next_cursor).toBeNull();
    // the deprecated ?before= (the last id seen) still pages the same way
    const before = await api(`/api/notifications?limit=20&before=${page1.body.data[19].id}`, { token });
    expect(before.body.data.map((n: { params: { n: number } }) => n.params.n)).toEqual([4, 3, 2, 1, 0]);
    const bad = await api("/api/notifications?cursor=not-a-cursor", { token, lang: "en" });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.error.fields)).toEqual(["cursor"]);

    const some = await api("/api/notifications/read", { token, body: { ids: [page1.body.data[0].id, page1.body.data[1].id] } });
    expect(some.body).toEqual({ updated: 2 });
    expect((await api("/api/notifications?unread=true", { token })).body.unread).toBe(23);
    const all = await api("/api/notifications/read", { token, body: { all: true } });
    expect(all.body).toEqual({ updated: 23 });
    const [{ n }] = await query<{ n: string }>("SELECT count(*) AS n FROM notifications WHERE account_id = $1 AND read_at IS NULL", [p.accountId]);
    expect(Number(n)).toBe(0);

    // Someone else's notifications are neither listed nor marked.
    const other = await registerPerson("notes2");
    const id = await makeNotification(other.accountId, { userId: other.userId, kind: "test.note" });
    const foreign = await api("/api/notifications/read", { token, body: { ids: [id] } });
    expect(foreign.body).toEqual({ updated: 0 });
  });

  it("lists the active plans and answers one", async () => {
    const { token } = await login("owner@demo.example", DEMO_PASSWORD);
    const plans = await api("/api/plans", { token });
    expect(plans.status).toBe(200);
    expect(plans.body.next_cursor).toBeNull();
    const omni = plans.body.data.find((x: { name: string }) => x.name === "Omni");
    expect(omni).toMatchObject({ service: "omni", price: 29900, currency: "BRL", billing_cycle: "monthly" });
    expect((await api(`/api/plans/${omni.id}`, { token })).body.name).toBe("Omni");
    expect((await api("/api/plans/00000000-0000-4000-8000-000000000000", { token })).status).toBe(404);
  });
});

describe("permissions mirror the policy", () => {
  it("an agent may not invite: 403 NO_PERMISSION_EDIT_USERS", async () => {
    const { token } = await login("agent@demo.example", DEMO_PASSWORD);
    const email = uniqueEmail("byagent");
    const res = await api("/api/users/invite", { token, body: { email, role: "agent" }, lang: "en" });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("NO_PERMISSION_EDIT_USERS");
    expect(res.body.error.message).toBe("You do not have permission to edit users");
    expect(await query("SELECT 1 FROM invitations WHERE email = $1", [email])).toHaveLength(0);
  });

  it("the API answers 403 where the screens' policy denies: an agent cannot list people, a manager cannot read plans", async () => {
    const agent = await login("agent@demo.example", DEMO_PASSWORD);
    expect((await api("/api/users", { token: agent.token })).status).toBe(403);
    const manager = await login("manager@demo.example", DEMO_PASSWORD);
    expect((await api("/api/plans", { token: manager.token })).status).toBe(403);
    expect((await api("/api/departments", { token: manager.token })).status).toBe(403);
    const sales = await login("sales@demo.example", DEMO_PASSWORD);
    expect((await api("/api/users", { token: sales.token })).status).toBe(200);
  });

  it("a customer owner may not open the whitelabel admin; the reseller may", async () => {
    const owner = await login("owner@demo.example", DEMO_PASSWORD);
    const denied = await api("/api/admin/whitelabel", { token: owner.token });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe("FORBIDDEN");

    const reseller = await login("reseller@demo.example", DEMO_PASSWORD);
    const ok = await api("/api/admin/whitelabel", { token: reseller.token });
    expect(ok.status).toBe(200);
    expect(ok.body.own).toMatchObject({ name: "Revenda Azul", host: "revenda.localhost", color: "#1d4ed8" });
    expect(ok.body.data.map((w: { id: string }) => w.id)).toEqual([ok.body.own.id]);
    expect(ok.body.next_cursor).toBeNull();
    const bad = await api("/api/admin/whitelabel", { method: "PUT", token: reseller.token, body: { name: "Revenda Azul", color: "blue", host: "revenda.localhost" }, lang: "en" });
    expect(bad.status).toBe(422);
    expect(bad.body.error.fields.color).toEqual(["Use a color in the #RRGGBB format"]);
  });

  it("the public brand endpoint answers the reseller's branding for its host, nothing for others", async () => {
    const brand = await api("/api/whitelabel/current", { host: "revenda.localhost:3000" });
    expect(brand.status).toBe(200);
    expect(brand.body.brand).toEqual({ name: "Revenda Azul", color: "#1d4ed8" });
    expect((await api("/api/whitelabel/current", { host: "nobody.localhost" })).body.brand).toBeNull();
  });
});

describe("GET /api/docs/json", () => {
  it("documents every route of the API", async () => {
    const spec = await api("/api/docs/json");
    const paths = spec.body.paths as Record<string, Record<string, unknown>>;
    const expected: Array<[string, string]> = [
      ["get", "/api/accounts"],
      ["post", "/api/accounts"],
      ["put", "/api/accounts"],
      ["get", "/api/accounts/info"],
      ["get", "/api/accounts/{id}"],
      ["post", "/api/accounts/summary/{id}"],
      ["get", "/api/users"],
      ["get", "/api/users/{id}"],
      ["put", "/api/users/{id}"],
      ["delete", "/api/users/{id}"],
      ["post", "/api/users/invite"],
      ["delete", "/api/users/invitations/{id}"],
      ["get", "/api/users/sessions"],
      ["get", "/api/departments"],
      ["post", "/api/departments"],
      ["put", "/api/departments/{id}"],
      ["delete", "/api/departments/{id}"],
      ["get", "/api/whitelabel/current"],
      ["get", "/api/admin/whitelabel"],
      ["put", "/api/admin/whitelabel"],
      ["get", "/api/notifications"],
      ["post", "/api/notifications/read"],
      ["get", "/api/plans"],
      ["get", "/api/plans/{id}"],
      ["post", "/api/2fa/enrol"],
      ["post", "/api/2fa/enrol/confirm"],
      ["post", "/api/2fa/disable"],
      ["get", "/api/me"],
      ["put", "/api/me"],
      ["put", "/api/me/password"],
      ["put", "/api/me/locale"],
      ["get", "/api/flow/flows"],
      ["post", "/api/flow/flows"],
      ["get", "/api/flow/flows/{id}"],
      ["put", "/api/flow/flows/{id}"],
      ["post", "/api/flow/flows/{id}/publish"],
      ["post", "/api/flow/flows/status"],
      ["post", "/api/flow/flows/{id}/restore/{version}"],
      ["post", "/api/flow/flows/{id}/streams"],
      ["post", "/api/flow/flows/{id}/test"],
      ["get", "/api/flow/streams"],
      ["get", "/api/flow/streams/{id}"],
      ["put", "/api/flow/streams/{id}"],
      ["post", "/api/flow/streams/insights"],
      ["get", "/api/lookup"],
      ["get", "/api/lookup/results"],
      ["post", "/api/lookup/lists"],
      ["post", "/api/lookup/lists/group"],
      ["get", "/api/lookup/lists/{id}"],
      ["post", "/api/lookup/lists/{id}/clean"],
      ["get", "/api/lookup/usage"],
    ];
    for (const [method, path] of expected) {
      expect(paths[path]?.[method], `${method.toUpperCase()} ${path}`).toBeTruthy();
      expect((paths[path][method] as { summary?: string }).summary, `${method} ${path} summary`).toBeTruthy();
    }
  });
});

describe("GET /api/logs (audit trail)", () => {
  it("shows the owner the account's sign-in events, a member only their own, never another account's", async () => {
    const a = await registerPerson("auditA");
    const b = await registerPerson("auditB");
    const tokenA = (await login(a.email, a.password)).token;
    await login(b.email, b.password);
    await api("/api/auth/login", { body: { email: a.email, password: "Errada!Senha#1x" } });
    const res = await api("/api/logs?action=auth.", { token: tokenA });
    expect(res.status).toBe(200);
    const actions = res.body.data.map((r: { action: string }) => r.action);
    expect(actions).toContain("auth.login");
    expect(actions).toContain("auth.login_failed");
    expect(res.body.data.map((r: { user_email: string | null }) => r.user_email)).toEqual(res.body.data.map(() => a.email.toLowerCase()));

    const agent = await login("agent@demo.example", DEMO_PASSWORD);
    const own = await api("/api/logs", { token: agent.token });
    expect(own.status).toBe(200);
    const [{ id: agentId }] = await query<{ id: string }>("SELECT id FROM users WHERE email = 'agent@demo.example'");
    expect(own.body.data.every((r: { user_id: string }) => r.user_id === agentId)).toBe(true);
    expect((await api("/api/logs?action=DROP TABLE", { token: tokenA })).status).toBe(422);
    // the action reads in the caller's language
    const en = await api("/api/logs?action=auth.login_failed", { token: tokenA, lang: "en" });
    expect(en.body.data[0]).toMatchObject({ action: "auth.login_failed", description: "Failed sign-in" });

    // keyset pages of one: no event twice, the same events as one big page, next_cursor null at the end
    const all = await api("/api/logs?limit=200", { token: tokenA });
    const ids: number[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: any } = await api(`/api/logs?limit=2${cursor ? `&cursor=${cursor}` : ""}`, { token: tokenA });
      ids.push(...page.body.data.map((r: { id: number }) => r.id));
      cursor = page.body.next_cursor;
    } while (cursor && ids.length < 400);
    expect(ids).toEqual(all.body.data.map((r: { id: number }) => r.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect((await api("/api/logs?cursor=WyJ4Il0", { token: tokenA })).status).toBe(422);
  });
});
