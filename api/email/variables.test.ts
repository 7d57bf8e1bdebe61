import { describe, expect, it } from "vitest";
import { escapeHtml, fillParts, fillVariables, partsVariables } from "./variables";

describe("fillVariables", () => {
  it("fills each {{variable}} from the first source that gives it, blanks as missing, missing as empty", () => {
    expect(fillVariables("Oi {{first_name}}, {{ city }}!{{x}}", [{ first_name: " ", city: "Recife" }, { first_name: "Ana" }])).toBe("Oi Ana, Recife!");
    expect(fillVariables("{{n}} {{b}}", { n: 3, b: false })).toBe("3 false");
    expect(fillVariables("{{two words}} {single}", {})).toBe("{{two words}} {single}");
  });

  it("escapes values in HTML, never the template itself", () => {
    expect(fillVariables('<a href="{{u}}">{{n}}</a>', { u: '"><script>', n: "Zé & <b>" }, { html: true })).toBe('<a href="&quot;&gt;&lt;script&gt;">Zé &amp; &lt;b&gt;</a>');
    expect(escapeHtml(`'`)).toBe("&#39;");
  });

  it("a header is one line: line breaks and control characters in values (and the result) become spaces", () => {
    expect(fillVariables("Pedido {{id}}", { id: "1\r\nBcc: x@example.com\u0000" }, { header: true })).toBe("Pedido 1 Bcc: x@example.com");
    expect(fillVariables("{{a}}", { a: "\u2028x\n" }, { header: true })).toBe("x");
  });
});

describe("fillParts / partsVariables", () => {
  it("fills subject as a header, HTML escaped and text as is", () => {
    expect(fillParts({ subject: "Oi {{n}}", html: "<p>{{n}}</p>", text: "{{n}}" }, { n: "<a>\nb" })).toEqual({ subject: "Oi <a> b", html: "<p>&lt;a&gt;\nb</p>", text: "<a>\nb" });
    expect(fillParts({ subject: "x", html: "y", text: null }, {}).text).toBeNull();
  });
  it("lists the variables of all parts once, in order", () => {
    expect(partsVariables("{{a}} {{b}}", "<p>{{b}}{{c}}</p>", null)).toEqual(["a", "b", "c"]);
  });
});
