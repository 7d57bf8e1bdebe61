import { describe, expect, it } from "vitest";
import { cellToE164, e164Problem } from "./number";

describe("lookup numbers", () => {
  it("names what is wrong with an API number", () => {
    expect(e164Problem("+5511987654321")).toBeNull();
    expect(e164Problem("")).toBe("required");
    expect(e164Problem("5511987654321")).toBe("e164Plus");
    expect(e164Problem("+55 11 98765-4321")).toBe("e164Digits");
    expect(e164Problem("+0511987654321")).toBe("e164Length");
    expect(e164Problem("+5511")).toBe("e164Length");
  });

  it("reads a CSV cell like the contact import: masks dropped, +55 for 10 or 11 digits", () => {
    expect(cellToE164("(11) 98765-4321")).toBe("+5511987654321");
    expect(cellToE164("1133334444")).toBe("+551133334444");
    expect(cellToE164("5511987654321")).toBe("+5511987654321");
    expect(cellToE164("+351 912 345 678")).toBe("+351912345678");
    expect(cellToE164("0055 11 98765-4321")).toBe("+5511987654321");
    expect(cellToE164("abc")).toBeNull();
    expect(cellToE164("123")).toBeNull();
    expect(cellToE164("")).toBeNull();
  });
});
