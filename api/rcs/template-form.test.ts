import { describe, expect, it } from "vitest";
import { agentRequestSchema, agentReviewSchema, CONTENT_TYPES } from "./agent-schema";
import { type RcsContent, RCS_TYPES } from "./content";
import { contentToForm, formToContent, templateFormSchema } from "./template-form";

const issues = (r: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) =>
  Object.fromEntries((r.error?.issues ?? []).map((i) => [i.path.join("."), i.message]));

describe("the RCS template editor's form", () => {
  it("offers exactly the content's types", () => {
    expect([...CONTENT_TYPES]).toEqual([...RCS_TYPES]);
  });

  it("turns filled slots into the content and drops empty ones", () => {
    const content = formToContent({
      type: "card-carousel",
      suggestions: [{ type: "url", text: "Site", value: "https://loja.example" }, { type: "reply" }],
      images: [
        { title: "A", uri: "https://cdn.example/a.jpg", suggestions: [{ type: "dial", text: "Ligar", value: "+5511999990000" }, { type: "reply" }] },
        { title: "B" },
        { suggestions: [{ type: "reply" }] },
      ],
    });
    expect(content).toMatchObject({
      type: "card-carousel",
      suggestions: [{ type: "url", text: "Site", url: "https://loja.example" }],
      images: [
        { title: "A", uri: "https://cdn.example/a.jpg", suggestions: [{ type: "dial", text: "Ligar", phoneNumber: "+5511999990000" }] },
        { title: "B", suggestions: [] },
      ],
    });
  });

  it("names the slot's field of a refusal, and a JSON that does not parse", () => {
    const bad = templateFormSchema.safeParse({ name: "x", type: "card-carousel", images: [{ title: "A" }] });
    expect(issues(bad)).toEqual({ images: "validation.rcsCardsMin::2" });
    const badUrl = templateFormSchema.safeParse({ name: "x", type: "link", messageText: "Oi", suggestions: [{ type: "url", text: "Site", value: "ftp://x" }] });
    expect(issues(badUrl)).toMatchObject({ "suggestions.0.url": "validation.httpUrl" });
    expect(issues(templateFormSchema.safeParse({ name: "x", json: "{nope" }))).toEqual({ json: "rcs.templates.errors.json" });
    const viaJson = templateFormSchema.safeParse({ name: "x", type: "text", json: JSON.stringify({ type: "text", messageText: "Olá" }) });
    expect(viaJson.success && viaJson.data.content).toEqual({ type: "text", messageText: "Olá" });
  });

  it("shows a stored content in the slots, or as JSON when the slots cannot hold it", () => {
    expect(contentToForm({ type: "link", messageText: "Oi", suggestions: [{ type: "url", text: "Site", url: "https://a.example" }] } as RcsContent)).toMatchObject({
      suggestions: [{ type: "url", text: "Site", value: "https://a.example" }],
      json: "",
    });
    const located = contentToForm({ type: "text", messageText: "Oi", suggestions: [{ type: "location", text: "Onde" }] } as RcsContent);
    expect(JSON.parse(located.json as string)).toEqual({ type: "text", messageText: "Oi", suggestions: [{ type: "location", text: "Onde" }] });
  });
});

describe("the RCS agent's schemas", () => {
  const agent = {
    name: "Loja",
    logo_url: "https://cdn.example/logo.png",
    banner_url: "https://cdn.example/banner.jpg",
    color: "#112233",
    phone: "(11) 3456-7890",
    website: "https://loja.example",
    email: "",
    privacy_url: "https://loja.example/p",
    terms_url: "https://loja.example/t",
  };
  it("takes a brand with https image links and a Brazilian phone as typed", () => {
    const r = agentRequestSchema.safeParse(agent);
    expect(r.success && r.data.phone).toBe("+551134567890");
  });
  it("refuses non-image logos, http pages, bad colors", () => {
    const r = agentRequestSchema.safeParse({
      ...agent,
      logo_url: "https://cdn.example/logo.svg",
      banner_url: "https://127.0.0.1/b.png",
      website: "http://loja.example",
      color: "red",
    });
    expect(issues(r)).toEqual({
      logo_url: "rcs.agents.errors.imageUrl",
      banner_url: "rcs.agents.errors.imageUrl",
      website: "validation.httpsUrl",
      color: "validation.color",
    });
  });
  it("a review's Google id looks like one", () => {
    expect(agentReviewSchema.safeParse({ status: "launched", rbm_agent_id: "loja@rbm.goog" }).success).toBe(true);
    expect(issues(agentReviewSchema.safeParse({ status: "launched", rbm_agent_id: "Loja@gmail.com" }))).toEqual({ rbm_agent_id: "rcs.agents.errors.rbmAgentId" });
  });
});
