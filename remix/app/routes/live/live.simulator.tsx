/**
 * /live/simulator (spec section 2: reachable logged in or out): a visitor's view to try an
 * account's widget. Signed in, the account's own widget by default; anyone may pass ?key=.
 * The key form is a plain GET form (works without JavaScript); the widget itself needs it.
 */
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { embedSnippet, settingsRow, widgetConfigByKey } from "~api/live/settings";
import { WidgetEmbed } from "~/components/live/widget-embed";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { guard } from "~/lib/auth.server";
import { i18next } from "~/lib/i18n.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const actor = await guard(request);
  const asked = new URL(request.url).searchParams.get("key")?.trim() || null;
  const key = asked ?? (actor ? (await settingsRow(actor.accountId)).widget_key : null);
  const widget = key ? await widgetConfigByKey(key) : null;
  const t = await i18next.getFixedT(request, "widget");
  const s = (k: string) => t(`page.${k}`);
  return json({
    key: widget?.widgetKey ?? null,
    asked,
    snippet: widget ? embedSnippet(widget.widgetKey) : null,
    text: {
      title: s("simulatorTitle"),
      intro: s("simulatorIntro"),
      keyLabel: s("keyLabel"),
      try: s("try"),
      newVisitor: s("newVisitor"),
      noKey: s("noKey"),
      unknownKey: s("unknownKey"),
      embed: s("embed"),
    },
  });
}

export const handle = { title: (data: unknown) => (data as { text?: { title?: string } } | undefined)?.text?.title };

export default function Simulator() {
  const { key, asked, snippet, text } = useLoaderData<typeof loader>();
  const restart = () => {
    if (!key) return;
    localStorage.removeItem(`mensageria-widget:${key}`);
    location.reload();
  };
  return (
    <div className="min-h-screen bg-muted/40 px-4 py-10">
      <main className="mx-auto max-w-2xl space-y-6 rounded-xl border bg-card p-6 shadow-sm">
        <h1 className="text-2xl font-semibold">{text.title}</h1>
        <p className="text-muted-foreground">{text.intro}</p>
        <Form method="get" className="flex flex-wrap items-end gap-2">
          <div className="flex-1 space-y-1">
            <Label htmlFor="key">{text.keyLabel}</Label>
            <Input id="key" name="key" defaultValue={asked ?? key ?? ""} autoComplete="off" />
          </div>
          <Button type="submit">{text.try}</Button>
        </Form>
        {!key ? (
          <p role="alert" className="text-sm text-destructive">
            {asked ? text.unknownKey : text.noKey}
          </p>
        ) : (
          <>
            <Button type="button" variant="outline" onClick={restart}>
              {text.newVisitor}
            </Button>
            <div className="space-y-1">
              <p className="text-sm">{text.embed}</p>
              <pre className="overflow-x-auto rounded-md bg-muted p-3 text-xs">{snippet}</pre>
            </div>
          </>
        )}
      </main>
      {key ? <WidgetEmbed widgetKey={key} /> : null}
    </div>
  );
}
