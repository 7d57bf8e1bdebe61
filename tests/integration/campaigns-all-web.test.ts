/**
 * /campaigns (issue 23): every campaign of every channel the person may read, in one list, without
 * JavaScript: newest first with its channel, status and counters, each linking to its channel's own
 * page; `?channel=` keeps one channel, `?status=` one status; another account's campaigns never
 * show; a channel that is not one the person reads is ignored (the whole list).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { makeCampaign } from "../support/factories";
import { signedInCustomer, type WebCustomer } from "../support/web";

let owner: WebCustomer;
let other: WebCustomer;
const ids: Record<string, string> = {};

beforeAll(async () => {
  owner = await signedInCustomer("allcampaigns");
  other = await signedInCustomer("allcampaigns2");
  const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);
  ids.sms = await makeCampaign(owner.accountId, { channel: "sms", name: "Promo SMS", status: "completed", total: 10, createdAt: minutesAgo(30) });
  ids.whatsapp = await makeCampaign(owner.accountId, { channel: "whatsapp", name: "Aviso WhatsApp", status: "running", total: 5, createdAt: minutesAgo(20) });
  ids.email = await makeCampaign(owner.accountId, { channel: "email", name: "News e-mail", status: "paused", total: 7, createdAt: minutesAgo(10) });
  ids.theirs = await makeCampaign(other.accountId, { channel: "sms", name: "Deles", createdAt: minutesAgo(5) });
});

/** The campaign ids of the page's table, in order, with their channel cell and link. */
function rowsOf(html: string) {
  return [...html.matchAll(/<tr[^>]*data-campaign="([0-9a-f-]{36})"[^>]*>.*?<a[^>]*href="([^"]+)"[^>]*>([^<]*)<\/a>.*?data-channel="([a-z]+)"[^>]*>([^<]*)</gs)].map((m) => ({
    id: m[1],
    href: m[2],
    name: m[3],
    channel: m[4],
    label: m[5],
  }));
}

describe("/campaigns", () => {
  it("lists every channel's campaigns, newest first, each with its channel and a link to its channel's page; none of another account", async () => {
    const { res, html } = await owner.client.page("/campaigns");
    expect(res.status).toBe(200);
    expect(html).toContain("Todas as campanhas");
    expect(rowsOf(html)).toEqual([
      { id: ids.email, href: `/mail/campaigns/${ids.email}`, name: "News e-mail", channel: "email", label: "E-mail" },
      { id: ids.whatsapp, href: `/whatsapp/campaigns/${ids.whatsapp}`, name: "Aviso WhatsApp", channel: "whatsapp", label: "WhatsApp" },
      { id: ids.sms, href: `/sms/campaigns/${ids.sms}`, name: "Promo SMS", channel: "sms", label: "SMS" },
    ]);
    expect(html).not.toContain(ids.theirs);
    expect(html).toContain("3 campanhas");
    // The sidebar offers it.
    expect(html).toContain('href="/campaigns"');
  });

  it("?channel= keeps one channel and ?status= one status; the filters are a plain GET form", async () => {
    const wa = await owner.client.page("/campaigns?channel=whatsapp");
    expect(rowsOf(wa.html).map((r) => r.id)).toEqual([ids.whatsapp]);
    expect(wa.html).toContain('name="channel"');
    const paused = await owner.client.page("/campaigns?status=paused");
    expect(rowsOf(paused.html).map((r) => r.id)).toEqual([ids.email]);
    const none = await owner.client.page("/campaigns?channel=whatsapp&status=completed");
    expect(rowsOf(none.html)).toEqual([]);
    expect(none.html).toContain("Nenhuma campanha com este status.");
    // A channel that is none of the person's: the whole list.
    expect(rowsOf((await owner.client.page("/campaigns?channel=fax")).html).map((r) => r.id)).toEqual([ids.email, ids.whatsapp, ids.sms]);
    // Another account sees only its own.
    const theirs = await other.client.page("/campaigns");
    expect(rowsOf(theirs.html).map((r) => r.id)).toEqual([ids.theirs]);
  });
});
