/**
 * E-mail test helpers: a sending domain of the account registered, its records published on the
 * run's loopback DNS server exactly as the API answers them, and validated through the API.
 */
import { expect } from "vitest";
import { api } from "./api";
import { publishDns } from "./dns-server";

export const rand = () => Math.random().toString(36).slice(2, 10);

type DnsRecord = { purpose: string; type: "TXT" | "CNAME"; host: string; value: string };

/** A validated sending domain of the account of `token`: its name and id. */
export async function validatedDomain(token: string, name = `envio-${rand()}.com.br`): Promise<{ id: string; domain: string }> {
  const created = await api("/api/email/domains", { token, body: { domain: name } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  for (const r of created.body.data.records as DnsRecord[]) await publishDns(r.host, r.type, [r.value]);
  const checked = await api(`/api/email/domains/validate/${created.body.data.id}`, { token, method: "POST" });
  expect(checked.body.data.status).toBe("validated");
  return { id: created.body.data.id, domain: name };
}
