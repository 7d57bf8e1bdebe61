import { describe, expect, it } from "vitest";
import { columnVariable, parseTemplate, renderTemplate, templateVariables } from "./template-vars";

describe("template variables", () => {
  it("finds {{name}} placeholders, with optional spaces, in order and once each", () => {
    expect(templateVariables("Olá {{first_name}}, seu código é {{ code }}. Até logo {{first_name}}!")).toEqual(["first_name", "code"]);
    expect(parseTemplate("a{{x}}b{{y}}")).toEqual({ texts: ["a", "b", ""], vars: ["x", "y"] });
    expect(parseTemplate("sem variáveis")).toEqual({ texts: ["sem variáveis"], vars: [] });
  });

  it("treats anything that is not {{letters/digits/_}} as plain text", () => {
    expect(templateVariables("{x} {{}} {{two words}} {{ç}} {{a-b}} {{{y}}")).toEqual(["y"]);
    expect(renderTemplate("{x} {{}} {{two words}}").text).toBe("{x} {{}} {{two words}}");
    expect(templateVariables(`{{${"a".repeat(41)}}}`)).toEqual([]);
  });

  it("renders from the first source that has a non-blank value", () => {
    expect(renderTemplate("Oi {{nome}}, {{n}} itens", { nome: "Ana" }, { nome: "X", n: 3 })).toEqual({ text: "Oi Ana, 3 itens", missing: null });
    expect(renderTemplate("Oi {{nome}}", { nome: "  " }, { nome: "Bia" }).text).toBe("Oi Bia");
    expect(renderTemplate("{{a}}{{a}}", { a: "$&" }).text).toBe("$&$&");
  });

  it("names the first variable nobody gives", () => {
    expect(renderTemplate("Oi {{nome}}, {{codigo}}", { nome: "Ana" })).toEqual({ text: null, missing: "codigo" });
    expect(renderTemplate("{{x}}", null, undefined, { x: null })).toEqual({ text: null, missing: "x" });
    expect(renderTemplate("{{Nome}}", { nome: "a" }).missing).toBe("Nome");
  });

  it("turns CSV headers into variable names", () => {
    expect(columnVariable(" Nome do Cliente ")).toBe("nome_do_cliente");
    expect(columnVariable("Código")).toBe("codigo");
    expect(columnVariable("valor (R$)")).toBe("valor_r");
  });
});
