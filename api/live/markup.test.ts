import { describe, expect, it } from "vitest";
import { renderMarkup, truncateLink } from "./markup";

describe("live chat markup", () => {
  it("escapes HTML before anything else", () => {
    expect(renderMarkup(`<img src=x onerror="alert(1)">`)).toBe("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
  });
  it("renders _italic_, *bold*, ~strike~ and ```code```", () => {
    expect(renderMarkup("_a_ *b* ~c~")).toBe("<em>a</em> <strong>b</strong> <del>c</del>");
    expect(renderMarkup("x ```*not bold* <b>``` y")).toBe("x <pre><code>*not bold* &lt;b&gt;</code></pre> y");
    expect(renderMarkup("2 * 3 * 4 and snake_case_name")).toBe("2 * 3 * 4 and snake_case_name");
    expect(renderMarkup("line\nnext")).toBe("line<br>next");
  });
  it("links URLs, shown truncated to 50 characters", () => {
    const url = "https://example.com/" + "a".repeat(60) + "?q=1&r=_x_";
    const html = renderMarkup(`see ${url}.`);
    expect(html).toBe(`see <a href="${url.replace(/&/g, "&amp;")}" target="_blank" rel="noopener noreferrer nofollow">${truncateLink(url).replace(/&/g, "&amp;")}</a>.`);
    expect(truncateLink(url)).toHaveLength(50);
    expect(renderMarkup("www.exemplo.com.br")).toContain('href="https://www.exemplo.com.br"');
    expect(renderMarkup('javascript:alert(1) "http://x.y/"onmouseover=1')).not.toMatch(/<a [^>]*onmouseover/);
  });
});
