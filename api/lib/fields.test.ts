import { describe, expect, it } from "vitest";
import { email, flag, flagOr, isEmail, requiredText, text } from "./fields";
import { z } from "./zod";

const issues = (schema: z.ZodType, value: unknown) => {
  const r = schema.safeParse(value);
  return r.success ? [] : r.error.issues.map((i) => i.message);
};

describe("flag", () => {
  it("reads what a checkbox or a JSON client sends for yes", () => {
    for (const v of [true, "true", "on", "1"]) expect(flag.parse(v)).toBe(true);
  });
  it("reads no from false, off, 0, blank, null, absent and any other string", () => {
    for (const v of [false, "false", "off", "0", "", null, undefined, "yes", "TRUE"]) expect(flag.parse(v)).toBe(false);
    expect(z.object({ f: flag }).parse({})).toEqual({ f: false });
  });
  it("refuses what is neither a boolean nor a string", () => {
    expect(flag.safeParse(1).success).toBe(false);
  });
  it("flagOr answers its value when absent, and reads the rest like flag", () => {
    expect(z.object({ f: flagOr(true) }).parse({})).toEqual({ f: true });
    expect(z.object({ f: flagOr(undefined) }).parse({})).toEqual({});
    expect(flagOr(true).parse(null)).toBe(false);
    expect(flagOr(true).parse("off")).toBe(false);
    expect(flagOr(false).parse("on")).toBe(true);
  });
});

describe("text(max)", () => {
  it("trims, and blank, null or absent is null (or the empty value given)", () => {
    expect(text(10).parse("  ana ")).toBe("ana");
    for (const v of ["", "   ", null, undefined]) {
      expect(text(10).parse(v)).toBeNull();
      expect(text(10, "").parse(v)).toBe("");
      expect(text(10, undefined).parse(v)).toBeUndefined();
    }
  });
  it("refuses more than max characters after trimming, with the maxLength key", () => {
    expect(text(3).parse(" abc ")).toBe("abc");
    expect(issues(text(3), "abcd")).toEqual(["validation.maxLength::3"]);
    expect(issues(text(3, ""), "abcd")).toEqual(["validation.maxLength::3"]);
  });
  it("requiredText: blank is required, long is maxLength, further checks chain", () => {
    expect(requiredText(5).parse(" ab ")).toBe("ab");
    expect(issues(requiredText(5), "  ")).toEqual(["validation.required"]);
    expect(issues(requiredText(5), undefined)).toEqual(["validation.required"]);
    expect(issues(requiredText(5), "abcdef")).toEqual(["validation.maxLength::5"]);
    expect(issues(requiredText(5).regex(/^\d+$/, "x.digits"), "ab")).toEqual(["x.digits"]);
  });
});

describe("the e-mail rule", () => {
  it("email trims and lower-cases a valid address", () => {
    expect(email.parse("  Ana@Exemplo.COM.br ")).toBe("ana@exemplo.com.br");
  });
  it("email: blank is required, invalid is validation.email, over 254 is maxLength", () => {
    expect(issues(email, " ")[0]).toBe("validation.required");
    expect(issues(email, "joao@")).toEqual(["validation.email"]);
    expect(issues(email, `${"a".repeat(250)}@x.com`)).toContain("validation.maxLength::254");
  });
  it("isEmail is the same rule", () => {
    for (const v of ["a@b.co", "a+b@x.io", "o'neil@x.com.br", "sa@proj.iam.gserviceaccount.com"]) expect([v, isEmail(v)]).toEqual([v, true]);
    for (const v of ["joao@", "a@b", "a b@x.com", "@x.com", "a@b.c"]) expect([v, isEmail(v)]).toEqual([v, false]);
  });
});
