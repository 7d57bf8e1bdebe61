import { describe, expect, it } from "vitest";
import { checkFlow } from "./definition";
import { FLOW_TEMPLATE_IDS, flowTemplate, flowTemplates, isFlowTemplate } from "./templates";

describe("flow templates (issue 20)", () => {
  for (const id of FLOW_TEMPLATE_IDS) {
    for (const locale of ["pt-BR", "en", "es", "zh"]) {
      it(`${id} in ${locale} passes checkFlow`, () => {
        const r = checkFlow(flowTemplate(id, locale));
        expect(r.ok ? [] : r.issues).toEqual([]);
      });
    }
  }

  it("texts follow the locale, pt-BR for any other; the gallery lists each once", () => {
    const text = (l?: string) => (flowTemplate("welcome", l).nodes.find((n) => n.id === "greet")!.data as { text: string }).text;
    expect(text("en")).toBe("Hi! Glad to have you here.");
    expect(text("fr")).toBe(text("pt-BR"));
    expect(text(undefined)).toBe(text("pt-BR"));
    expect(flowTemplates().map((t) => t.id)).toEqual([...FLOW_TEMPLATE_IDS]);
    expect(isFlowTemplate("faq")).toBe(true);
    expect(isFlowTemplate("nope")).toBe(false);
  });

  it("the lead template stores name, e-mail and phone in contact fields and tags the contact; order status calls an editable https URL with an error path", () => {
    const lead = flowTemplate("lead");
    expect(lead.nodes.filter((n) => n.type === "question").map((n) => (n.data as { store: { kind: string; name: string } }).store)).toEqual([
      { kind: "field", name: "first_name" },
      { kind: "field", name: "email" },
      { kind: "field", name: "phone" },
    ]);
    expect(lead.nodes.some((n) => n.type === "action")).toBe(true);
    const order = flowTemplate("order_status");
    expect(order.edges.some((e) => e.source === "lookup" && e.output === "error")).toBe(true);
  });
});
