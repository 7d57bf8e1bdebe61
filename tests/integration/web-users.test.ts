/**
 * The people screens (/users, /users/invite, /users/edit/{id}) and /departments, driven like a
 * browser with JavaScript off: plain GETs and form posts carrying the CSRF field.
 * Shared demo people are only read (or sent refused requests); every mutation uses fresh data.
 */
import { describe, expect, it } from "vitest";
import { inject } from "vitest";
import { DEMO_PASSWORD, WebClient, location, signIn } from "../support/web";
import { lastMailTo, linkIn, query, uniqueEmail } from "../support/db";
import { addMember, makeUser, setAccount, setUser } from "../support/factories";

const ROLES = ["owner", "admin", "manager", "agent", "analyst", "sales", "security", "developer", "billing", "carrier"];
const DEMO_ACCOUNT = "Demo Comércio Ltda";

const one = async <T = Record<string, unknown>>(sql: string, params: unknown[] = []) => (await query<T>(sql, params))[0];
const userIdOf = async (email: string) => (await one<{ id: string }>("SELECT id FROM users WHERE email = $1", [email])).id;
const accountIdOf = async (name: string) => (await one<{ id: string }>("SELECT id FROM accounts WHERE name = $1", [name])).id;
const unique = (tag: string) => `${tag} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** The <tr> of a row carrying data-<kind>-id="<id>" (empty when absent). */
function rowOf(html: string, kind: string, id: string) {
  const start = html.indexOf(`data-${kind}-id="${id}"`);
  return start < 0 ? "" : html.slice(start, html.indexOf("</tr>", start));
}

/** The first <table> of the page (the shell also shows the signed-in person's e-mail elsewhere). */
function tableOf(html: string) {
  const start = html.indexOf("<table");
  return start < 0 ? "" : html.slice(start, html.indexOf("</table>", start));
}

/** HTML escapes React applies to text (quotes in names, &). */
const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/'/g, "&#x27;").replace(/</g, "&lt;");

/**
 * A brand-new customer (its own account, owner), registered through the API and signed in.
 * Plain registration has no omni plan; `trial` registers with the 30-day experience plan (omni).
 */
async function freshCustomer(tag = "cust", trial = false) {
  const email = uniqueEmail(tag);
  const company = unique("Empresa");
  const res = await fetch(new URL(trial ? "/api/auth/register/trial" : "/api/auth/register", inject("apiUrl")), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      firstName: "Rita",
      lastName: "Nova",
      email,
      password: DEMO_PASSWORD,
      confirmPassword: DEMO_PASSWORD,
      companyName: company,
      acceptTerms: true,
      locale: "pt-BR",
    }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  const body = (await res.json()) as { user: { id: string }; account: { id: string } };
  await setUser(body.user.id, { verified: true });
  return { email, company, userId: body.user.id, accountId: body.account.id, client: await signIn(email) };
}

/** Invite `email` as `inviter`, accept through /invitation/{token}; answers the new user's id and their signed-in client. */
async function inviteAndAccept(inviter: WebClient, email: string, role: string, firstName: string, lastName: string) {
  const res = await inviter.post("/users/invite", { email, role });
  expect(res.status).toBe(302);
  const path = linkIn(await lastMailTo(email), "/invitation/");
  const guest = new WebClient();
  expect((await guest.page(path)).res.status).toBe(200);
  const accepted = await guest.post(path, { token: path.split("/").pop()!, firstName, lastName, password: DEMO_PASSWORD, confirmPassword: DEMO_PASSWORD });
  expect(accepted.status, await accepted.clone().text()).toBe(302);
  return { id: await userIdOf(email), client: guest };
}

describe("/users list", () => {
  it("shows the owner every one of the 10 demo people with role, 2FA and last sign-in", async () => {
    const c = await signIn("owner@demo.example");
    const { res, html } = await c.page("/users");
    expect(res.status).toBe(200);
    for (const role of ROLES) expect(html, role).toContain(`${role}@demo.example`);
    expect(html).toContain("Ana Souza");
    expect(html).toContain("Proprietário");
    expect(html).toContain("Convites pendentes");
    // owner@ just signed in: the last sign-in shows as dd/mm/yy HH:mm.
    const ownerRow = rowOf(html, "user", await userIdOf("owner@demo.example"));
    expect(ownerRow).toMatch(/\d{2}\/\d{2}\/\d{2} \d{2}:\d{2}/);
    expect(ownerRow).toContain("Desativado"); // 2FA off
    // Breadcrumb/title and the invite button.
    expect(html).toMatch(/<h1[^>]*>Usuários<\/h1>/);
    expect(html).toContain('href="/users/invite"');
  });

  it("shows the last sign-in in America/Sao_Paulo time", async () => {
    const { client: c } = await freshCustomer("clockowner");
    const email = uniqueEmail("clock");
    const { id } = await inviteAndAccept(c, email, "analyst", "Zuleica", "Relógio");
    await setUser(id, { lastLoginAt: "2026-01-15T15:30:00Z" });
    const { html } = await c.page(`/users?q=${encodeURIComponent(email)}`);
    expect(rowOf(html, "user", id)).toContain("15/01/26 12:30");
  });

  it("narrows the list with the search box (e-mail or full name)", async () => {
    const c = await signIn("owner@demo.example");
    let { html } = await c.page("/users?q=souza");
    expect(tableOf(html)).toContain("owner@demo.example");
    expect(tableOf(html)).not.toContain("admin@demo.example");
    expect(html).toMatch(/<input[^>]*name="q"[^>]*value="souza"/);
    ({ html } = await c.page(`/users?q=${encodeURIComponent("bruno lima")}`));
    expect(tableOf(html)).toContain("admin@demo.example");
    expect(tableOf(html)).not.toContain("owner@demo.example");
    ({ html } = await c.page("/users?q=nobody-matches-this"));
    expect(html).toContain("Ninguém encontrado para");
    expect(tableOf(html)).not.toContain("@demo.example");
    // A literal % does not match everything.
    ({ html } = await c.page("/users?q=%25"));
    expect(html).toContain("Ninguém encontrado para");
  });

  it("pages 20 people at a time and keeps the search in the pager links", async () => {
    const { client, accountId } = await freshCustomer("pager");
    const hash = (await one<{ password_hash: string }>("SELECT password_hash FROM users WHERE email = 'owner@demo.example'")).password_hash;
    const tag = `pg${Date.now().toString(36)}`;
    for (let i = 0; i < 22; i++) {
      const userId = await makeUser({
        email: `${tag}.${i}@test.example`,
        firstName: `Pessoa ${String(i).padStart(2, "0")}`,
        lastName: "Paginada",
        passwordHash: hash,
        verified: true,
      });
      await addMember(accountId, userId, { role: "analyst" });
    }
    const first = await client.page(`/users?q=${tag}`);
    expect(first.html).toContain("22 pessoas");
    expect(first.html).toContain(`${tag}.0@test.example`);
    expect(first.html).not.toContain(`${tag}.21@test.example`);
    expect(first.html).toContain(`href="/users?q=${tag}&amp;page=2"`);
    const second = await client.page(`/users?q=${tag}&page=2`);
    expect(second.html).toContain(`${tag}.21@test.example`);
    expect(second.html).not.toContain(`${tag}.0@test.example`);
  });

  it("bounces agent@ to /403 from every users screen", async () => {
    const c = await signIn("agent@demo.example");
    const ownerId = await userIdOf("owner@demo.example");
    for (const path of ["/users", "/users/invite", `/users/edit/${ownerId}`]) {
      const res = await c.get(path);
      expect(res.status, path).toBe(302);
      expect(location(res), path).toBe("/403");
    }
    const post = await c.post("/users/invite", { email: uniqueEmail("nope"), role: "agent" });
    expect(location(post)).toBe("/403");
  });
});

describe("/users/invite", () => {
  it("invites by e-mail (the invitation link is mailed and listed as pending), then revokes it", async () => {
    const c = await signIn("admin@demo.example");
    const form = await c.page("/users/invite");
    expect(form.res.status).toBe(200);
    expect(form.html).toContain('name="role"');
    expect(form.html).toContain("Desenvolvedor");
    expect(form.html).not.toContain('value="owner"');

    const email = uniqueEmail("invitee");
    const res = await c.post("/users/invite", { email, role: "developer" });
    expect(res.status).toBe(302);
    expect(location(res)).toBe("/users");
    const mail = await lastMailTo(email);
    expect(linkIn(mail, "/invitation/")).toMatch(/^\/invitation\/[A-Za-z0-9_-]+$/);

    const inv = await one<{ id: string; role: string; account_id: string }>("SELECT id, role, account_id FROM invitations WHERE email = $1 AND accepted_at IS NULL", [email]);
    expect(inv.role).toBe("developer");
    expect(inv.account_id).toBe(await accountIdOf(DEMO_ACCOUNT));

    const list = await c.page("/users");
    expect(list.html).toContain(`Convite enviado para ${email}`); // the toast, without JavaScript
    const row = rowOf(list.html, "invitation", inv.id);
    expect(row).toContain(email);
    expect(row).toContain("Desenvolvedor");
    expect(row).toMatch(/<form method="post" action="\/users\?index"/); // where a browser posts the revoke form

    const revoked = await c.post("/users?index", { intent: "revoke", invitationId: inv.id });
    expect(revoked.status).toBe(302);
    expect(await query("SELECT 1 FROM invitations WHERE id = $1", [inv.id])).toHaveLength(0);
    const after = await c.page("/users");
    expect(after.html).toContain("Convite revogado");
    expect(rowOf(after.html, "invitation", inv.id)).toBe("");
  });

  it("shows ALREADY_MEMBER and validation errors on the e-mail field", async () => {
    const c = await signIn("admin@demo.example");
    const res = await c.post("/users/invite", { email: "manager@demo.example", role: "agent" });
    expect(res.status).toBe(409);
    const html = await res.text();
    expect(html).toMatch(/id="[^"]*-email-error"[^>]*>(<p>)?Esta pessoa já faz parte da conta/);
    expect(await query("SELECT 1 FROM invitations WHERE email = 'manager@demo.example'")).toHaveLength(0);

    const bad = await c.post("/users/invite", { email: "not-an-email", role: "agent" });
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain("E-mail inválido");
  });

  it("refuses a sales executive (who may see the list) with the no-permission message", async () => {
    const c = await signIn("sales@demo.example");
    const list = await c.page("/users");
    expect(list.res.status).toBe(200);
    expect(list.html).not.toContain('href="/users/invite"');
    const email = uniqueEmail("bysales");
    const res = await c.post("/users/invite", { email, role: "agent" });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("Você não tem permissão para editar usuários");
    expect(await query("SELECT 1 FROM invitations WHERE email = $1", [email])).toHaveLength(0);
  });

  it("refuses the invite and revoke forms without the CSRF field, changing nothing", async () => {
    const c = await signIn("admin@demo.example");
    const email = uniqueEmail("csrf");
    const res = await c.post("/users/invite", { email, role: "agent" }, { csrf: null });
    expect(res.status).toBe(403);
    expect(await query("SELECT 1 FROM invitations WHERE email = $1", [email])).toHaveLength(0);

    const kept = uniqueEmail("kept");
    expect((await c.post("/users/invite", { email: kept, role: "agent" })).status).toBe(302);
    const inv = await one<{ id: string }>("SELECT id FROM invitations WHERE email = $1", [kept]);
    const revoke = await c.post("/users?index", { intent: "revoke", invitationId: inv.id }, { csrf: null });
    expect(revoke.status).toBe(403);
    expect(await query("SELECT 1 FROM invitations WHERE id = $1", [inv.id])).toHaveLength(1);
    expect((await c.post("/users?index", { intent: "revoke", invitationId: inv.id })).status).toBe(302); // tidy up
  });
});

describe("/users/edit/{id}", () => {
  it("edits a person who accepted an invitation, then removes them from the account", async () => {
    // A fresh trial customer (omni plan, so departments apply) with its own department.
    const { client: owner, accountId } = await freshCustomer("editowner", true);
    // Adding a chat agent is charged (ADR 047): the account has a balance to pay the seat.
    await setAccount(accountId, { balance: 100_000 });
    const deptName = unique("Vendas");
    expect((await owner.post("/departments?index", { intent: "create", name: deptName, description: "", status: "active" })).status).toBe(302);
    const vendas = (await one<{ id: string }>("SELECT id FROM departments WHERE account_id = $1 AND name = $2", [accountId, deptName])).id;

    const email = uniqueEmail("edited");
    const { id } = await inviteAndAccept(owner, email, "agent", "Zeca", "Teste");
    const member = await one<{ role: string; account_id: string }>("SELECT role, account_id FROM memberships WHERE user_id = $1", [id]);
    expect(member).toEqual({ role: "agent", account_id: accountId });
    // the account's people are told who joined, on /notifications
    const joined = await owner.page("/notifications");
    expect(joined.html).toContain("Zeca Teste aceitou o convite");

    const page = await owner.page(`/users/edit/${id}`);
    expect(page.res.status).toBe(200);
    expect(page.html).toMatch(/<h1[^>]*>Editar Zeca Teste<\/h1>/);
    expect(page.html).toContain('href="/users"'); // breadcrumb back to Users
    expect(page.html).toMatch(new RegExp(`<option[^>]*value="${vendas}"[^>]*>${esc(deptName)}</option>`)); // omni: the department select
    expect(page.html).toContain('value="owner"'); // an owner may hand out the owner role
    const res = await owner.post(`/users/edit/${id}`, {
      intent: "update",
      firstName: "Zeferino",
      lastName: "Testado",
      mobile: "+55 11 91234-5678",
      role: "manager",
      isAgent: "on",
      departmentId: vendas,
    });
    expect(res.status, await res.clone().text()).toBe(302);
    expect(location(res)).toBe("/users");
    const row = await one("SELECT u.first_name, u.last_name, u.mobile, m.role, m.is_agent, m.department_id FROM users u JOIN memberships m ON m.user_id = u.id WHERE u.id = $1", [
      id,
    ]);
    expect(row).toEqual({ first_name: "Zeferino", last_name: "Testado", mobile: "+55 11 91234-5678", role: "manager", is_agent: true, department_id: vendas });
    expect((await owner.page("/users")).html).toContain("Usuário atualizado");

    // Unchecking the agent box and choosing "no department" clear both.
    const cleared = await owner.post(`/users/edit/${id}`, { intent: "update", firstName: "Zeferino", lastName: "Testado", mobile: "", role: "manager", departmentId: "" });
    expect(cleared.status).toBe(302);
    expect(await one("SELECT m.is_agent, m.department_id, u.mobile FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.user_id = $1", [id])).toEqual({
      is_agent: false,
      department_id: null,
      mobile: null,
    });

    // Another account's department is refused on the field.
    const foreign = (await one<{ id: string }>("SELECT id FROM departments WHERE name = 'Vendas' AND account_id = $1", [await accountIdOf(DEMO_ACCOUNT)])).id;
    const bogus = await owner.post(`/users/edit/${id}`, { intent: "update", firstName: "Zeferino", role: "manager", departmentId: foreign });
    expect(bogus.status).toBe(422);
    expect(await bogus.text()).toMatch(/-departmentId-error"[^>]*>(<p>)?Valor inválido/);
    expect((await one<{ department_id: string | null }>("SELECT department_id FROM memberships WHERE user_id = $1", [id])).department_id).toBeNull();

    // An admin of the account cannot make anyone an owner.
    const { client: admin } = await inviteAndAccept(owner, uniqueEmail("editadmin"), "admin", "Adélia", "Admin");
    const adminPage = await admin.page(`/users/edit/${id}`);
    expect(adminPage.html).not.toContain('value="owner"');
    const promote = await admin.post(`/users/edit/${id}`, { intent: "update", firstName: "Zeferino", role: "owner" });
    expect(promote.status).toBe(403);
    expect(await promote.text()).toContain("Você não tem permissão para editar usuários");
    expect((await one<{ role: string }>("SELECT role FROM memberships WHERE user_id = $1", [id])).role).toBe("manager");

    // Without the CSRF field nothing changes.
    const forged = await owner.post(`/users/edit/${id}`, { intent: "update", firstName: "Forjado", role: "admin" }, { csrf: null });
    expect(forged.status).toBe(403);
    const forgedRemove = await owner.post(`/users/edit/${id}`, { intent: "remove" }, { csrf: null });
    expect(forgedRemove.status).toBe(403);
    expect(await one("SELECT u.first_name, m.role FROM users u JOIN memberships m ON m.user_id = u.id WHERE u.id = $1", [id])).toEqual({ first_name: "Zeferino", role: "manager" });

    // Remove (the confirmation form behind <details>).
    expect(page.html).toContain("<details");
    const removed = await owner.post(`/users/edit/${id}`, { intent: "remove" });
    expect(removed.status).toBe(302);
    expect(location(removed)).toBe("/users");
    expect(await query("SELECT 1 FROM memberships WHERE user_id = $1", [id])).toHaveLength(0);
    expect((await owner.page("/users")).html).toContain("Zeferino Testado foi removido(a) da conta");
    // Gone from this account: its edit page is not found now.
    expect((await owner.get(`/users/edit/${id}`)).status).toBe(404);
  });

  it("answers 404 for a person of another account or a malformed id", async () => {
    const owner = await signIn("owner@demo.example");
    const trialUser = await userIdOf("trial@demo.example");
    expect((await owner.get(`/users/edit/${trialUser}`)).status).toBe(404);
    expect((await owner.post(`/users/edit/${trialUser}`, { intent: "remove" })).status).toBe(404);
    expect((await owner.post(`/users/edit/${trialUser}`, { intent: "update", firstName: "X", role: "agent" })).status).toBe(404);
    expect(await query("SELECT 1 FROM memberships WHERE user_id = $1", [trialUser])).toHaveLength(1);
    expect((await owner.get("/users/edit/not-a-uuid")).status).toBe(404);
  });

  it("refuses to remove or demote the last owner (LAST_OWNER)", async () => {
    const { client, userId, accountId } = await freshCustomer("lastowner");
    const page = await client.page(`/users/edit/${userId}`);
    expect(page.res.status).toBe(200);
    // No omni plan: no department field (the sidebar's "Suporte" is the support tickets' link, not a department).
    expect(page.html).not.toContain('name="departmentId"');

    const remove = await client.post(`/users/edit/${userId}`, { intent: "remove" });
    expect(remove.status).toBe(409);
    const html = await remove.text();
    expect(html).toContain("A conta precisa de pelo menos um proprietário");
    expect(html).toMatch(/<details[^>]*open/); // the confirmation stays open beside the message

    const demote = await client.post(`/users/edit/${userId}`, { intent: "update", firstName: "Rita", lastName: "Nova", role: "admin" });
    expect(demote.status).toBe(409);
    expect(await demote.text()).toContain("A conta precisa de pelo menos um proprietário");
    expect(await one("SELECT role FROM memberships WHERE user_id = $1 AND account_id = $2", [userId, accountId])).toEqual({ role: "owner" });
  });
});

describe("/departments", () => {
  it("creates, refuses a duplicate name on the field, edits and deletes a department", async () => {
    const c = await signIn("owner@demo.example");
    const accountId = await accountIdOf(DEMO_ACCOUNT);
    const list = await c.page("/departments");
    expect(list.res.status).toBe(200);
    for (const name of ["Vendas", "Suporte", "Financeiro"]) expect(list.html).toContain(name);

    const name = unique("Dept");
    const created = await c.post("/departments?index", { intent: "create", name, description: "Time de testes", status: "active" });
    expect(created.status, await created.clone().text()).toBe(302);
    expect(location(created)).toBe("/departments");
    const d = await one<{ id: string; description: string; status: string }>("SELECT id, description, status FROM departments WHERE account_id = $1 AND name = $2", [
      accountId,
      name,
    ]);
    expect(d).toMatchObject({ description: "Time de testes", status: "active" });
    const after = await c.page("/departments");
    expect(rowOf(after.html, "department", d.id)).toContain(esc(name));
    expect(rowOf(after.html, "department", d.id)).toMatch(/<details[\s\S]*<form method="post" action="\/departments\?index"/);
    expect(after.html).toMatch(/<form method="post" action="\/departments\?index"[^>]*id="department-create"|<form[^>]*id="department-create"[^>]*action="\/departments\?index"/);
    expect(after.html).toContain(`Departamento “${esc(name)}” criado`);

    // The same name in other letter case is taken: message on the name field, nothing created.
    const dup = await c.post("/departments?index", { intent: "create", name: name.toUpperCase(), description: "", status: "active" });
    expect(dup.status).toBe(409);
    expect(await dup.text()).toMatch(/id="department-create-name-error"[^>]*>(<p>)?Já existe um departamento com este nome/);
    expect(await query("SELECT 1 FROM departments WHERE account_id = $1 AND lower(name) = lower($2)", [accountId, name])).toHaveLength(1);

    const edit = await c.page(`/departments/${d.id}/edit`);
    expect(edit.res.status).toBe(200);
    expect(edit.html).toContain(`Editar ${esc(name)}`);
    const renamed = `${name} B`;
    const saved = await c.post(`/departments/${d.id}/edit`, { name: renamed, description: "Outra descrição", status: "inactive" });
    expect(saved.status).toBe(302);
    expect(await one("SELECT name, description, status FROM departments WHERE id = $1", [d.id])).toEqual({ name: renamed, description: "Outra descrição", status: "inactive" });

    // Renaming onto an existing name is refused on the field.
    const clash = await c.post(`/departments/${d.id}/edit`, { name: "vendas", description: "", status: "active" });
    expect(clash.status).toBe(409);
    expect(await clash.text()).toContain("Já existe um departamento com este nome");

    const deleted = await c.post("/departments?index", { intent: "delete", id: d.id });
    expect(deleted.status).toBe(302);
    expect(await query("SELECT 1 FROM departments WHERE id = $1", [d.id])).toHaveLength(0);
    expect((await c.get(`/departments/${d.id}/edit`)).status).toBe(404);
  });

  it("does not reach another account's department", async () => {
    const owner = await signIn("owner@demo.example");
    const trial = await signIn("trial@demo.example");
    const name = unique("Trial dept");
    expect((await trial.post("/departments?index", { intent: "create", name, description: "", status: "active" })).status).toBe(302);
    const d = await one<{ id: string }>("SELECT id FROM departments WHERE name = $1", [name]);
    expect((await owner.get(`/departments/${d.id}/edit`)).status).toBe(404);
    expect((await owner.post(`/departments/${d.id}/edit`, { name: "Hijacked", status: "active" })).status).toBe(404);
    expect((await owner.post("/departments?index", { intent: "delete", id: d.id })).status).toBe(404);
    expect(await one("SELECT name FROM departments WHERE id = $1", [d.id])).toEqual({ name });
  });

  it("is open to the trial plan (omni) and closed (403) to a customer without omni", async () => {
    const trial = await signIn("trial@demo.example");
    expect((await trial.get("/departments")).status).toBe(200);
    const { client } = await freshCustomer("noomni");
    const res = await client.get("/departments");
    expect(location(res)).toBe("/403");
    const post = await client.post("/departments?index", { intent: "create", name: "Nope", status: "active" });
    expect(location(post)).toBe("/403");
  });

  it("refuses the department forms without the CSRF field, changing nothing", async () => {
    const c = await signIn("owner@demo.example");
    const name = unique("Csrf dept");
    const res = await c.post("/departments?index", { intent: "create", name, description: "", status: "active" }, { csrf: null });
    expect(res.status).toBe(403);
    expect(await query("SELECT 1 FROM departments WHERE name = $1", [name])).toHaveLength(0);

    expect((await c.post("/departments?index", { intent: "create", name, description: "", status: "active" })).status).toBe(302);
    const d = await one<{ id: string }>("SELECT id FROM departments WHERE name = $1", [name]);
    expect((await c.post(`/departments/${d.id}/edit`, { name: `${name} X`, status: "inactive" }, { csrf: null })).status).toBe(403);
    expect((await c.post("/departments?index", { intent: "delete", id: d.id }, { csrf: null })).status).toBe(403);
    expect(await one("SELECT name, status FROM departments WHERE id = $1", [d.id])).toEqual({ name, status: "active" });
    await c.post("/departments?index", { intent: "delete", id: d.id });
  });
});
