import { describe, expect, it } from "vitest";
import { DEFAULT_OPTOUT_KEYWORDS, DEFAULT_RESUME_KEYWORDS, foldKeyword, matchKeyword } from "./keywords";

describe("matchKeyword", () => {
  it("matches a single word, trimmed, ignoring case and accents", () => {
    expect(matchKeyword("sair", DEFAULT_OPTOUT_KEYWORDS)).toBe("SAIR");
    expect(matchKeyword("  Sáir ", DEFAULT_OPTOUT_KEYWORDS)).toBe("SAIR");
    expect(matchKeyword("\tPARAR\n", DEFAULT_OPTOUT_KEYWORDS)).toBe("PARAR");
    expect(matchKeyword("stop", DEFAULT_OPTOUT_KEYWORDS)).toBe("STOP");
    expect(matchKeyword("DesCadastrar", DEFAULT_OPTOUT_KEYWORDS)).toBe("DESCADASTRAR");
    // Decomposed input (a + combining acute) folds the same as the composed one.
    expect(matchKeyword("Sa\u0301ir", DEFAULT_OPTOUT_KEYWORDS)).toBe("SAIR");
  });

  it("a sentence, a different word, or nothing is not a keyword", () => {
    expect(matchKeyword("quero sair", DEFAULT_OPTOUT_KEYWORDS)).toBeNull();
    expect(matchKeyword("sair agora", DEFAULT_OPTOUT_KEYWORDS)).toBeNull();
    expect(matchKeyword("sairr", DEFAULT_OPTOUT_KEYWORDS)).toBeNull();
    expect(matchKeyword("sair.", DEFAULT_OPTOUT_KEYWORDS)).toBeNull();
    expect(matchKeyword("", DEFAULT_OPTOUT_KEYWORDS)).toBeNull();
    expect(matchKeyword("   ", DEFAULT_OPTOUT_KEYWORDS)).toBeNull();
    expect(matchKeyword(null, DEFAULT_OPTOUT_KEYWORDS)).toBeNull();
    expect(matchKeyword("sair", [])).toBeNull();
  });

  it("resume keywords work the same way", () => {
    expect(matchKeyword(" voltar ", DEFAULT_RESUME_KEYWORDS)).toBe("VOLTAR");
    expect(matchKeyword("Start", DEFAULT_RESUME_KEYWORDS)).toBe("START");
    expect(matchKeyword("voltar amanhã", DEFAULT_RESUME_KEYWORDS)).toBeNull();
    expect(matchKeyword("sair", DEFAULT_RESUME_KEYWORDS)).toBeNull();
  });

  it("an account's own keywords, even accented, match folded text and are returned as listed", () => {
    expect(matchKeyword("nao", ["NÃO"])).toBe("NÃO");
    expect(matchKeyword("Não", ["NAO"])).toBe("NAO");
    expect(foldKeyword(" Ação ")).toBe("ACAO");
  });
});
