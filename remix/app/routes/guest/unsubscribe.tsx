/**
 * The unsubscribe host's page, at its root (remix/web-server.ts maps it; issue 17, RFC 8058, ADR 038).
 * A campaign e-mail's List-Unsubscribe link is `https://{UNSUBSCRIBE_HOST}/?t={signed token}`:
 * - GET shows whose address it is (and the sender account) with a confirm button — a plain HTML
 *   form posting to the same URL, with or without JavaScript;
 * - POST (the button, or a mail client's one-click POST with body `List-Unsubscribe=One-Click`)
 *   records the opt-out (api/email/unsubscribe.ts), idempotently. No CSRF token: a mail client
 *   has no cookie to send, and the token's signature is the proof that the link was ours and the
 *   address the one it names.
 * A missing, malformed or forged token answers a page saying the link is not valid (400), never an error.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { readUnsubscribeToken, unsubscribe, unsubscribeView } from "~api/email/unsubscribe";
import { env } from "~api/lib/env";
import { Button } from "~/components/ui/button";

type View = { state: "none" | "invalid" | "confirm" | "done"; email?: string; account?: string; token?: string };

function onHost(request: Request) {
  const host = (request.headers.get("Host") ?? "").split(":")[0].toLowerCase();
  if (host !== env().UNSUBSCRIBE_HOST.toLowerCase()) throw new Response("Not Found", { status: 404 });
}
const noStore = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };

export async function loader({ request }: LoaderFunctionArgs) {
  onHost(request);
  const raw = new URL(request.url).searchParams.get("t");
  if (!raw) return json<View>({ state: "none" }, { headers: noStore });
  const token = readUnsubscribeToken(raw);
  const view = token ? await unsubscribeView(token) : null;
  if (!token || !view) return json<View>({ state: "invalid" }, { status: 400, headers: noStore });
  return json<View>({ state: view.done ? "done" : "confirm", email: view.email, account: view.account, token: raw }, { headers: noStore });
}

export async function action({ request }: ActionFunctionArgs) {
  onHost(request);
  const form = await request.formData().catch(() => null);
  const raw = new URL(request.url).searchParams.get("t") ?? (form?.get("t") as string | null);
  const token = readUnsubscribeToken(raw);
  if (!token || !(await unsubscribe(token))) return json<View>({ state: "invalid" }, { status: 400, headers: noStore });
  const view = await unsubscribeView(token);
  return json<View>({ state: "done", email: token.email, account: view?.account }, { headers: noStore });
}

export const handle = { crumb: "unsubscribe.title" };

export default function Unsubscribe() {
  const loaded = useLoaderData<typeof loader>();
  const acted = useActionData<typeof action>();
  const v: View = acted ?? loaded;
  const { t } = useTranslation(["emailCampaigns", "common"]);
  return (
    <main className="mx-auto flex min-h-screen max-w-lg flex-col justify-center gap-4 p-6 text-center" data-testid="unsubscribe" data-state={v.state}>
      <h1 className="text-2xl font-semibold">{t("common:unsubscribe.title")}</h1>
      {v.state === "none" ? <p className="text-muted-foreground">{t("common:unsubscribe.body")}</p> : null}
      {v.state === "invalid" ? (
        <p className="text-muted-foreground" role="alert">
          {t("unsubscribe.invalid")}
        </p>
      ) : null}
      {v.state === "confirm" ? (
        <>
          <p>{t("unsubscribe.confirmText", { email: v.email, account: v.account })}</p>
          {/* A plain document POST to this same URL (the host maps / here; client routing would not). */}
          <form method="post">
            <input type="hidden" name="t" value={v.token} />
            <Button type="submit" data-testid="unsubscribe-confirm">
              {t("unsubscribe.confirm")}
            </Button>
          </form>
        </>
      ) : null}
      {v.state === "done" ? (
        <p role="status" data-testid="unsubscribe-done">
          {t("unsubscribe.done", { email: v.email, account: v.account })}
        </p>
      ) : null}
    </main>
  );
}
