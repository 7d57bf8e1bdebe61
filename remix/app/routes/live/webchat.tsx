/**
 * /webchat?key=WIDGET_KEY (public, spec section 2): the hosted page of the webchat widget, the
 * same public/widget.js filling the page, for links from e-mails, QR codes or apps.
 */
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { widgetConfigByKey } from "~api/live/settings";
import { WidgetEmbed } from "~/components/live/widget-embed";
import { i18next } from "~/lib/i18n.server";

/** Customers may frame this page on their own sites (its Content-Security-Policy allows any ancestor). */
export const handle = { embeddable: true, title: (data: unknown) => (data as { title?: string } | undefined)?.title };

export async function loader({ request }: LoaderFunctionArgs) {
  const key = new URL(request.url).searchParams.get("key") ?? "";
  const widget = await widgetConfigByKey(key);
  if (!widget || !widget.settings.enabled) throw new Response("Not Found", { status: 404 });
  const t = await i18next.getFixedT(request, "widget");
  return json({ key: widget.widgetKey, title: widget.settings.title_online || t("page.webchatTitle"), noscript: t("page.noscript") });
}

export default function Webchat() {
  const { key, noscript } = useLoaderData<typeof loader>();
  return (
    <main className="h-screen w-full">
      <noscript>
        <p className="p-6 text-center">{noscript}</p>
      </noscript>
      <WidgetEmbed widgetKey={key} mode="page" className="h-screen w-full" />
    </main>
  );
}
