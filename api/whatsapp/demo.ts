/**
 * The demo account's WhatsApp number, for a new user trying `npm start` (issue 16): when the
 * platform talks to the simulator's loopback Graph peer (development, WHATSAPP_API_URL not set),
 * the worker connects a number to the demo account and submits two templates through the same
 * use-cases a person's form calls (connect checks the number, Meta's handshake reaches our webhook
 * URL; the peer approves the templates after SIMULATOR_DELAY_MS by its signed webhook), so
 * /whatsapp/send works at once. The peer keeps nothing across restarts: on a later start the
 * number's webhooks are subscribed again and templates the peer no longer has are submitted again
 * (their status follows Meta's webhook again). Never with Meta itself, never in production.
 */
import { randomBytes } from "node:crypto";
import { loadActor } from "../auth/actor";
import { GraphError, subscribeCloudWebhooks, submitCloudTemplate } from "../channels/whatsapp/cloud";
import type { SignedInCtx } from "../lib/context";
import { env } from "../lib/env";
import { exec, row, rows } from "../lib/sql";
import { simulatedAppSecret } from "../simulator/whatsapp-cloud";
import { ONPREM_SIM_PASSWORD, ONPREM_SIM_USERNAME } from "../simulator/whatsapp-onprem";
import { connectWhatsappNumber, disconnectWhatsappNumber, numberById, whatsappWebhookUrl } from "./numbers";
import { INTEGRATIONS } from "./integrations";
import { createWhatsappTemplate } from "./templates";

export const DEMO_ACCOUNT = "Demo Comércio Ltda";
/** The demo number at the peer (any digits are a number there) and its WhatsApp Business Account. */
export const DEMO_PHONE_NUMBER_ID = "551130000001";
export const DEMO_WABA_ID = "551130000000";
/** The demo number of the older integration: a client of the peer's On-Premises shape (its base URL ends in these digits). */
export const DEMO_ONPREM_NUMBER = "551130000002";

const DEMO_TEMPLATES = [
  {
    name: "pedido_saiu",
    category: "utility",
    language: "pt_BR",
    body: "Olá {{1}}, seu pedido {{2}} saiu para entrega e chega hoje.",
    body_examples: ["Ana", "4321"],
    footer: "Demo Comércio",
    buttons: [{ type: "quick_reply", text: "Obrigado" }],
  },
  {
    name: "promo_semana",
    category: "marketing",
    language: "pt_BR",
    header: { type: "text", text: "Ofertas da semana" },
    body: "Oi {{1}}! Esta semana tem {{2}} de desconto na loja.",
    body_examples: ["Ana", "20%"],
    buttons: [{ type: "url", text: "Ver ofertas", url: "https://demo.example/ofertas" }],
  },
];

/** Whether this is `npm start`'s development platform talking to the loopback peer (the demo's condition; never in tests or production). */
export function usesLoopbackPeer(): boolean {
  const e = env();
  return e.NODE_ENV === "development" && e.WHATSAPP_API_URL.startsWith(`${e.SIMULATOR_URL.replace(/\/+$/, "")}/whatsapp/`);
}

/** The demo account's first owner as the acting person, or null (no demo seeded). */
export async function demoOwner(): Promise<SignedInCtx | null> {
  const owner = await row<{ user_id: string; account_id: string }>(
    `SELECT m.user_id, a.id AS account_id FROM accounts a JOIN memberships m ON m.account_id = a.id AND m.role = 'owner'
      WHERE a.name = $1 ORDER BY m.created_at LIMIT 1`,
    [DEMO_ACCOUNT],
  );
  if (!owner) return null;
  return { actor: await loadActor(owner.user_id, owner.account_id), ip: null, userAgent: "demo" } as SignedInCtx;
}

/** Connects the demo number and its templates, or brings the peer up to date with them. Answers what it did. */
export async function ensureDemoWhatsapp(): Promise<"skipped" | "connected" | "resynced"> {
  if (!usesLoopbackPeer()) return "skipped";
  const ctx = await demoOwner();
  if (!ctx) return "skipped";
  const existing = await row<{ id: string }>(`SELECT id FROM whatsapp_numbers WHERE account_id = $1 AND phone_number_id = $2`, [ctx.actor.accountId, DEMO_PHONE_NUMBER_ID]);
  if (!existing) {
    const { data } = await connectWhatsappNumber(ctx, {
      phone_number_id: DEMO_PHONE_NUMBER_ID,
      waba_id: DEMO_WABA_ID,
      access_token: `EAAdemo${randomBytes(16).toString("hex")}`,
      app_secret: simulatedAppSecret(env().SIMULATOR_API_KEY),
    });
    for (const t of DEMO_TEMPLATES) await createWhatsappTemplate(ctx, { ...t, number_id: data.id });
    await ensureDemoOnprem(ctx);
    return "connected";
  }
  await ensureDemoOnprem(ctx);
  // The peer restarted (it keeps nothing): subscribe again, submit again what it no longer has.
  const number = (await numberById(existing.id))!;
  await subscribeCloudWebhooks(DEMO_WABA_ID, number.secrets.access_token, whatsappWebhookUrl(number.id), number.secrets.verify_token);
  const ours = await rows<{ id: string; name: string; language: string; category: string; components: unknown }>(
    `SELECT id, name, language, category, components FROM whatsapp_templates WHERE number_id = $1`,
    [number.id],
  );
  for (const t of ours) {
    try {
      const submitted = await submitCloudTemplate(DEMO_WABA_ID, number.secrets.access_token, t);
      await exec(`UPDATE whatsapp_templates SET provider_template_id = $2, status = 'pending', status_at = NULL, updated_at = now() WHERE id = $1`, [t.id, submitted.id]);
    } catch (e) {
      // Still there (the same name and language): nothing to do.
      if (!(e instanceof GraphError && e.permanent)) throw e;
    }
  }
  return "resynced";
}

/**
 * The demo account's number of the older integration (the /whatsapp/jv screens): a client of the
 * peer's On-Premises shape, connected through the same use-case as the form, with `pedido_saiu`
 * submitted to the peer's BSP (approved there a moment later; the worker reads it from its list).
 * The peer forgets its clients on restart and a client's webhook token is kept only hashed here,
 * so on a later start the demo number is connected again (disconnect, connect: a new webhook URL
 * and token at the peer) rather than patched.
 */
async function ensureDemoOnprem(ctx: SignedInCtx) {
  const existing = await row<{ id: string }>(`SELECT id FROM whatsapp_numbers WHERE account_id = $1 AND integration = 'onprem' AND phone_number_id = $2`, [
    ctx.actor.accountId,
    DEMO_ONPREM_NUMBER,
  ]);
  if (existing) {
    // A peer that did not restart still has the template at its BSP: gone first, so it is submitted afresh.
    const number = await numberById(existing.id);
    if (number) await INTEGRATIONS.onprem.deleteTemplate(number, DEMO_TEMPLATES[0].name).catch(() => undefined);
    await disconnectWhatsappNumber(ctx, existing.id);
  }
  const { data } = await connectWhatsappNumber(ctx, {
    integration: "onprem",
    base_url: `${env().SIMULATOR_URL.replace(/\/+$/, "")}/whatsapp-onprem/${DEMO_ONPREM_NUMBER}`,
    username: ONPREM_SIM_USERNAME,
    password: ONPREM_SIM_PASSWORD,
    phone_number: `+${DEMO_ONPREM_NUMBER}`,
  });
  await createWhatsappTemplate(ctx, { ...DEMO_TEMPLATES[0], number_id: data.id });
}
