import { Transform } from "node:stream";
import type { EntryContext } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { oauthSignInOrigins } from "./lib/authenticator.server";
import type { Lng } from "./lib/i18n";
import { LiteI18n, type Store } from "./lib/i18n-lite";
import { I18nProvider } from "./lib/react-i18n";
import { i18next, renderResources } from "./lib/i18n.server";
import { NonceProvider } from "./lib/nonce";
import { htmlSecurityHeaders, newNonce } from "./lib/security-headers.server";
import { initModels } from "../../models";

// The web process's server build carries its own copy of models/ (Vite bundles our sources), so the
// models are mapped here, once when the build loads, rather than by remix/web-server.ts (ADR 025).
initModels();

const ABORT_DELAY = 10_000;

/**
 * React 18's Node renderer writes its whole 2 KB view when a multi-byte character (ç, ã, õ…) does
 * not fit at its end, so the unused bytes go out as 0x00 in the middle of the text (fixed in React
 * 19). UTF-8 HTML has no NUL byte of its own (and PostgreSQL text cannot hold one), so dropping
 * them gives back exactly the intended bytes.
 */
function withoutNulPadding() {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      done(null, chunk.includes(0) ? Buffer.from(chunk.filter((b) => b !== 0)) : chunk);
    },
  });
}

export default async function handleRequest(request: Request, status: number, headers: Headers, context: EntryContext) {
  const lng = (await i18next.getLocale(request)) as Lng;
  // The same namespaces the root loader sends to the browser (ADR 049): a namespace the page lacks
  // shows as "ns:key" in the server's HTML too, not only after hydration.
  const rootData = context.staticHandlerContext.loaderData?.root as { i18n?: Record<string, unknown> } | undefined;
  const namespaces = rootData?.i18n ? Object.keys(rootData.i18n) : undefined;
  const instance = new LiteI18n(lng, renderResources(lng, namespaces) as Store);
  const waitFor = isbot(request.headers.get("user-agent") ?? "") ? "onAllReady" : "onShellReady";
  const nonce = newNonce();
  // A route says `handle = { embeddable: true }` when customers may frame it (the hosted webchat).
  const embeddable = context.staticHandlerContext.matches.some((m) => (context.routeModules[m.route.id]?.handle as { embeddable?: boolean } | undefined)?.embeddable === true);

  return new Promise<Response>((resolve, reject) => {
    let failed = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <I18nProvider i18n={instance}>
          <RemixServer context={context} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
        </I18nProvider>
      </NonceProvider>,
      {
        nonce,
        [waitFor]() {
          const body = withoutNulPadding();
          headers.set("Content-Type", "text/html; charset=utf-8");
          for (const [name, value] of Object.entries(htmlSecurityHeaders(request, { nonce, embeddable, formTargets: oauthSignInOrigins() }))) headers.set(name, value);
          resolve(new Response(createReadableStreamFromReadable(body), { headers, status: failed ? 500 : status }));
          pipe(body);
        },
        onShellError: reject,
        onError(error: unknown) {
          failed = true;
          console.error(error);
        },
      },
    );
    setTimeout(abort, ABORT_DELAY);
  });
}
