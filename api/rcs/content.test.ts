import { describe, expect, it } from "vitest";
import { validate } from "../lib/validate";
import { plainText, priceClass, rcsContentSchema, rcsMediaLink, toRbm } from "./content";

const parse = (c: unknown) => validate(rcsContentSchema, c);

describe("RCS content", () => {
  it("prices a plain text under 160 characters (counted as the handset does, emoji as one) basic, and 160, suggestions or rich content rich", () => {
    expect(priceClass(parse({ type: "text", messageText: "😀".repeat(159) }))).toBe("basic");
    expect(priceClass(parse({ type: "text", messageText: "😀".repeat(160) }))).toBe("rich");
    expect(priceClass(parse({ type: "text", messageText: "Oi", suggestions: [{ type: "reply", text: "Sim" }] }))).toBe("rich");
    expect(priceClass(parse({ type: "card", messageText: "Oi" }))).toBe("rich");
  });

  it("takes media links of the spec's file types only, https and public", () => {
    expect(rcsMediaLink("https://cdn.example/a/b.JPG?x=1")).toBe(true);
    expect(rcsMediaLink("https://cdn.example/video.webm")).toBe(true);
    expect(rcsMediaLink("https://cdn.example/a.bmp")).toBe(false);
    expect(rcsMediaLink("http://cdn.example/a.jpg")).toBe(false);
    expect(rcsMediaLink("https://10.0.0.1/a.jpg")).toBe(false);
  });

  it("makes RBM's contentMessages: a carousel's cards with media and buttons, chips on the last part, a media with caption in two parts", () => {
    const carousel = parse({
      type: "card-carousel",
      images: [
        { uri: "https://cdn.example/1.jpg", title: "Um", suggestions: [{ type: "url", text: "Ver", url: "https://loja.example/1" }] },
        { title: "Dois", description: "Sem foto" },
      ],
      suggestions: [{ type: "calendar", text: "Agendar", title: "Visita", startTime: "2026-12-01T13:00:00Z", endTime: "2026-12-01T14:00:00Z" }],
    });
    expect(toRbm(carousel)).toEqual([
      {
        richCard: {
          carouselCard: {
            cardWidth: "MEDIUM",
            cardContents: [
              {
                title: "Um",
                media: { height: "MEDIUM", contentInfo: { fileUrl: "https://cdn.example/1.jpg", forceRefresh: false } },
                suggestions: [{ action: { text: "Ver", postbackData: "Ver", openUrlAction: { url: "https://loja.example/1" } } }],
              },
              { title: "Dois", description: "Sem foto" },
            ],
          },
        },
        suggestions: [
          {
            action: {
              text: "Agendar",
              postbackData: "Agendar",
              createCalendarEventAction: { startTime: "2026-12-01T13:00:00Z", endTime: "2026-12-01T14:00:00Z", title: "Visita" },
            },
          },
        ],
      },
    ]);
    expect(plainText(carousel)).toBe("Um\nhttps://loja.example/1\nhttps://cdn.example/1.jpg\nDois — Sem foto");
    const media = parse({ type: "midia", fileUrl: "https://cdn.example/c.pdf", messageText: "Catálogo", suggestions: [{ type: "location", text: "Onde?" }] });
    expect(toRbm(media)).toEqual([
      { contentInfo: { fileUrl: "https://cdn.example/c.pdf", forceRefresh: false } },
      { text: "Catálogo", suggestions: [{ action: { text: "Onde?", postbackData: "Onde?", shareLocationAction: {} } }] },
    ]);
  });

  it("needs at least two cards in a carousel and a label of at most 25 characters", () => {
    expect(() => parse({ type: "card-carousel", images: [{ title: "Só um" }] })).toThrow();
    expect(() => parse({ type: "text", messageText: "Oi", suggestions: [{ type: "reply", text: "x".repeat(26) }] })).toThrow();
  });
});
