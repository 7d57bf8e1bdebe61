import { describe, expect, it } from "vitest";
import { cleanEmail, cleanWebsite, formatPhone, normalizePhone, splitName } from "./phone";

describe("phone numbers", () => {
  it("assumes +55 for 10 or 11 digits and stores E.164", () => {
    expect(normalizePhone("(11) 91234-5678")).toBe("+5511912345678");
    expect(normalizePhone("11912345678")).toBe("+5511912345678");
    expect(normalizePhone("1133334444")).toBe("+551133334444");
    expect(normalizePhone("5511912345678")).toBe("+5511912345678");
    expect(normalizePhone("+55 21 98765-4321")).toBe("+5521987654321");
    expect(normalizePhone("+1 415 555 2671")).toBe("+14155552671");
  });

  it("refuses what is not a phone number", () => {
    for (const bad of ["", "abc", "123", "0000000000", "999999999999999999", "+55 11 1234"]) expect(normalizePhone(bad), bad).toBeNull();
  });

  it("shows Brazilian numbers with the national mask (no leading 55), others internationally", () => {
    expect(formatPhone("+5511912345678")).toBe("(11) 91234-5678");
    expect(formatPhone("+14155552671")).toBe("+1 415 555 2671");
  });

  it("splits a single name at the first space", () => {
    expect(splitName("Maria da Silva")).toEqual({ firstName: "Maria", lastName: "da Silva" });
    expect(splitName("  Cher ")).toEqual({ firstName: "Cher", lastName: null });
    expect(splitName("")).toEqual({ firstName: null, lastName: null });
  });

  it("uses an e-mail only when it contains @", () => {
    expect(cleanEmail(" Ana@Exemplo.com ")).toBe("ana@exemplo.com");
    expect(cleanEmail("sem-arroba")).toBeNull();
  });
});

describe("websites", () => {
  it("keeps http(s) addresses and reads a bare host as https", () => {
    expect(cleanWebsite("https://loja.example/a?b=1")).toBe("https://loja.example/a?b=1");
    expect(cleanWebsite(" http://loja.example ")).toBe("http://loja.example");
    expect(cleanWebsite("www.loja.com.br")).toBe("https://www.loja.com.br");
  });

  it("refuses every other scheme and what is not an address", () => {
    for (const bad of [
      "javascript:alert(1)",
      "JavaScript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "ftp://loja.example",
      "vbscript:x",
      "file:///etc/passwd",
      "loja",
      "https://",
    ]) {
      expect(cleanWebsite(bad), bad).toBeNull();
    }
  });
});
