/**
 * "Test connection" of /admin/providers: proves a connection's settings reach its provider,
 * without sending anything to a handset.
 *  - http: GET {url} with the connection's API key; any answer but 401/403 or 5xx is a success
 *    (a provider's base URL need not serve a page; reaching it with accepted credentials is the point).
 *  - smpp: connect, bind_transceiver with the connection's credentials, unbind, close.
 *  - simulator: GET /health of the built-in simulator.
 * Answers { ok, code, params, ms }: `code` is a locale key under admin:providers.test (the screen
 * translates it), `message` the same in English (the API route answers it in the caller's language). Never throws for a provider's failure.
 */
import smpp, { type PDU } from "smpp";
import { STATUS } from "../channels/smpp/protocol";
import { smppSettings } from "../channels/smpp/adapter";
import { httpSettings } from "../channels/http";
import type { ProviderConnection } from "../channels/provider-connections";
import { recordAudit } from "../audit/record";
import type { SignedInCtx } from "../lib/context";
import { env } from "../lib/env";
import { isOutboundError, outboundFetch } from "../lib/outbound";
import { assertStaff, loadProvider } from "./services";

export type TestResult = {
  ok: boolean;
  code: "httpOk" | "httpRefused" | "httpError" | "unreachable" | "timeout" | "bound" | "bindRefused" | "simulatorOk" | "notConfigured";
  params: Record<string, string | number>;
  message: string;
  ms: number;
};

const TIMEOUT_MS = 5000;
const STATUS_NAMES = new Map<number, string>(Object.entries(STATUS).map(([k, v]) => [v, k]));

function result(started: number, ok: boolean, code: TestResult["code"], message: string, params: Record<string, string | number> = {}): TestResult {
  return { ok, code, params, message, ms: Date.now() - started };
}

async function getOnce(url: URL, headers: Record<string, string>, started: number, okCode: "httpOk" | "simulatorOk"): Promise<TestResult> {
  try {
    // The guarded client (ADR 021) with platform trust: the URL is staff-configured; time and size capped, no redirect followed.
    const res = await outboundFetch(url, { headers, timeoutMs: TIMEOUT_MS, maxBytes: 1024, truncate: true, trust: "platform" });
    const status = res.status;
    if (status === 401 || status === 403) return result(started, false, "httpRefused", `credentials refused (HTTP ${status})`, { status });
    if (status >= 500) return result(started, false, "httpError", `server error (HTTP ${status})`, { status });
    return result(started, true, okCode, `reachable (HTTP ${status})`, { status });
  } catch (e) {
    if (isOutboundError(e) && e.reason === "redirect") return result(started, true, okCode, `reachable (HTTP ${e.status})`, { status: e.status ?? 0 });
    if (isOutboundError(e) && e.reason === "timeout") return result(started, false, "timeout", `no answer in ${TIMEOUT_MS} ms`, { ms: TIMEOUT_MS });
    // Staff only: the cause (system error code) helps them fix the settings.
    const reason = isOutboundError(e) ? e.detail.replace(/^[^:]*: /, "") : (e as Error).message;
    return result(started, false, "unreachable", `unreachable: ${reason}`, { reason });
  }
}

function smppBind(c: ProviderConnection, started: number): Promise<TestResult> {
  const s = smppSettings(c);
  return new Promise((resolve) => {
    let settled = false;
    const session = smpp.connect({ url: `smpp://${s.host}:${s.port}` });
    const finish = (r: TestResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      setTimeout(() => session.destroy(), 1000).unref?.();
      resolve(r);
    };
    const timer = setTimeout(() => {
      finish(result(started, false, "timeout", `no answer in ${TIMEOUT_MS} ms`, { ms: TIMEOUT_MS }));
      session.destroy();
    }, TIMEOUT_MS);
    session.on("error", (e: Error & { code?: string }) => finish(result(started, false, "unreachable", `unreachable: ${e.code ?? e.message}`, { reason: e.code ?? e.message })));
    session.on("close", () => finish(result(started, false, "unreachable", "unreachable: connection closed", { reason: "closed" })));
    session.on("connect", () => {
      session.bind_transceiver({ system_id: s.system_id, password: s.password, system_type: s.system_type ?? "", interface_version: 0x34 }, (pdu: PDU) => {
        if (pdu.command_status !== STATUS.ESME_ROK) {
          const status = `0x${pdu.command_status.toString(16).padStart(8, "0")}`;
          const name = STATUS_NAMES.get(pdu.command_status) ?? "";
          finish(result(started, false, "bindRefused", `bind refused: ${status} ${name}`.trim(), { status, name }));
          session.close();
          return;
        }
        const ok = result(started, true, "bound", "bound and unbound", {});
        session.unbind({}, () => {
          session.close();
          finish({ ...ok, ms: Date.now() - started });
        });
      });
    });
  });
}

export async function testProvider(ctx: SignedInCtx, id: string): Promise<TestResult> {
  assertStaff(ctx);
  const row = await loadProvider(id);
  const c = row as unknown as ProviderConnection;
  const started = Date.now();
  let r: TestResult;
  if (row.kind === "http") {
    const s = httpSettings(c);
    r = s.url
      ? await getOnce(new URL(s.url), { Authorization: `Bearer ${s.api_key}`, Accept: "application/json" }, started, "httpOk")
      : result(started, false, "notConfigured", "not configured");
  } else if (row.kind === "smpp") {
    const s = smppSettings(c);
    r = s.system_id ? await smppBind(c, started) : result(started, false, "notConfigured", "not configured");
  } else {
    r = await getOnce(new URL("/health", env().SIMULATOR_URL), {}, started, "simulatorOk");
  }
  await recordAudit(ctx, "provider_connection.tested", { meta: { id, name: row.name, ok: r.ok, code: r.code } });
  return r;
}
