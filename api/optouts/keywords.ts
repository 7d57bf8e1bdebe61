/**
 * Opt-out keywords (pure, no imports): a reply is a keyword when it is that single word, trimmed,
 * ignoring case and accents ("  Sáir " is SAIR; "quero sair" is not a keyword).
 */

export const DEFAULT_OPTOUT_KEYWORDS = ["SAIR", "PARAR", "CANCELAR", "DESCADASTRAR", "REMOVER", "STOP"] as const;
export const DEFAULT_RESUME_KEYWORDS = ["VOLTAR", "START"] as const;

/** Uppercase without diacritics (NFD, combining marks removed): "Sáir" -> "SAIR". */
export function foldKeyword(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").trim().toUpperCase();
}

/** The keyword of `keywords` that `text` is (as the list spells it), or null. */
export function matchKeyword(text: string | null | undefined, keywords: readonly string[]): string | null {
  if (!text) return null;
  const word = foldKeyword(text);
  if (!word || /\s/u.test(word)) return null;
  return keywords.find((k) => foldKeyword(k) === word) ?? null;
}
