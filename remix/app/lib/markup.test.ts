import { describe, expect, it } from "vitest";
import { escapeHtml, linkText, renderMarkup } from "./markup";

describe("renderMarkup", () => {
  it("escapes HTML so a message can never inject markup", () => {
    expect(renderMarkup(`<img src=x onerror="alert(1)"> & 'ok'`)).toBe("&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; &#39;ok&#39;");
    expect(renderMarkup("<script>alert(1)</script>")).not.toContain("<script");
    expect(escapeHtml(`<>&"'`)).toBe("&lt;&gt;&amp;&quot;&#39;");
  });

  it("renders _italic_, *bold*, ~strike~ and their combination", () => {
    expect(renderMarkup("_olá_")).toBe("<em>olá</em>");
    expect(renderMarkup("isso é *muito* importante")).toBe("isso é <strong>muito</strong> importante");
    expect(renderMarkup("~preço antigo~ R$ 10")).toBe("<s>preço antigo</s> R$ 10");
    expect(renderMarkup("*_ambos_*")).toBe("<strong><em>ambos</em></strong>");
    expect(renderMarkup("(*entre parênteses*).")).toBe("(<strong>entre parênteses</strong>).");
  });

  it("leaves markers that do not wrap a word alone", () => {
    expect(renderMarkup("2 * 3 * 4")).toBe("2 * 3 * 4");
    expect(renderMarkup("nome_do_arquivo_final")).toBe("nome_do_arquivo_final");
    expect(renderMarkup("* lista")).toBe("* lista");
    expect(renderMarkup("**")).toBe("**");
  });

  it("renders ```code``` without formatting or links inside, escaped", () => {
    expect(renderMarkup("rode ```npm *test*``` agora")).toBe("rode <code>npm *test*</code> agora");
    expect(renderMarkup("```\nif (a < b) {\n  go();\n}\n```")).toBe("<pre><code>if (a &lt; b) {\n  go();\n}</code></pre>");
    expect(renderMarkup("```http://example.com```")).toBe("<code>http://example.com</code>");
  });

  it("auto-links URLs, keeping trailing punctuation out and truncating the text to 50 characters", () => {
    expect(renderMarkup("veja https://example.com/a?b=1&c=2.")).toBe(
      'veja <a href="https://example.com/a?b=1&amp;c=2" target="_blank" rel="noopener noreferrer nofollow">https://example.com/a?b=1&amp;c=2</a>.',
    );
    expect(renderMarkup("www.exemplo.com.br")).toBe('<a href="http://www.exemplo.com.br" target="_blank" rel="noopener noreferrer nofollow">www.exemplo.com.br</a>');
    const long = `https://example.com/${"x".repeat(80)}`;
    const html = renderMarkup(long);
    expect(html).toContain(`href="${long}"`);
    expect(html).toContain(`>${long.slice(0, 50)}…</a>`);
    expect(linkText(long)).toHaveLength(51);
    expect(linkText("https://a.io")).toBe("https://a.io");
    // Underscores of a URL are not italics.
    expect(renderMarkup("https://a.io/_x_")).toContain(">https://a.io/_x_</a>");
    // A quote cannot break out of the href.
    expect(renderMarkup('https://a.io/"onmouseover="x')).not.toContain('"onmouseover');
  });

  it("keeps line breaks", () => {
    expect(renderMarkup("linha 1\nlinha *2*")).toBe("linha 1<br>linha <strong>2</strong>");
    expect(renderMarkup("")).toBe("");
    expect(renderMarkup(null)).toBe("");
  });
});
