import { describe, expect, it } from "vitest";
import { displayNameIssue, displayNameRelated, numberRequestSchema } from "./request-schema";

const good = {
  legal_name: "Padaria Pão Quente Ltda",
  cnpj: "11.222.333/0001-81",
  website: "https://paoquente.com.br",
  email: "Contato@PaoQuente.com.br",
  business_phone: "(11) 3456-7890",
  address: "Rua das Flores, 10 - São Paulo",
  display_name: "  Pão   Quente ",
  vertical: "RESTAURANT",
  phone_number: "+55 11 91234-5678",
  integration: "cloud",
  description: "Padaria de bairro",
};
const fieldErrors = (input: Record<string, unknown>) => {
  const r = numberRequestSchema.safeParse(input);
  if (r.success) return {};
  const out: Record<string, string[]> = {};
  for (const i of r.error.issues) (out[i.path.join(".")] ??= []).push(i.message);
  return out;
};

describe("numberRequestSchema", () => {
  it("normalizes what a person typed: CNPJ without mask, phones in E.164, e-mail lower-cased, spaces of the display name collapsed", () => {
    const v = numberRequestSchema.parse(good);
    expect(v).toMatchObject({
      cnpj: "11222333000181",
      business_phone: "+551134567890",
      phone_number: "+5511912345678",
      email: "contato@paoquente.com.br",
      display_name: "Pão Quente",
      integration: "cloud",
    });
    // Parsed once by the form, it validates again in the use-case unchanged.
    expect(numberRequestSchema.parse(v)).toEqual(v);
  });

  it("optional fields may be blank; integration defaults to cloud", () => {
    const { website: _w, address: _a, description: _d, integration: _i, ...rest } = good;
    expect(numberRequestSchema.parse({ ...rest, website: "", address: "" })).toMatchObject({ website: null, address: null, description: null, integration: "cloud" });
  });

  it("names each wrong field", () => {
    expect(
      fieldErrors({
        ...good,
        legal_name: "",
        cnpj: "11.222.333/0001-80",
        website: "http://paoquente.com.br",
        email: "contato@",
        business_phone: "123",
        display_name: "PQ",
        vertical: "BAKERY",
        phone_number: "abc",
        integration: "telegram",
      }),
    ).toEqual({
      legal_name: ["validation.required"],
      cnpj: ["validation.cnpj"],
      website: ["validation.httpsUrl"],
      email: ["validation.email"],
      business_phone: ["validation.phone"],
      display_name: ["validation.minLength::3"],
      vertical: ["validation.option"],
      phone_number: ["validation.phone"],
      integration: ["validation.option"],
    });
  });

  it("a display name breaking a rule gets that rule's message alone, even when the rest is right", () => {
    expect(fieldErrors({ ...good, display_name: "PQ" })).toEqual({ display_name: ["validation.minLength::3"] });
    expect(fieldErrors({ ...good, display_name: "Sabor Divino 🍞" })).toEqual({ display_name: ["validation.waDisplayNameEmoji"] });
    expect(fieldErrors({ ...good, display_name: "" })).toEqual({ display_name: ["validation.required"] });
    expect(fieldErrors({ ...good, legal_name: "" })).toEqual({ legal_name: ["validation.required"] });
  });

  it("a display name unrelated to the business is refused on display_name", () => {
    expect(fieldErrors({ ...good, display_name: "Sabor Divino" })).toEqual({ display_name: ["validation.waDisplayNameRelated"] });
    expect(fieldErrors({ ...good, display_name: "Sabor Divino", description: "Sabor Divino é a marca da Padaria Pão Quente" })).toEqual({});
  });
});

describe("Meta's display name rules", () => {
  it("refuses emoji, web addresses, symbols, names without letters, WhatsApp, repeated punctuation and capitals only", () => {
    const cases: Array<[string, string]> = [
      ["Pão Quente 🍞", "validation.waDisplayNameEmoji"],
      ["🍞🍞🍞", "validation.waDisplayNameEmoji"],
      ["Pão Quente 🇧🇷", "validation.waDisplayNameEmoji"],
      ["paoquente.com.br", "validation.waDisplayNameUrl"],
      ["www.paoquente", "validation.waDisplayNameUrl"],
      ["https://paoquente", "validation.waDisplayNameUrl"],
      ["Pão Quente™", "validation.waDisplayNameSymbols"],
      ["12345", "validation.waDisplayNameLetters"],
      ["Pão Quente WhatsApp", "validation.waDisplayNameWhatsapp"],
      ["Pão Quente!!", "validation.waDisplayNamePunctuation"],
      ["PADARIA PÃO QUENTE", "validation.waDisplayNameCaps"],
    ];
    for (const [name, key] of cases) expect(displayNameIssue(name), name).toBe(key);
  });

  it("accepts ordinary names, acronyms and a department", () => {
    for (const name of ["Pão Quente", "BB DTVM", "IBM", "Pão Quente - Atendimento", "Dr. Silva Clínica", "Loja 25"]) expect(displayNameIssue(name), name).toBeNull();
  });

  it("relates a name by a word of the legal name, the website's host, the description or the legal name's initials", () => {
    expect(displayNameRelated("Pão Quente", { legal_name: "PADARIA PAO QUENTE LTDA" })).toBe(true);
    expect(displayNameRelated("Magalu", { legal_name: "Magazine Luiza S.A.", website: "https://www.magalu.com.br" })).toBe(true);
    expect(displayNameRelated("BB", { legal_name: "Banco do Brasil S.A." })).toBe(true);
    expect(displayNameRelated("Outra Coisa", { legal_name: "Banco do Brasil S.A." })).toBe(false);
    expect(displayNameRelated("The Store", { legal_name: "The Store Company" })).toBe(true);
    expect(displayNameRelated("The And", { legal_name: "The And Company" })).toBe(false);
  });
});
