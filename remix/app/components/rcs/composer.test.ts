/** The RCS composer's form model: posted slots to the spec's content, errors back to their inputs, and the price class it shows equal to the send's. */
import { describe, expect, it } from "vitest";
import { priceClass, rcsContentSchema } from "~api/rcs/content";
import { contentOf, errorFieldsToInputs, previewPriceClass, stateFromContent, stateFromForm } from "./composer";

const form = (o: Record<string, string>) => Object.entries(o);

describe("the RCS composer's form", () => {
  it("drops empty card and suggestion slots and maps the send's errors back to the slot they came from", () => {
    const s = stateFromForm(
      form({
        agent_id: "a",
        to: "+5511999990000",
        fallback_sms: "on",
        "content.type": "card-carousel",
        "content.messageText": "not a carousel's field",
        "content.images.0.title": "",
        "content.images.1.title": "Tênis",
        "content.images.1.uri": "https://loja.example/t.jpg",
        "content.images.1.suggestions.0.type": "reply",
        "content.images.1.suggestions.0.text": "",
        "content.images.1.suggestions.2.type": "url",
        "content.images.1.suggestions.2.text": "Comprar",
        "content.images.1.suggestions.2.url": "https://loja.example/t",
        "content.images.4.title": "Bota",
        "content.suggestions.3.type": "calendar",
        "content.suggestions.3.text": "Agendar",
        "content.suggestions.3.title": "Visita",
        "content.suggestions.3.startTime": "2026-12-01T10:00",
        "content.suggestions.3.endTime": "2026-12-01T11:00",
      }),
    );
    expect(s.fallback_sms).toBe(true);
    const { content, slots } = contentOf(s);
    expect(content.images).toEqual([
      { uri: "https://loja.example/t.jpg", title: "Tênis", suggestions: [{ type: "url", text: "Comprar", url: "https://loja.example/t" }] },
      { title: "Bota" },
    ]);
    expect(content.suggestions).toEqual([{ type: "calendar", text: "Agendar", title: "Visita", startTime: "2026-12-01T10:00:00-03:00", endTime: "2026-12-01T11:00:00-03:00" }]);
    expect(slots).toEqual({ suggestions: [3], cards: [1, 4], cardButtons: [[2], []] });
    expect(rcsContentSchema.safeParse(content).success).toBe(true);
    expect(errorFieldsToInputs({ "content.images.1.title": ["x"], "content.images.0.suggestions.0.url": ["y"], "content.suggestions.0.text": ["z"], to: ["w"] }, slots)).toEqual({
      "content.images.4.title": ["x"],
      "content.images.1.suggestions.2.url": ["y"],
      "content.suggestions.3.text": ["z"],
      to: ["w"],
    });
    // A saved content loads back as the same content.
    expect(contentOf(stateFromContent(content)).content).toEqual(content);
  });

  it("reads more slots than it renders (the send refuses them, naming the rule)", () => {
    const fields: Record<string, string> = { "content.type": "card-carousel" };
    for (let i = 0; i < 11; i++) fields[`content.images.${i}.title`] = `Card ${i}`;
    expect((contentOf(stateFromForm(form(fields))).content.images as unknown[]).length).toBe(11);
  });

  it("shows the price class the send charges by", () => {
    const samples = [
      { type: "text", messageText: "a".repeat(159) },
      { type: "text", messageText: "a".repeat(160) },
      { type: "text", messageText: ` ${"é".repeat(159)} ` },
      { type: "text", messageText: "Oi", suggestions: [{ type: "reply", text: "Sim" }] },
      { type: "link", messageText: "Oi", suggestions: [{ type: "url", text: "Abrir", url: "https://a.example" }] },
      { type: "midia", fileUrl: "https://a.example/x.pdf" },
      { type: "card", messageText: "T" },
    ];
    for (const c of samples) expect(previewPriceClass(c), JSON.stringify(c)).toBe(priceClass(rcsContentSchema.parse(c)));
  });
});
