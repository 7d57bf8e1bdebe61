/** RCS: an account's agent (launched by default, as platform staff leaves it once Google launched it). */
import { type Query, insertRow, runDb } from "./sql";

export type RcsAgentFields = {
  name?: string;
  status?: "requested" | "in_review" | "launched" | "rejected" | "suspended";
  /** Google's agent id; default a unique `…@rbm.goog` when launched. */
  rbmAgentId?: string | null;
};

export async function makeRcsAgent(accountId: string, fields: RcsAgentFields = {}, q: Query = runDb): Promise<{ id: string; rbmAgentId: string | null }> {
  const status = fields.status ?? "launched";
  const slug = Math.random().toString(36).slice(2, 10);
  const rbmAgentId = fields.rbmAgentId !== undefined ? fields.rbmAgentId : status === "launched" ? `teste_${slug}@rbm.goog` : null;
  const launched = status === "launched" ? ["Vivo", "Claro", "TIM"].map((carrier) => ({ carrier, state: "launched" })) : [];
  const row = await insertRow(
    "rcs_agents",
    {
      accountId,
      name: fields.name ?? `Agente ${slug}`,
      description: "Atendimento",
      logoUrl: "https://loja.example/logo.png",
      bannerUrl: "https://loja.example/banner.png",
      color: "#0A7CFF",
      phone: "+551130000000",
      website: "https://loja.example",
      privacyUrl: "https://loja.example/privacidade",
      termsUrl: "https://loja.example/termos",
      status,
      rbmAgentId,
      launches: JSON.stringify(launched),
    },
    "id",
    q,
  );
  return { id: row.id, rbmAgentId };
}
