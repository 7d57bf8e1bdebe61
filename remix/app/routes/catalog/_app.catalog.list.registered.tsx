/**
 * /catalog/list/registered (issue 22): the products published to a messaging channel, filtered by
 * channel, each with "Send as RCS card" (opens /rcs/send with the product's card) and "Send on
 * WhatsApp" (opens /whatsapp/send with its image and caption) for the channels it is published to
 * and the person may send on. Plain links and a GET form: works without JavaScript.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { rcsSendHref, whatsappSendHref } from "~api/catalog/channels";
import { PUBLISH_CHANNELS } from "~api/catalog/constants";
import { listProducts } from "~api/catalog/products";
import { can } from "~api/policy/policy";
import { ProductTable } from "~/components/catalog/product-table";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { CursorPager } from "~/components/whatsapp/cursor-pager";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { tableRow } from "~/lib/catalog.server";
import { useTranslation } from "~/lib/react-i18n";

export const handle = { crumb: "catalog:registered.title" };

const PATH = "/catalog/list/registered";

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const url = new URL(request.url);
  const q = url.searchParams.get("q") ?? "";
  const asked = url.searchParams.get("channel") ?? "";
  const channel = (PUBLISH_CHANNELS as readonly string[]).includes(asked) ? asked : "";
  const cursor = url.searchParams.get("cursor") ?? "";
  const page = await orHttpError(listProducts(ctx, { q: q || undefined, published: channel || "any", cursor: cursor || undefined, limit: 50 }));
  const canSend = { rcs: can(ctx.actor, "/rcs/send"), whatsapp: can(ctx.actor, "/whatsapp/send") };
  return json(
    {
      products: page.data.map((p) => ({
        ...tableRow(p),
        rcs: canSend.rcs && p.published_channels.includes("rcs") ? rcsSendHref(p.id) : null,
        whatsapp: canSend.whatsapp && p.published_channels.includes("whatsapp") ? whatsappSendHref(p.id) : null,
      })),
      next: page.next_cursor,
      q,
      channel,
      cursor,
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export default function CatalogRegistered() {
  const { products, next, q, channel, cursor } = useLoaderData<typeof loader>();
  const { t } = useTranslation("catalog");
  const links = new Map(products.map((p) => [p.id, { rcs: p.rcs, whatsapp: p.whatsapp }]));
  const href = (c?: string) => {
    const p = new URLSearchParams();
    if (q) p.set("q", q);
    if (channel) p.set("channel", channel);
    if (c) p.set("cursor", c);
    const s = p.toString();
    return s ? `${PATH}?${s}` : PATH;
  };
  return (
    <div className="space-y-6">
      <PageHeader
        description={t("registered.description")}
        actions={
          <Button asChild size="sm" variant="outline">
            <Link to="/catalog/list">{t("list.title")}</Link>
          </Button>
        }
      />
      <Card>
        <CardContent className="space-y-4 pt-6">
          <Form method="get" className="flex flex-wrap items-end gap-2" role="search">
            <div className="grid min-w-0 flex-1 gap-1">
              <Label htmlFor="catalog-registered-q">{t("list.search")}</Label>
              <Input id="catalog-registered-q" name="q" defaultValue={q} type="search" />
            </div>
            <div className="grid gap-1">
              <Label htmlFor="catalog-registered-channel">{t("registered.channel")}</Label>
              <NativeSelect id="catalog-registered-channel" name="channel" defaultValue={channel}>
                <NativeSelectOption value="">{t("registered.anyChannel")}</NativeSelectOption>
                {PUBLISH_CHANNELS.map((c) => (
                  <NativeSelectOption key={c} value={c}>
                    {t(`channels.${c}`)}
                  </NativeSelectOption>
                ))}
              </NativeSelect>
            </div>
            <Button type="submit" variant="outline" size="sm">
              {t("list.filter")}
            </Button>
          </Form>
          {products.length === 0 ? (
            <p className="py-6 text-center text-sm text-muted-foreground" data-empty>
              {q || channel ? t("list.noMatch") : t("registered.empty")}
            </p>
          ) : (
            <div className="overflow-x-auto">
              <ProductTable
                products={products}
                actions={(p) => {
                  const l = links.get(p.id);
                  return (
                    <div className="flex flex-wrap gap-2">
                      {l?.rcs ? (
                        <Link to={l.rcs} className="text-sm underline underline-offset-2" aria-label={t("send.rcsLabel", { name: p.name })}>
                          {t("send.rcs")}
                        </Link>
                      ) : null}
                      {l?.whatsapp ? (
                        <Link to={l.whatsapp} className="text-sm underline underline-offset-2" aria-label={t("send.whatsappLabel", { name: p.name })}>
                          {t("send.whatsapp")}
                        </Link>
                      ) : null}
                    </div>
                  );
                }}
              />
            </div>
          )}
          <CursorPager cursor={cursor} next={next} href={href} />
        </CardContent>
      </Card>
    </div>
  );
}
