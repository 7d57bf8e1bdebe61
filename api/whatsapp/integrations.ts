/**
 * What differs between the two WhatsApp integrations (issue 16), one object each, so the
 * use-cases (./numbers.ts, ./templates.ts) call `INTEGRATIONS[number.integration].…` and no other
 * file compares the integration with a name:
 *   - cloud: Meta's Cloud API (Graph) with the customer's Meta app (ADR 033;
 *     api/channels/whatsapp/cloud.ts);
 *   - onprem: a WhatsApp Business API client in the On-Premises shape hosted by a BSP, reached at
 *     the customer's base URL with its username and password (ADR 035;
 *     api/channels/whatsapp/onprem.ts).
 * Each says which number a connect form names, checks the form at its provider (the row's facts
 * and the secrets to seal) and points the provider's webhooks at the new row, stops them at
 * disconnect (best effort), submits and deletes templates, and — the onprem BSP, which reports a
 * template's review only in its template list — reads template statuses when asked
 * (`syncTemplates`, polled by ./templates.ts); fetches a contact's file and marks their message
 * read for the live chat (./live.ts). Provider refusals become AppErrors here: a 422 naming
 * the form field the provider blamed, 502 PROVIDER_UNAVAILABLE when it did not answer.
 * Sends, statuses and inbound messages are not here: the channel adapters
 * (api/channels/whatsapp/adapter.ts, onprem-adapter.ts) and ./inbound.ts.
 */
import { createHash } from "node:crypto";
import {
  cloudMedia,
  cloudNumberInfo,
  deleteCloudTemplate,
  GraphError,
  markCloudRead,
  submitCloudTemplate,
  subscribeCloudWebhooks,
  unsubscribeCloudWebhooks,
} from "../channels/whatsapp/cloud";
import {
  deleteOnpremTemplate,
  listOnpremTemplates,
  markOnpremRead,
  OnpremError,
  onpremMedia,
  onpremHealth,
  type OnpremConnection,
  type OnpremTemplate,
  setOnpremWebhook,
  submitOnpremTemplate,
} from "../channels/whatsapp/onprem";
import { randomToken, safeEqual } from "../lib/crypto";
import { env } from "../lib/env";
import { AppError } from "../lib/errors";
import { exec } from "../lib/sql";
import type { NumberWithSecrets } from "./numbers";
import type { ConnectCloudNumberInput, ConnectNumberInput, ConnectOnpremNumberInput } from "./schemas";

export type IntegrationName = NumberWithSecrets["integration"];

/** What a connect found at the provider: the row's facts, the secrets to seal, and the step that points the provider's webhooks at the saved row. */
export type CheckedNumber = {
  phone_number_id: string;
  waba_id: string | null;
  base_url: string | null;
  display_phone_number: string;
  verified_name: string;
  quality_rating: string;
  messaging_limit: string;
  template_namespace: string | null;
  secrets: Record<string, string>;
  /** Run once the row is committed (the provider may call its URL at once); a refusal is an AppError, and the row is then removed. */
  subscribe(numberId: string): Promise<void>;
};

export type TemplateDraft = { name: string; language: string; category: string; components: unknown };
/** The provider's answer to a submit: its template id and first status in its own words (PENDING, submitted, APPROVED…). */
export type SubmittedTemplate = { id: string | null; status: string };

export type Integration<I> = {
  /** The phone number id the form names (a number taken by an account is refused before the provider is asked). */
  numberOf(input: I): string;
  /** The number's webhook URL as answered: never with a secret. */
  webhookUrl(id: string): string;
  info(input: I): Promise<CheckedNumber>;
  /** Stops the provider's webhooks to us; best effort (the caller logs a failure). */
  disconnect(number: NumberWithSecrets): Promise<void>;
  submitTemplate(number: NumberWithSecrets, t: TemplateDraft): Promise<SubmittedTemplate>;
  /** Deletes every language of a template name at the provider; one already gone there is gone. */
  deleteTemplate(number: NumberWithSecrets, name: string): Promise<void>;
  /** Reads the templates' review status at the provider and applies it (integrations whose provider does not post it). */
  syncTemplates?(number: NumberWithSecrets): Promise<void>;
  /** A contact's file by the media id of their message, at most maxBytes (`unavailable` on any failure: the message is kept without it). */
  media(number: NumberWithSecrets, mediaId: string, maxBytes: number): Promise<{ bytes: Uint8Array; tooLarge: boolean; unavailable?: boolean }>;
  /** Marks a contact's message read (the blue ticks they see), and those before it. */
  markRead(number: NumberWithSecrets, messageId: string): Promise<void>;
};

const appUrl = () => env().APP_URL.replace(/\/+$/, "");

// ---- cloud (ADR 033) ------------------------------------------------------------------------------

/** Where Meta posts a Cloud API number's webhooks: through web's public address, like every provider webhook. */
export const whatsappWebhookUrl = (id: string) => `${appUrl()}/api/webhooks/whatsapp/${id}`;

const cloud: Integration<ConnectCloudNumberInput> = {
  numberOf: (input) => input.phone_number_id,
  webhookUrl: whatsappWebhookUrl,
  async info(data) {
    const info = await cloudNumberInfo(data.phone_number_id, data.access_token);
    const secrets = { access_token: data.access_token, app_secret: data.app_secret, verify_token: randomToken(24) };
    return {
      ...info,
      phone_number_id: data.phone_number_id,
      waba_id: data.waba_id,
      base_url: null,
      template_namespace: null,
      secrets,
      // Meta's handshake reaches the URL before Graph answers: a subscribe that succeeds has working webhooks.
      async subscribe(numberId) {
        try {
          await subscribeCloudWebhooks(data.waba_id, data.access_token, whatsappWebhookUrl(numberId), secrets.verify_token);
        } catch (e) {
          console.warn(`whatsapp: subscribing the webhooks of WABA ${data.waba_id} failed: ${(e as Error).message}`);
          if (e instanceof GraphError && e.permanent) throw new AppError("VALIDATION", { fields: { waba_id: ["validation.waNumberUnknown"] } });
          throw new AppError("PROVIDER_UNAVAILABLE");
        }
      },
    };
  },
  async disconnect(n) {
    if (n.waba_id) await unsubscribeCloudWebhooks(n.waba_id, n.secrets.access_token);
  },
  async submitTemplate(n, t) {
    if (!n.waba_id) throw new AppError("VALIDATION", { fields: { number_id: ["validation.option"] } });
    try {
      return await submitCloudTemplate(n.waba_id, n.secrets.access_token, t);
    } catch (e) {
      if (e instanceof GraphError && e.permanent) throw new AppError("VALIDATION", { fields: { form: ["validation.waTemplateRefused"] } });
      throw new AppError("PROVIDER_UNAVAILABLE");
    }
  },
  async deleteTemplate(n, name) {
    if (!n.waba_id) return;
    try {
      await deleteCloudTemplate(n.waba_id, n.secrets.access_token, name);
    } catch (e) {
      // Already gone at Meta is gone; anything else keeps it here, to be deleted again.
      if (!(e instanceof GraphError && e.permanent)) throw new AppError("PROVIDER_UNAVAILABLE");
    }
  },
  media: (n, mediaId, max) => cloudMedia(mediaId, n.secrets.access_token, max),
  markRead: (n, messageId) => markCloudRead(n.phone_number_id, n.secrets.access_token, messageId),
};

// ---- onprem (ADR 035) -----------------------------------------------------------------------------

/** What an onprem number keeps sealed: the client's base URL and credentials, and the SHA-256 of its webhook token (compared, never sent again). */
export type OnpremSecrets = { base_url: string; username: string; password: string; webhook_token_sha256: string };

/** Where the BSP's client posts an onprem number's webhooks, without its token (what is answered). */
export const onpremWebhookUrl = (id: string) => `${appUrl()}/api/webhooks/whatsapp-onprem/${id}`;

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** An onprem number's client: its base URL and credentials (unsealed). */
export function onpremConnection(n: NumberWithSecrets): OnpremConnection {
  const s = n.secrets as unknown as Partial<OnpremSecrets>;
  if (n.integration !== "onprem" || !s.base_url || !s.username || typeof s.password !== "string") throw new Error(`whatsapp number ${n.id} is not an On-Premises number`);
  return { baseUrl: s.base_url, username: s.username, password: s.password };
}

/** Whether `token` (from the webhook URL's query) is the onprem number's webhook token; constant time. */
export function validOnpremWebhookToken(n: NumberWithSecrets, token: string | null): boolean {
  const expected = (n.secrets as unknown as Partial<OnpremSecrets>).webhook_token_sha256;
  return n.integration === "onprem" && typeof expected === "string" && !!token && safeEqual(sha256(token), expected);
}

/** A failed call at connect, as the form shows it: wrong credentials on password; no API (refused, unreachable, not an On-Premises API) on base_url. */
function connectError(e: unknown): AppError {
  if (e instanceof AppError) return e;
  if (e instanceof OnpremError && e.login && e.status === 401) return new AppError("VALIDATION", { fields: { password: ["validation.waOnpremLogin"] } });
  if (e instanceof OnpremError && (e.status === 0 || e.permanent)) return new AppError("VALIDATION", { fields: { base_url: ["validation.waOnpremUnreachable"] } });
  return new AppError("PROVIDER_UNAVAILABLE");
}

/** The namespace the BSP answered with, kept on the number (its template messages must name it). */
async function keepNamespace(numberId: string, namespace: string | null) {
  if (namespace) await exec(`UPDATE whatsapp_numbers SET template_namespace = $2 WHERE id = $1 AND template_namespace IS DISTINCT FROM $2`, [numberId, namespace.slice(0, 100)]);
}

/** The BSP's review words in ours; null for what changes nothing here (deleted, unknown words). */
function bspStatus(word: string): "pending" | "approved" | "rejected" | "paused" | "disabled" | null {
  switch (word.toLowerCase()) {
    case "submitted":
    case "pending":
    case "in_appeal":
      return "pending";
    case "approved":
    case "reinstated":
      return "approved";
    case "rejected":
      return "rejected";
    case "paused":
      return "paused";
    case "disabled":
      return "disabled";
    default:
      return null;
  }
}

const onprem: Integration<ConnectOnpremNumberInput> = {
  numberOf: (input) => input.phone_number.replace(/^\+/, ""),
  webhookUrl: onpremWebhookUrl,
  async info(data) {
    const connection: OnpremConnection = { baseUrl: data.base_url, username: data.username, password: data.password };
    let state: string;
    try {
      // The login first (a wrong password is named), then the client's own view of its link to WhatsApp.
      state = await onpremHealth(connection);
    } catch (e) {
      throw connectError(e);
    }
    if (state !== "connected") throw new AppError("VALIDATION", { fields: { base_url: [`validation.waOnpremNotConnected::${state.slice(0, 40)}`] } });
    // Templates the account already has at the BSP name the namespace; a new account learns it from its first submit.
    const namespace = await listOnpremTemplates(connection).then(
      (list) => list.find((t) => t.namespace)?.namespace ?? null,
      () => null,
    );
    const token = randomToken(32);
    const secrets: OnpremSecrets = { base_url: data.base_url, username: data.username, password: data.password, webhook_token_sha256: sha256(token) };
    return {
      phone_number_id: data.phone_number.replace(/^\+/, ""),
      waba_id: null,
      // The column keeps the origin only (which BSP, for the operator); the URL itself is sealed.
      base_url: new URL(data.base_url).origin,
      display_phone_number: data.phone_number,
      verified_name: "",
      quality_rating: "UNKNOWN",
      messaging_limit: "",
      template_namespace: namespace,
      secrets,
      // The On-Premises API cannot sign its callbacks nor send a header we choose: the token travels in the URL we register (ADR 035).
      async subscribe(numberId) {
        try {
          await setOnpremWebhook(connection, `${onpremWebhookUrl(numberId)}?token=${token}`);
        } catch (e) {
          throw connectError(e);
        }
      },
    };
  },
  async disconnect(n) {
    await setOnpremWebhook(onpremConnection(n), "");
  },
  async submitTemplate(n, t) {
    let answer: OnpremTemplate;
    try {
      answer = await submitOnpremTemplate(onpremConnection(n), t);
    } catch (e) {
      if (e instanceof OnpremError && e.permanent) throw new AppError("VALIDATION", { fields: { form: ["validation.waTemplateRefused"] } });
      throw new AppError("PROVIDER_UNAVAILABLE");
    }
    await keepNamespace(n.id, answer.namespace);
    return { id: answer.id, status: answer.status || "submitted" };
  },
  async deleteTemplate(n, name) {
    try {
      await deleteOnpremTemplate(onpremConnection(n), name);
    } catch (e) {
      if (!(e instanceof OnpremError && e.permanent)) throw new AppError("PROVIDER_UNAVAILABLE");
    }
  },
  media: (n, mediaId, max) => onpremMedia(onpremConnection(n), mediaId, max),
  markRead: (n, messageId) => markOnpremRead(onpremConnection(n), messageId),
  /**
   * The BSP's template list is its word on each template: every status it reports that differs
   * from ours is applied (approved, rejected with its reason, paused, disabled, back to approved),
   * one statement for the number; templates it does not list (not submitted yet) are left alone.
   */
  async syncTemplates(n) {
    const list = await listOnpremTemplates(onpremConnection(n));
    await keepNamespace(n.id, list.find((t) => t.namespace)?.namespace ?? null);
    const known = list.flatMap((t) => {
      const status = bspStatus(t.status);
      return status ? [{ ...t, status, reason: status === "rejected" ? (t.rejected_reason ?? "").slice(0, 500) || null : null }] : [];
    });
    if (!known.length) return;
    await exec(
      `UPDATE whatsapp_templates t SET status = v.status, reason = v.reason, status_at = now(), updated_at = now(),
              provider_template_id = COALESCE(t.provider_template_id, v.id)
         FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) AS v(name, language, status, reason, id)
        WHERE t.number_id = $1 AND t.name = v.name AND t.language = v.language AND (t.status <> v.status OR t.reason IS DISTINCT FROM v.reason)`,
      [n.id, known.map((t) => t.name), known.map((t) => t.language), known.map((t) => t.status), known.map((t) => t.reason), known.map((t) => t.id?.slice(0, 64) ?? null)],
    );
  },
};

/** The two integrations, by the name numbers carry (whatsapp_numbers.integration). */
export const INTEGRATIONS: { [K in IntegrationName]: Integration<Extract<ConnectNumberInput, { integration: K }>> } = { cloud, onprem };

/** The integration of a connect form, typed for that form. */
export const integrationOf = <I extends ConnectNumberInput>(input: I) => INTEGRATIONS[input.integration] as unknown as Integration<I>;

/** The integrations whose template statuses are read by polling (the others post them). */
export const POLLED_INTEGRATIONS = (Object.keys(INTEGRATIONS) as IntegrationName[]).filter((k) => INTEGRATIONS[k].syncTemplates);
