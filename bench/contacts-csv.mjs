/**
 * Realistic Brazilian contact lists as CSV, written streaming to a file (never held in memory).
 * Used by bench/import.mjs and by the import tests. Deterministic for a given seed.
 */
import { createWriteStream } from "node:fs";
import { once } from "node:events";

const FIRST = [
  "Maria",
  "José",
  "Ana",
  "João",
  "Antônio",
  "Francisca",
  "Carlos",
  "Paulo",
  "Adriana",
  "Lucas",
  "Juliana",
  "Marcos",
  "Patrícia",
  "Luiz",
  "Aline",
  "Gabriel",
  "Fernanda",
  "Rafael",
  "Camila",
  "Pedro",
  "Bruna",
  "Mateus",
  "Letícia",
  "Gustavo",
  "Beatriz",
  "Felipe",
  "Larissa",
  "Rodrigo",
  "Vanessa",
  "Thiago",
  "Débora",
  "Raimundo",
  "Sebastião",
  "Conceição",
  "Márcia",
  "Luciana",
  "Eduardo",
  "Renata",
  "Daniel",
  "Jéssica",
];
const LAST = [
  "Silva",
  "Santos",
  "Oliveira",
  "Souza",
  "Rodrigues",
  "Ferreira",
  "Alves",
  "Pereira",
  "Lima",
  "Gomes",
  "Costa",
  "Ribeiro",
  "Martins",
  "Carvalho",
  "Almeida",
  "Lopes",
  "Soares",
  "Fernandes",
  "Vieira",
  "Barbosa",
  "Rocha",
  "Dias",
  "Nascimento",
  "Andrade",
  "Moreira",
  "Nunes",
  "Marques",
  "Machado",
  "Mendes",
  "Freitas",
  "Cardoso",
  "Ramos",
  "Gonçalves",
  "Santana",
  "Teixeira",
  "da Silva",
  "dos Santos",
  "de Oliveira",
  "Araújo",
  "Cavalcanti",
];
const CITIES = [
  ["São Paulo", "SP", 11],
  ["Rio de Janeiro", "RJ", 21],
  ["Belo Horizonte", "MG", 31],
  ["Salvador", "BA", 71],
  ["Fortaleza", "CE", 85],
  ["Brasília", "DF", 61],
  ["Curitiba", "PR", 41],
  ["Recife", "PE", 81],
  ["Porto Alegre", "RS", 51],
  ["Manaus", "AM", 92],
  ["Belém", "PA", 91],
  ["Goiânia", "GO", 62],
  ["Campinas", "SP", 19],
  ["São Luís", "MA", 98],
  ["Maceió", "AL", 82],
  ["Natal", "RN", 84],
  ["Florianópolis", "SC", 48],
  ["Vitória", "ES", 27],
  ["João Pessoa", "PB", 83],
  ["Cuiabá", "MT", 65],
];
const DOMAINS = ["gmail.com", "hotmail.com", "outlook.com", "yahoo.com.br", "uol.com.br", "bol.com.br", "terra.com.br"];

/** A small deterministic PRNG (mulberry32). */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const strip = (s) =>
  s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z]/g, "");

/**
 * Write `rows` data rows. Options: delimiter (";" like Brazilian Excel, default), duplicates and
 * invalid (fractions of rows repeating an earlier number / carrying an invalid one), bom, seed.
 * Answers counts of what was written, so callers can check the import against them.
 */
export async function writeContactsCsv(path, { rows, delimiter = ";", duplicates = 0.05, invalid = 0.01, bom = false, seed = 42 } = {}) {
  const out = createWriteStream(path, { highWaterMark: 1 << 20 });
  const r = rng(seed);
  const pick = (list) => list[Math.floor(r() * list.length)];
  const d = delimiter;
  let buf = (bom ? "\ufeff" : "") + ["Nome", "Celular", "E-mail", "Cidade", "UF", "Data de nascimento"].join(d) + "\n";
  let written = { rows: 0, duplicates: 0, invalid: 0, unique: 0 };
  const recent = [];
  let serial = 0;
  for (let i = 0; i < rows; i++) {
    const [city, uf, ddd] = pick(CITIES);
    const first = pick(FIRST);
    const last = pick(LAST);
    let mobile;
    const x = r();
    if (x < invalid) {
      mobile = r() < 0.5 ? `${ddd} ${1000 + Math.floor(r() * 8999)}` : "";
      written.invalid++;
    } else if (x < invalid + duplicates && recent.length) {
      mobile = recent[Math.floor(r() * recent.length)];
      written.duplicates++;
    } else {
      // Unique by construction: a serial spread over the 8 digits after the leading 9.
      serial++;
      const n = String((serial * 7919) % 100000000).padStart(8, "0");
      const style = serial % 4;
      mobile =
        style === 0 ? `(${ddd}) 9${n.slice(0, 4)}-${n.slice(4)}` : style === 1 ? `${ddd}9${n}` : style === 2 ? `+55 ${ddd} 9${n.slice(0, 4)}-${n.slice(4)}` : `55${ddd}9${n}`;
      if (recent.length < 1000) recent.push(mobile);
      else recent[Math.floor(r() * 1000)] = mobile;
      written.unique++;
    }
    const email = r() < 0.1 ? "" : r() < 0.02 ? `${strip(first)}.sem.arroba` : `${strip(first)}.${strip(last)}${Math.floor(r() * 1000)}@${pick(DOMAINS)}`;
    const birth = r() < 0.3 ? "" : `${String(1 + Math.floor(r() * 28)).padStart(2, "0")}/${String(1 + Math.floor(r() * 12)).padStart(2, "0")}/${1950 + Math.floor(r() * 55)}`;
    buf += `${first} ${last}${d}${mobile}${d}${email}${d}${city}${d}${uf}${d}${birth}\n`;
    written.rows++;
    if (buf.length > 1 << 16) {
      if (!out.write(buf)) await once(out, "drain");
      buf = "";
    }
  }
  out.end(buf);
  await once(out, "finish");
  return written;
}
