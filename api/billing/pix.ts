/**
 * Pix "BR Code": the EMV QR Code payload ("copia e cola") of Banco Central do Brasil's Manual de Padrões
 * para Iniciação do Pix, built here as a static code with a fixed amount and a txid so that a customer's
 * bank app can pay a top-up and the payment can be matched back to it. The module is pure (no I/O): it only
 * builds the text, and `pixQrSvg` draws it as a QR code.
 *
 * Every field is ID + two-digit length + value, and the lengths count characters, while the CRC is taken
 * over bytes; the values are therefore kept to printable ASCII, so that both counts agree and no bank app
 * has to guess an encoding.
 */
import QRCode from "qrcode";

export interface PixPayloadInput {
  /** The receiver's Pix key (CPF/CNPJ, e-mail, phone or random key), as registered in DICT. */
  key: string;
  /** The amount in centavos: a positive integer, so no float ever rounds a price. */
  amountCentavos: number;
  merchantName: string;
  merchantCity: string;
  /** The reference that ties the payment to our charge: 1 to 25 letters and digits. */
  txid: string;
  /** Free text shown to the payer; shortened to fit, since the manual caps the whole field 26 at 99 characters. */
  description?: string | null;
}

const GUI = "br.gov.bcb.pix";
const MAX_NAME = 25;
const MAX_CITY = 15;
const MAX_KEY = 77;
const MAX_TEMPLATE = 99;
const MAX_CENTAVOS = 9_999_999_999;
const TXID = /^[A-Za-z0-9]{1,25}$/;
/** Letters, digits, space and simple punctuation: what every bank app shows as it is. */
const TEXT = /^[A-Za-z0-9 .,:;'&/()#@+_-]*$/;
/** A key has no spaces and nothing outside printable ASCII (e-mails, digits, +55 phones and UUIDs all fit). */
const KEY = /^[\x21-\x7E]+$/;

/** One EMV field: ID, two-digit length, value. */
function field(id: string, value: string): string {
  if (value.length > 99) throw new Error(`Pix field ${id} is longer than 99 characters`);
  return `${id}${String(value.length).padStart(2, "0")}${value}`;
}

/** Accents off (NFD, then the combining marks dropped) and runs of blanks made one space. */
function plain(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").replace(/\s+/g, " ").trim();
}

/**
 * Name and city are only labels in the code (the payer's bank shows the holder's name from DICT, looked up by
 * the key), so one that is too long is shortened rather than refused; a character outside the allowed set is
 * refused, since dropping it could change what the label says.
 */
function label(what: string, text: string, max: number): string {
  const value = plain(text);
  if (!TEXT.test(value)) throw new Error(`Pix ${what} has characters outside letters, digits, space and simple punctuation: ${JSON.stringify(value)}`);
  const short = value.slice(0, max).trimEnd();
  if (!short) throw new Error(`Pix ${what} is empty`);
  return short;
}

/** 1050 → "10.50", in integer arithmetic. */
function amount(centavos: number): string {
  if (!Number.isSafeInteger(centavos) || centavos <= 0 || centavos > MAX_CENTAVOS) {
    throw new Error(`Pix amount must be a whole number of centavos from 1 to ${MAX_CENTAVOS}, got ${centavos}`);
  }
  return `${Math.floor(centavos / 100)}.${String(centavos % 100).padStart(2, "0")}`;
}

/** Field 26: the GUI, the key and, if there is room left under 99 characters, the description shortened to fit. */
function merchantAccount(key: string, description: string | null | undefined): string {
  if (!key) throw new Error("Pix key is empty");
  if (key.length > MAX_KEY) throw new Error(`Pix key is longer than ${MAX_KEY} characters`);
  if (!KEY.test(key)) throw new Error("Pix key has spaces or characters outside printable ASCII");
  const base = field("00", GUI) + field("01", key);
  const text = description ? plain(description) : "";
  if (!TEXT.test(text)) throw new Error(`Pix description has characters outside letters, digits, space and simple punctuation: ${JSON.stringify(text)}`);
  const room = MAX_TEMPLATE - base.length - 4;
  const info = room > 0 ? text.slice(0, room).trimEnd() : "";
  return info ? base + field("02", info) : base;
}

/** CRC-16/CCITT-FALSE (polynomial 0x1021, initial 0xFFFF, no reflection, no final XOR) as four uppercase hex digits. */
export function crc16(payload: string): string {
  let crc = 0xffff;
  for (const byte of new TextEncoder().encode(payload)) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, "0");
}

/**
 * The BR Code for one payment of a fixed amount. Throws an Error naming the field for a bad txid, amount or
 * key, or a name, city or description with characters outside the allowed set; a name over 25 characters, a
 * city over 15 or a description that would push field 26 past 99 is shortened instead.
 */
export function pixPayload(input: PixPayloadInput): string {
  if (!TXID.test(input.txid)) throw new Error("Pix txid must be 1 to 25 letters (A-Z, a-z) or digits");
  const body =
    field("00", "01") +
    // 12, not 11: the code is meant for a single payment, the one its txid names.
    field("01", "12") +
    field("26", merchantAccount(input.key, input.description)) +
    field("52", "0000") +
    field("53", "986") +
    field("54", amount(input.amountCentavos)) +
    field("58", "BR") +
    field("59", label("merchant name", input.merchantName, MAX_NAME)) +
    field("60", label("merchant city", input.merchantCity, MAX_CITY)) +
    field("62", field("05", input.txid)) +
    "6304";
  return body + crc16(body);
}

/** The payload as an SVG QR code (error correction level M, a one-module quiet zone). */
export async function pixQrSvg(payload: string): Promise<string> {
  return QRCode.toString(payload, { type: "svg", errorCorrectionLevel: "M", margin: 1 });
}
