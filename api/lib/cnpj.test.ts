import { describe, expect, it } from "vitest";
import { cleanCnpj, formatCnpj, isValidCnpj } from "./cnpj";

describe("CNPJ", () => {
  it("accepts a CNPJ with right check digits, masked or not", () => {
    for (const v of ["11.222.333/0001-81", "11222333000181", " 11 222 333 0001 81 ", "33.000.167/0001-01"]) expect(isValidCnpj(v), v).toBe(true);
  });

  it("refuses a wrong check digit, a wrong length, letters in the check digits and a repeated digit", () => {
    for (const v of ["11.222.333/0001-80", "11.222.333/0001-18", "1122233300018", "112223330001811", "112223330001AB", "00.000.000/0000-00", "11111111111111", ""])
      expect(isValidCnpj(v), v).toBe(false);
  });

  it("checks the alphanumeric CNPJ of the Receita Federal (letters count as their ASCII code minus 48)", () => {
    expect(isValidCnpj("12.ABC.345/01DE-35")).toBe(true);
    expect(isValidCnpj("12abc34501de35")).toBe(true);
    expect(isValidCnpj("12.ABC.345/01DE-36")).toBe(false);
  });

  it("cleans and formats", () => {
    expect(cleanCnpj("12.abc.345/01de-35")).toBe("12ABC34501DE35");
    expect(formatCnpj("11222333000181")).toBe("11.222.333/0001-81");
    expect(formatCnpj("123")).toBe("123");
  });
});
