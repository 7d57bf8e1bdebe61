/**
 * E-mail test helpers: a sending domain of the account registered, its records published on the
 * run's loopback DNS server exactly as the API answers them, and validated through the API; what
 * the simulator's SMTP peer received.
 */
import { simpleParser } from "mailparser";
import { expect, inject } from "vitest";
import { api } from "./api";
import { publishDns } from "./dns-server";

/** A GET of the simulator's inspection API (the SMTP peer's mailbox). */
export const sim = (path: string) =>
  fetch(new URL(path, inject("simulatorUrl")), { headers: { Authorization: `Bearer ${inject("simulatorApiKey")}` } }).then((r) => r.json() as Promise<{ data: any }>);

/** The HTML part of the newest message the SMTP peer received for `to` (parsed from the raw message), waiting for it up to 20 s. */
export async function receivedHtml(to: string): Promise<string> {
  let id: string | undefined;
  await expect
    .poll(
      async () => {
        id = (await sim(`/email/_sim/messages?to=${encodeURIComponent(to)}`)).data[0]?.id;
        return id;
      },
      { timeout: 20_000, interval: 200 },
    )
    .toBeTruthy();
  return String((await simpleParser((await sim(`/email/_sim/messages/${encodeURIComponent(id!)}`)).data.raw)).html);
}

/** The open pixel's URL in a received HTML part. */
export const pixelOf = (html: string) => /<img src="([^"]+\/e\/o\/[^"]+)"/.exec(html)?.[1];

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
