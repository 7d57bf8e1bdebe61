import { describe, expect, it } from "vitest";
import { unknownVariables } from "./render";
import { fillTemplate, templateShape, templateSummary } from "./whatsapp-rule";

const vars = { first_name: "Joana", order_number: "101", total: "R$\u00a0149,90", tracking_code: "", store: "Loja\n da  Joana" };

describe("a WhatsApp rule's template (ADR 072)", () => {
  it("fills each parameter with the order's values on one line, keeps the no-break space of the total, and never sends an empty one", () => {
    const t = { name: "pago", language: "pt_BR", variables: ["{{first_name}}", "Pedido {{order_number}} ({{total}})", "{{tracking_code}}", "{{store}}"] };
    expect(fillTemplate(t, vars)).toEqual({ name: "pago", language: "pt_BR", variables: ["Joana", "Pedido 101 (R$\u00a0149,90)", "-", "Loja da Joana"] });
    expect(templateSummary(t, vars)).toBe("pago (pt_BR): Joana · Pedido 101 (R$\u00a0149,90) · - · Loja da Joana");
    expect(fillTemplate({ ...t, variables: [], header_variable: "{{store}}", button_variable: "{{order_number}}" }, vars)).toMatchObject({
      header_variable: "Loja da Joana",
      button_variable: "101",
    });
  });

  it("reads a template's parameters as the send does: body variables, a text header's, a URL button's", () => {
    expect(
      templateShape([
        { type: "HEADER", format: "TEXT", text: "Pedido {{1}}" },
        { type: "BODY", text: "Oi {{1}}, pedido {{2}}." },
        { type: "BUTTONS", buttons: [{ type: "URL", url: "https://loja.example/p/{{1}}" }] },
      ]),
    ).toEqual({ body: "Oi {{1}}, pedido {{2}}.", variables: 2, header_variable: true, button_variable: true });
    expect(
      templateShape([
        { type: "HEADER", format: "IMAGE" },
        { type: "BODY", text: "Sem variáveis" },
      ]),
    ).toEqual({
      body: "Sem variáveis",
      variables: 0,
      header_variable: false,
      button_variable: false,
    });
    expect(templateShape(null)).toMatchObject({ body: "", variables: 0 });
  });

  it("names the placeholders that are none of the order's variables", () => {
    expect(unknownVariables("{{first_name}} {{ order_number }} {{nome}} {{1}}")).toEqual(["nome", "1"]);
    expect(unknownVariables("Pedido {{order_number}}")).toEqual([]);
  });
});
