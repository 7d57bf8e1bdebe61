/**
 * Column mapping of a CSV import: which contact field each header feeds. Suggestions recognise
 * the names Brazilian spreadsheets and CRMs use (pt-BR and English, any case, with or without
 * accents) and the account's custom fields by label or key. No database code: pure functions.
 */
import { CONTACT_FIELDS } from "../../models/constants";

/** A header as compared: no accents, lower case, words separated by one space. */
export function headerKey(header: string): string {
  return header
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

const NAMES: Record<string, string[]> = {
  mobile_number: [
    "celular",
    "telefone celular",
    "tel celular",
    "fone celular",
    "numero celular",
    "numero do celular",
    "numero de celular",
    "celular whatsapp",
    "whatsapp",
    "whats",
    "whats app",
    "zap",
    "movel",
    "telefone movel",
    "mobile",
    "mobile number",
    "mobile phone",
    "mobile no",
    "cell",
    "cell phone",
    "cellphone",
    "cellular",
    "msisdn",
    "mobile number e164",
  ],
  name: ["nome", "nome completo", "name", "full name", "fullname", "contato", "nome do contato", "nome do cliente", "cliente", "contact", "contact name"],
  first_name: ["primeiro nome", "first name", "firstname", "given name", "prenome"],
  last_name: ["sobrenome", "ultimo nome", "last name", "lastname", "surname", "family name"],
  email: ["email", "e mail", "endereco de email", "endereco de e mail", "correio eletronico", "email address", "e mail address", "mail"],
  phone: [
    "telefone",
    "fone",
    "tel",
    "telefone fixo",
    "fixo",
    "telefone residencial",
    "telefone comercial",
    "phone",
    "telephone",
    "phone number",
    "landline",
    "home phone",
    "work phone",
  ],
  company: ["empresa", "companhia", "razao social", "nome da empresa", "organizacao", "company", "company name", "organization", "organisation"],
  website: ["site", "website", "web site", "url", "pagina", "homepage"],
  address: ["endereco", "logradouro", "rua", "address", "street", "street address", "address line 1"],
  number: ["numero", "num", "n", "no", "nro", "number", "street number", "house number"],
  complement: ["complemento", "complement", "address line 2", "apartamento", "apto"],
  district: ["bairro", "district", "neighborhood", "neighbourhood"],
  zip: ["cep", "zip", "zip code", "zipcode", "postal code", "postcode", "codigo postal"],
  city: ["cidade", "municipio", "city", "town"],
  state: ["estado", "uf", "state", "province", "provincia", "region"],
  country: ["pais", "country", "nacao"],
  description: ["descricao", "observacao", "observacoes", "obs", "notas", "anotacoes", "description", "notes", "note", "comments", "comentarios"],
  birth_date: ["data de nascimento", "nascimento", "dt nascimento", "data nascimento", "aniversario", "birth date", "birthdate", "date of birth", "dob", "birthday"],
  gender: ["genero", "sexo", "gender", "sex"],
  tags: ["tags", "tag", "etiquetas", "etiqueta", "marcadores", "labels"],
};
const BY_NAME = new Map<string, string>();
for (const [field, names] of Object.entries(NAMES)) for (const n of names) BY_NAME.set(n, field);
for (const f of CONTACT_FIELDS) BY_NAME.set(headerKey(f), f); // mobile_number, first_name… as written by our own export

/** Targets a column may be mapped to: a standard field, "name" (split at the first space), "custom:<key>", or "" (ignored). */
export function isValidTarget(target: string, customKeys: Set<string>): boolean {
  if (target === "" || target === "name") return true;
  if ((CONTACT_FIELDS as readonly string[]).includes(target)) return true;
  return target.startsWith("custom:") && customKeys.has(target.slice(7));
}

/**
 * Suggested mapping for the headers of every file (header text -> target). Each target is taken
 * by the first header that matches it; "Nome" becomes first_name when a "Sobrenome" column exists.
 */
export function suggestMapping(headers: string[], customFields: Array<{ key: string; label: string }>): Record<string, string> {
  const custom = new Map<string, string>();
  for (const f of customFields) {
    custom.set(headerKey(f.key), `custom:${f.key}`);
    custom.set(headerKey(f.label), `custom:${f.key}`);
  }
  const keys = headers.map(headerKey);
  const hasLast = keys.some((k) => BY_NAME.get(k) === "last_name");
  const out: Record<string, string> = {};
  const taken = new Set<string>();
  const take = (header: string, target: string | undefined) => {
    if (!target || taken.has(target) || header in out) return false;
    out[header] = target;
    taken.add(target);
    return true;
  };
  headers.forEach((h, i) => {
    let target = BY_NAME.get(keys[i]) ?? custom.get(keys[i]);
    if (target === "name" && hasLast) target = "first_name";
    take(h, target);
  });
  // A mobile column under another name ("Celular do cliente", "WhatsApp (DDD)").
  if (!taken.has("mobile_number")) {
    headers.forEach((h, i) => {
      if (!(h in out) && /\b(celular|whatsapp|mobile|cel|cell)\b/.test(keys[i])) take(h, "mobile_number");
    });
  }
  for (const h of headers) if (!(h in out)) out[h] = "";
  return out;
}
