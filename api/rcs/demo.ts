/**
 * The demo account's RCS (issue 21), for a new user trying `npm start`: a launched agent (Google's
 * id `lojademo@rbm.goog`, live at Vivo, Claro and TIM), two templates (a card and a carousel with
 * https images) and a keyword ("horario" answers the opening hours). Idempotent: found by natural
 * keys (the agent's Google id, a template's name, the keyword), what people changed stays. The
 * contents are checked by rcsContentSchema, as a person's template would be.
 */
import type { Transaction } from "sequelize";
import { exec, row } from "../lib/sql";
import { CARRIERS } from "./agent-schema";
import { type RcsContent, rcsContentSchema } from "./content";

export const DEMO_RBM_AGENT_ID = "lojademo@rbm.goog";

const IMG = "https://images.unsplash.com";
export const DEMO_RCS_TEMPLATES: Array<{ name: string; content: RcsContent }> = [
  {
    name: "Oferta da semana",
    content: rcsContentSchema.parse({
      type: "card",
      messageText: "Oferta da semana: 20% em toda a loja",
      messageDescription: "Só até domingo, na loja e no site. Use o cupom SEMANA20.",
      imageUrl: `${IMG}/photo-1441986300917-64674bd600d8.jpg`,
      suggestions: [
        { type: "url", text: "Ver ofertas", url: "https://demo.example/ofertas" },
        { type: "reply", text: "Quero o cupom" },
      ],
    }),
  },
  {
    name: "Vitrine de produtos",
    content: rcsContentSchema.parse({
      type: "card-carousel",
      images: [
        {
          uri: `${IMG}/photo-1523275335684-37898b6baf30.jpg`,
          title: "Relógio clássico",
          description: "R$ 299,90 em até 10x",
          suggestions: [{ type: "url", text: "Comprar", url: "https://demo.example/relogio" }],
        },
        {
          uri: `${IMG}/photo-1505740420928-5e560c06d30e.png`,
          title: "Fone sem fio",
          description: "R$ 199,90 com frete grátis",
          suggestions: [{ type: "url", text: "Comprar", url: "https://demo.example/fone" }],
        },
        {
          uri: `${IMG}/photo-1542291026-7eec264c27ff.jpg`,
          title: "Tênis de corrida",
          description: "R$ 349,90 — lançamento",
          suggestions: [{ type: "reply", text: "Tenho interesse" }],
        },
      ],
    }),
  },
];
const DEMO_KEYWORD = { keyword: "horario", answer: "Nosso horário: segunda a sexta, das 9h às 18h; sábado, das 9h às 13h. Domingos e feriados fechado." };

/** Seeds the demo account's RCS within the seed's transaction; answers how many rows it created. */
export async function seedDemoRcs(accountId: string, transaction: Transaction): Promise<number> {
  const t = { transaction };
  let created = 0;
  const launches = JSON.stringify(CARRIERS.map((carrier) => ({ carrier, state: "launched", updated_at: new Date().toISOString() })));
  const agent = await row<{ id: string; inserted: boolean }>(
    `WITH found AS (SELECT id FROM rcs_agents WHERE rbm_agent_id = $2),
          ins AS (
            INSERT INTO rcs_agents (account_id, name, description, logo_url, banner_url, color, phone, website, email, privacy_url, terms_url, status, rbm_agent_id, launches)
            SELECT $1, 'Loja Demo', 'Ofertas, pedidos e atendimento da Demo Comércio.', 'https://demo.example/rcs/logo.png', 'https://demo.example/rcs/banner.jpg',
                   '#0b57d0', '+551130000003', 'https://demo.example', 'contato@demo.example', 'https://demo.example/privacidade', 'https://demo.example/termos',
                   'launched', $2, $3::jsonb
             WHERE NOT EXISTS (SELECT 1 FROM found) RETURNING id)
     SELECT id, true AS inserted FROM ins UNION ALL SELECT id, false FROM found`,
    [accountId, DEMO_RBM_AGENT_ID, launches],
    t,
  );
  if (agent?.inserted) created++;
  for (const tpl of DEMO_RCS_TEMPLATES) {
    created += await exec(
      `INSERT INTO rcs_templates (account_id, name, content) VALUES ($1, $2, $3::jsonb) ON CONFLICT (account_id, lower(name)) DO NOTHING`,
      [accountId, tpl.name, JSON.stringify(tpl.content)],
      t,
    );
  }
  if (agent) {
    created += await exec(
      `INSERT INTO rcs_keywords (account_id, agent_id, keyword, answer) VALUES ($1, $2, $3, $4) ON CONFLICT (agent_id, lower(keyword)) DO NOTHING`,
      [accountId, agent.id, DEMO_KEYWORD.keyword, DEMO_KEYWORD.answer],
      t,
    );
  }
  return created;
}
