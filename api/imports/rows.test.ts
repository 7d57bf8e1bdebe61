import { describe, expect, it } from "vitest";
import { headerNames, detectDelimiter } from "./files";
import { headerKey, suggestMapping } from "./mapping";
import { arrayLiteral, copyText, customValue, parseDate, parseGender, parseTags, RowBuilder, stagingColumns } from "./rows";
import { progressPercent } from "./services";

describe("import mapping suggestions", () => {
  it("recognises pt-BR and English headers whatever their case and accents", () => {
    expect(headerKey("  Data de Nascimento ")).toBe("data de nascimento");
    expect(headerKey("E-MAIL")).toBe("e mail");
    expect(suggestMapping(["Celular", "Nome", "E-mail", "Endereço", "Número", "CEP", "Gênero", "Etiquetas", "Qualquer coisa"], [])).toEqual({
      Celular: "mobile_number",
      Nome: "name",
      "E-mail": "email",
      Endereço: "address",
      Número: "number",
      CEP: "zip",
      Gênero: "gender",
      Etiquetas: "tags",
      "Qualquer coisa": "",
    });
    expect(suggestMapping(["Mobile Number", "Name", "Company", "Zip"], [])).toEqual({ "Mobile Number": "mobile_number", Name: "name", Company: "company", Zip: "zip" });
    expect(suggestMapping(["mobile_number", "first_name", "last_name"], [])).toEqual({ mobile_number: "mobile_number", first_name: "first_name", last_name: "last_name" });
    expect(suggestMapping(["WhatsApp", "Telefone"], [])).toEqual({ WhatsApp: "mobile_number", Telefone: "phone" });
  });

  it("splits Nome/Sobrenome, takes each field once, finds custom fields and mobile columns under other names", () => {
    expect(suggestMapping(["Nome", "Sobrenome", "Celular", "Celular 2"], [])).toEqual({ Nome: "first_name", Sobrenome: "last_name", Celular: "mobile_number", "Celular 2": "" });
    expect(
      suggestMapping(
        ["Plano", "cpf", "Celular do cliente"],
        [
          { key: "plano", label: "Plano contratado" },
          { key: "cpf", label: "CPF" },
        ],
      ),
    ).toEqual({
      Plano: "custom:plano",
      cpf: "custom:cpf",
      "Celular do cliente": "mobile_number",
    });
  });

  it("names headers for the mapping: trimmed, blanks by position, repeats numbered", () => {
    expect(headerNames(["\ufeffNome ", "", "Celular", "celular"])).toEqual(["Nome", "#2", "Celular", "celular (2)"]);
    expect(detectDelimiter("Nome;Celular;Cidade")).toBe(";");
    expect(detectDelimiter('"Sobrenome; Nome",Celular')).toBe(",");
  });
});

describe("import row rules", () => {
  it("reads Brazilian and ISO dates against the calendar", () => {
    expect(parseDate("25/12/1980")).toBe("1980-12-25");
    expect(parseDate("5/3/1990")).toBe("1990-03-05");
    expect(parseDate("1990-03-05")).toBe("1990-03-05");
    expect(parseDate("29/02/2024")).toBe("2024-02-29");
    for (const bad of ["31/02/1990", "29/02/2023", "13/13/2000", "1990-13-01", "ontem", "12/2020"]) expect(parseDate(bad), bad).toBeNull();
  });

  it("reads gender words and tags", () => {
    expect(["Masculino", "m", "MALE", "homem"].map(parseGender)).toEqual(["male", "male", "male", "male"]);
    expect(["Feminino", "F", "female", "Mulher"].map(parseGender)).toEqual(["female", "female", "female", "female"]);
    expect(["Não informado", "outro"].map(parseGender)).toEqual(["undisclosed", "undisclosed"]);
    expect(parseGender("talvez")).toBeNull();
    expect(parseTags(" VIP, atacado;vip ,, ")).toEqual(["vip", "atacado"]);
  });

  it("types custom values by their field", () => {
    expect(customValue({ key: "n", type: "number", options: [] }, "1.234")).toBe(1.234);
    expect(customValue({ key: "n", type: "number", options: [] }, "12,5")).toBe(12.5);
    expect(customValue({ key: "n", type: "number", options: [] }, "doze")).toBeNull();
    expect(customValue({ key: "d", type: "date", options: [] }, "01/02/2003")).toBe("2003-02-01");
    expect(customValue({ key: "l", type: "list", options: ["Ouro", "Prata"] }, "OURO")).toBe("Ouro");
    expect(customValue({ key: "l", type: "list", options: ["Ouro", "Prata"] }, "Bronze")).toBeNull();
  });

  it("escapes COPY text and array literals", () => {
    expect(copyText(null)).toBe("\\N");
    expect(copyText("a\tb\nc\\d\re")).toBe("a\\tb\\nc\\\\d\\re");
    expect(arrayLiteral(['a"b', "c\\d", "e,f"])).toBe('{"a\\"b","c\\\\d","e,f"}');
  });

  it("turns a record into one COPY line, or an error naming the mobile column", () => {
    const mapping = { Nome: "name", Celular: "mobile_number", Email: "email", Tags: "tags", Plano: "custom:plano", Ignorar: "" };
    const cols = stagingColumns(mapping);
    expect(cols).toEqual(["first_name", "last_name", "mobile_number", "email", "custom", "tags"]);
    const b = new RowBuilder("imp", ["Nome", "Celular", "Email", "Tags", "Plano", "Ignorar"], mapping, cols, new Map([["plano", { key: "plano", type: "text", options: [] }]]));
    expect(b.line(["Maria  da Silva", "(11) 98765-4321", "sem-arroba", "a, b", "Ouro", "x"], 7)).toBe(
      'imp\t7\tMaria\tda Silva\t+5511987654321\t\\N\t{"plano":"Ouro"}\t{"a","b"}\n',
    );
    expect(b.line(["Zé", "123", "", "", "", ""], 8)).toEqual({ column: "Celular", value: "123" });
    expect(b.line(["Zé"], 9)).toEqual({ column: "Celular", value: "" });
  });

  it("shows progress as reading plus merging, 100 only when completed", () => {
    const base = { total_rows: 100, processed_rows: 0, inserted_rows: 0, merged_rows: 0, error_count: 0 };
    expect(progressPercent({ ...base, status: "queued" })).toBe(0);
    expect(progressPercent({ ...base, status: "running", processed_rows: 100 })).toBe(20);
    expect(progressPercent({ ...base, status: "running", processed_rows: 100, error_count: 10, inserted_rows: 45 })).toBe(60);
    expect(progressPercent({ ...base, status: "running", processed_rows: 100, inserted_rows: 100 })).toBe(99);
    expect(progressPercent({ ...base, status: "completed", processed_rows: 100, inserted_rows: 100 })).toBe(100);
  });
});
