/** The separate unsubscribe host serves only this page, at its root (remix/server.ts maps it). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "react-i18next";
import { env } from "~api/lib/env";

export async function loader({ request }: LoaderFunctionArgs) {
  const host = (request.headers.get("Host") ?? "").split(":")[0].toLowerCase();
  if (host !== env().UNSUBSCRIBE_HOST.toLowerCase()) throw new Response("Not Found", { status: 404 });
  return null;
}

export const handle = { crumb: "unsubscribe.title" };

export default function Unsubscribe() {
  const { t } = useTranslation();
  return (
    <main className="mx-auto flex min-h-screen max-w-lg flex-col justify-center gap-3 p-6 text-center" data-testid="unsubscribe">
      <h1 className="text-2xl font-semibold">{t("unsubscribe.title")}</h1>
      <p className="text-muted-foreground">{t("unsubscribe.body")}</p>
    </main>
  );
}
