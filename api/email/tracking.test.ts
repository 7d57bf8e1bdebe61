/**
 * The tracking tokens and the HTML rewriting of ./tracking.ts (ADR 039): a token names only the
 * message and link it was made for (a changed link, id or mac is refused), and the HTML gets a pixel
 * and signed links for http(s) anchors only.
 */
import { describe, expect, it } from "vitest";

import { SECRET_NAMES } from "../lib/env";
import { addPixel, clickToken, openToken, readClickToken, readOpenToken, rewriteLinks } from "./tracking";

// Read by env() on first use: secrets and URLs of this test, not a checkout's.
for (const name of SECRET_NAMES) process.env[name] = `tracking-test-${name}`.padEnd(48, "x");
process.env.EMAIL_TRACK_URL = "https://t.example.com/";
process.env.UNSUBSCRIBE_HOST = "sair.example.com";

const id = "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
const other = "ffffffff-4e5f-4a6b-8c7d-9e0f1a2b3c4d";

describe("tokens", () => {
  it("an open token reads back as its message; a changed id or mac does not", () => {
    const token = openToken(id.toUpperCase());
    expect(token).toMatch(/^o\.0a1b2c3d4e5f4a6b8c7d9e0f1a2b3c4d\.[A-Za-z0-9_-]{22}$/);
    expect(readOpenToken(token)).toEqual({ messageId: id });
    expect(readOpenToken(token.replace("0a1b", "0a1c"))).toBeNull();
    expect(readOpenToken(`${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`)).toBeNull();
    expect(readOpenToken("o.x.y")).toBeNull();
    expect(readOpenToken(clickToken(id, "https://a.example/").replace(/^c/, "o"))).toBeNull();
  });

  it("a click token reads back as its message and link; another link, message or a forged mac is refused", () => {
    const url = "https://loja.example/p?a=1&b=ç";
    const token = clickToken(id, url);
    expect(readClickToken(token)).toEqual({ messageId: id, url });
    const [kind, hex, , mac] = token.split(".");
    const evil = Buffer.from("https://evil.example/", "utf8").toString("base64url");
    expect(readClickToken(`${kind}.${hex}.${evil}.${mac}`)).toBeNull();
    expect(readClickToken(clickToken(other, url).replace(other.replaceAll("-", ""), hex))).toBeNull();
    expect(readClickToken(`${kind}.${hex}.${Buffer.from("javascript:alert(1)").toString("base64url")}.${mac}`)).toBeNull();
    expect(readClickToken("c...")).toBeNull();
  });
});

describe("rewriteLinks and addPixel", () => {
  it("rewrites absolute http(s) hrefs (entities decoded) and leaves mailto, anchors, relative links and our own hosts", () => {
    const html = `<a href="https://loja.example/p?a=1&amp;b=2">x</a><A class=c HREF='http://loja.example/q'>y</A><a href=https://z.example/r>z</a>
<a href="mailto:a@b.example">m</a><a href="#top">t</a><a href="/rel">r</a><a href="https://sair.example.com/?u=1">s</a><a name="n">n</a>`;
    const out = rewriteLinks(html, id);
    const hrefs = [...out.matchAll(/href\s*=\s*"([^"]*)"|HREF='([^']*)'/gi)].map((m) => (m[1] ?? m[2]).replaceAll("&amp;", "&"));
    const tracked = hrefs.slice(0, 3).map((h) => {
      expect(h.startsWith("https://t.example.com/e/c/")).toBe(true);
      return readClickToken(h.slice("https://t.example.com/e/c/".length))?.url;
    });
    expect(tracked).toEqual(["https://loja.example/p?a=1&b=2", "http://loja.example/q", "https://z.example/r"]);
    expect(hrefs.slice(3)).toEqual(["mailto:a@b.example", "#top", "/rel", "https://sair.example.com/?u=1"]);
    expect(out).toContain('<a name="n">n</a>');
  });

  it("puts the pixel before </body>, or at the end without one", () => {
    const withBody = addPixel("<html><body><p>x</p></BODY></html>", id);
    expect(withBody).toMatch(
      /<p>x<\/p><img src="https:\/\/t\.example\.com\/e\/o\/o\.0a1b2c3d4e5f4a6b8c7d9e0f1a2b3c4d\.[A-Za-z0-9_-]{22}" width="1" height="1" alt=""[^>]*\/><\/BODY><\/html>$/,
    );
    expect(addPixel("<p>x</p>", id)).toMatch(/^<p>x<\/p><img src="https:\/\/t\.example\.com\/e\/o\//);
  });
});
