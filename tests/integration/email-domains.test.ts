/**
 * E-mail sending domains (issue 17): register a domain (a DKIM key made for it, the four records
 * to publish answered), validate it with real DNS queries against the run's loopback DNS server
 * (tests/support/dns-server.ts: the records a test publishes are what our resolver gets), recheck
 * by the worker's schedule, DNS that does not answer changes no status; bad input refused naming
 * the field, translated; every query scoped by account; the route's roles.
 */
import { createPublicKey } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { api, login, registerPerson } from "../support/api";
import { query } from "../support/db";
import { publishDns, unpublishDns } from "../support/dns-server";
import { setMember } from "../support/factories";

const EMAIL_HOST = "mail.mensageria.test";
const rand = () => Math.random().toString(36).slice(2, 10);
let token: string;
let accountId: string;

type Record = { purpose: string; type: string; host: string; value: string; status: string; found: string[] };
const record = (d: { records: Record[] }, purpose: string) => d.records.find((r) => r.purpose === purpose)!;

/** Publishes every record the domain asks for, as the screen shows them. */
async function publishAll(d: { records: Record[] }) {
  for (const r of d.records) {
    if (r.purpose === "spf") await publishDns(r.host, "TXT", ["google-site-verification=abc123", `v=spf1 include:_spf.google.com include:_spf.${EMAIL_HOST} ~all`]);
    else await publishDns(r.host, r.type as "TXT" | "CNAME", [r.value]);
  }
}

beforeAll(async () => {
  const p = await registerPerson("emaildomains");
  accountId = p.accountId;
  token = (await login(p.email, p.password)).token;
});

describe("e-mail sending domains", () => {
  it("registers a domain: a 2048-bit DKIM key of its own and the four records to publish; the private key is never answered", async () => {
    const domain = `Loja-${rand()}.com.br.`;
    const res = await api("/api/email/domains", { token, body: { domain } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const d = res.body.data;
    expect(res.headers.get("location")).toBe(`/api/email/domains/${d.id}`);
    const name = domain.toLowerCase().replace(/\.$/, "");
    expect(d).toMatchObject({ domain: name, status: "pending", checked_at: null, validated_at: null });
    expect(d.records.map((r: Record) => [r.purpose, r.type, r.status])).toEqual([
      ["spf", "TXT", "unchecked"],
      ["dkim", "TXT", "unchecked"],
      ["dmarc", "TXT", "unchecked"],
      ["return_path", "CNAME", "unchecked"],
    ]);
    expect(record(d, "spf")).toMatchObject({ host: name, value: `v=spf1 include:_spf.${EMAIL_HOST} ~all` });
    expect(record(d, "dmarc")).toMatchObject({ host: `_dmarc.${name}`, value: "v=DMARC1; p=none" });
    expect(record(d, "return_path")).toMatchObject({ host: `bounces.${name}`, value: EMAIL_HOST });
    const dkim = record(d, "dkim");
    expect(dkim.host).toMatch(new RegExp(`^m\\d{6}[a-z0-9]+\\._domainkey\\.${name.replace(/\./g, "\\.")}$`));
    const p = /^v=DKIM1; k=rsa; p=([A-Za-z0-9+/=]+)$/.exec(dkim.value)![1];
    const key = createPublicKey({ key: Buffer.from(p, "base64"), format: "der", type: "spki" });
    expect(key.asymmetricKeyType).toBe("rsa");
    expect(key.asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect(JSON.stringify(res.body)).not.toMatch(/PRIVATE|sealed/i);
    const [stored] = await query<{ dkim_private_key_sealed: string }>("SELECT dkim_private_key_sealed FROM email_domains WHERE id = $1", [d.id]);
    expect(stored.dkim_private_key_sealed).not.toContain("BEGIN");
    // Listed and read back; the same domain again is 409 naming the field.
    expect((await api("/api/email/domains", { token })).body.data.map((x: { id: string }) => x.id)).toContain(d.id);
    const read = (await api(`/api/email/domains/${d.id}`, { token })).body.data;
    expect(read.records.map((r: Record) => [r.host, r.value])).toEqual(d.records.map((r: Record) => [r.host, r.value]));
    const again = await api("/api/email/domains", { token, body: { domain: name }, lang: "pt-BR" });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: "DOMAIN_ALREADY_REGISTERED", fields: { domain: ["Este domínio já está registrado na sua conta"] } });
  });

  it("validates with real DNS look-ups: nothing published fails with every record missing; a wrong SPF is a mismatch; all four right validates; DNS down keeps the status; a record gone fails it", async () => {
    const res = await api("/api/email/domains", { token, body: { domain: `envio-${rand()}.com` } });
    const d = res.body.data;
    const validate = async () => {
      const r = await api(`/api/email/domains/validate/${d.id}`, { token, method: "POST" });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body.data;
    };
    const none = await validate();
    expect(none.status).toBe("failed");
    expect(none.records.map((r: Record) => r.status)).toEqual(["missing", "missing", "missing", "missing"]);
    expect(none.checked_at).not.toBeNull();

    await publishAll(d);
    await publishDns(d.domain, "TXT", ["v=spf1 include:_spf.google.com ~all"]);
    const wrongSpf = await validate();
    expect(wrongSpf.status).toBe("failed");
    expect(wrongSpf.records.map((r: Record) => [r.purpose, r.status])).toEqual([
      ["spf", "mismatch"],
      ["dkim", "ok"],
      ["dmarc", "ok"],
      ["return_path", "ok"],
    ]);
    expect(record(wrongSpf, "spf").found).toEqual(["v=spf1 include:_spf.google.com ~all"]);
    // Two SPF records are a permanent error (RFC 7208), even if one includes ours.
    await publishDns(d.domain, "TXT", ["v=spf1 include:_spf.google.com ~all", `v=spf1 include:_spf.${EMAIL_HOST} ~all`]);
    expect(record(await validate(), "spf").status).toBe("mismatch");

    await publishAll(d);
    const ok = await validate();
    expect(ok.status).toBe("validated");
    expect(ok.validated_at).not.toBeNull();
    expect(ok.records.every((r: Record) => r.status === "ok")).toBe(true);
    // Only the SPF record is shown as what DNS holds for SPF (not the domain's other TXT records).
    expect(record(ok, "spf").found).toEqual([`v=spf1 include:_spf.google.com include:_spf.${EMAIL_HOST} ~all`]);
    expect(record(ok, "return_path").found).toEqual([EMAIL_HOST]);

    // DNS does not answer for the DKIM name: that record is unreachable, the domain stays validated.
    await publishDns(record(d, "dkim").host, "SERVFAIL");
    const down = await validate();
    expect(down.status).toBe("validated");
    expect(record(down, "dkim").status).toBe("unreachable");
    await unpublishDns(record(d, "dkim").host, "SERVFAIL");
    // The DKIM record removed: the next check fails the domain.
    await unpublishDns(record(d, "dkim").host, "TXT");
    const gone = await validate();
    expect(gone.status).toBe("failed");
    expect(record(gone, "dkim").status).toBe("missing");
    const audit = await query<{ action: string }>("SELECT action FROM audit_logs WHERE account_id = $1 AND action LIKE 'email.domain%' ORDER BY created_at", [accountId]);
    expect(audit.map((a) => a.action)).toContain("email.domain_validated");
  });

  it("the worker checks a new domain by itself and validates it once its records are published", async () => {
    const d = (await api("/api/email/domains", { token, body: { domain: `auto-${rand()}.com.br` } })).body.data;
    await publishAll(d);
    await expect.poll(async () => (await api(`/api/email/domains/${d.id}`, { token })).body.data.status, { timeout: 15_000 }).toBe("validated");
  });

  it("refuses what is not a domain, the platform's own hosts and a domain of another account, naming the field (translated); an internationalised name is kept in its xn-- form", async () => {
    const cases: Array<[unknown, string]> = [
      ["", "Campo obrigatório"],
      ["loja", "Informe um domínio válido, como loja.com.br"],
      ["loja..com", "Informe um domínio válido, como loja.com.br"],
      ["http://loja.com", "Informe um domínio válido, como loja.com.br"],
      ["1.2.3.4", "Informe um domínio válido, como loja.com.br"],
      [EMAIL_HOST, "Este domínio é da própria plataforma e não pode ser usado para enviar"],
      ["mensageria.test", "Este domínio é da própria plataforma e não pode ser usado para enviar"],
      ["unsubscribe.localhost", "Este domínio é da própria plataforma e não pode ser usado para enviar"],
    ];
    for (const [domain, message] of cases) {
      const r = await api("/api/email/domains", { token, body: { domain }, lang: "pt-BR" });
      expect(r.status, String(domain)).toBe(422);
      expect(r.body.error.fields, String(domain)).toEqual({ domain: [message] });
    }
    const before = await query("SELECT 1 FROM email_domains WHERE account_id = $1", [accountId]);
    const idn = await api("/api/email/domains", { token, body: { domain: `pão-${rand()}.com.br` } });
    expect(idn.status).toBe(201);
    expect(idn.body.data.domain).toMatch(/^xn--p[a-z0-9-]+\.com\.br$/);
    expect(await query("SELECT 1 FROM email_domains WHERE account_id = $1", [accountId])).toHaveLength(before.length + 1);

    // Another account: not found, and nothing of it changes.
    const other = await registerPerson("emaildomainsother");
    const otherToken = (await login(other.email, other.password)).token;
    const id = idn.body.data.id;
    expect((await api(`/api/email/domains/${id}`, { token: otherToken })).status).toBe(404);
    expect((await api(`/api/email/domains/validate/${id}`, { token: otherToken, method: "POST" })).status).toBe(404);
    expect((await api(`/api/email/domains/${id}`, { token: otherToken, method: "DELETE" })).status).toBe(404);
    expect((await api("/api/email/domains", { token: otherToken })).body.data).toEqual([]);
    // The same name in the other account is its own domain (its own DKIM key and selector).
    const theirs = await api("/api/email/domains", { token: otherToken, body: { domain: idn.body.data.domain } });
    expect(theirs.status).toBe(201);
    expect(record(theirs.body.data, "dkim").host).not.toBe(record(idn.body.data, "dkim").host);
    // Deleted by its account: gone.
    expect((await api(`/api/email/domains/${id}`, { token, method: "DELETE" })).body).toEqual({ deleted: 1 });
    expect((await api(`/api/email/domains/${id}`, { token })).status).toBe(404);
  });

  it("roles of /mail/domains: a developer may manage domains; billing and a user (agent) may not", async () => {
    const p = await registerPerson("emaildomainsroles");
    await setMember(p.accountId, p.userId, { role: "developer" });
    const dev = (await login(p.email, p.password)).token;
    expect((await api("/api/email/domains", { token: dev, body: { domain: `dev-${rand()}.com` } })).status).toBe(201);
    for (const role of ["billing", "agent"] as const) {
      await setMember(p.accountId, p.userId, { role });
      const t = (await login(p.email, p.password)).token;
      expect((await api("/api/email/domains", { token: t, body: { domain: `${role}-${rand()}.com` } })).status, role).toBe(403);
      expect((await api("/api/email/domains/validate/00000000-0000-0000-0000-000000000000", { token: t, method: "POST" })).status, role).toBe(403);
    }
  });
});
