/**
 * The demo account's catalogue (issue 22), for a new user trying `npm start`: four products with
 * the fields of spec section 3, three published (RCS, WhatsApp or both), each with a cover image
 * made here by sharp — a solid-colour 500x500 PNG, no binary in the repository — checked and
 * thumbnailed like an upload. Idempotent: a product is found by its name in the account; what
 * people changed stays.
 */
import sharp from "sharp";
import type { Transaction } from "sequelize";
import { row } from "../lib/sql";
import { IMAGE_SIDE } from "./constants";
import { checkImage, putBytes } from "./images";

const DEMO_PRODUCTS = [
  {
    name: "Fone de ouvido sem fio",
    description: "Bluetooth 5.3, cancelamento de ruído e até 30 horas de bateria.",
    brand: "Sonora",
    model: "SN-300",
    reference: "FON-300",
    barcode: "7891234567895",
    included_items: "Fone, estojo de carga, cabo USB-C",
    additional_message: "Frete grátis para todo o Brasil.",
    warranty: "1_year",
    weight_grams: 180,
    price_cents: 29_990,
    discount_cents: 5_000,
    url: "https://demo.example/produtos/fone-sn300",
    published_channels: ["rcs", "whatsapp"],
    colour: "#0b57d0",
  },
  {
    name: "Relógio clássico",
    description: "Aço inoxidável, resistente à água até 50 m.",
    brand: "Tempo",
    model: "Classic 40",
    reference: "REL-040",
    barcode: "7891234567901",
    included_items: "Relógio, caixa de presente",
    additional_message: "",
    warranty: "5_months",
    weight_grams: 95,
    price_cents: 49_900,
    discount_cents: 0,
    url: "https://demo.example/produtos/relogio-classic",
    published_channels: ["rcs"],
    colour: "#8a5a00",
  },
  {
    name: "Tênis de corrida",
    description: "Leve e com amortecimento para treinos diários.",
    brand: "Passo",
    model: "Run 2",
    reference: "TEN-002",
    barcode: "7891234567918",
    included_items: "Par de tênis, palmilha extra",
    additional_message: "Troca grátis em 30 dias.",
    warranty: "1_month",
    weight_grams: 560,
    price_cents: 34_990,
    discount_cents: 3_000,
    url: "https://demo.example/produtos/tenis-run2",
    published_channels: ["whatsapp"],
    colour: "#137333",
  },
  {
    name: "Caneca térmica",
    description: "Mantém a bebida quente por 6 horas.",
    brand: "Casa Demo",
    model: "Térmica 350",
    reference: "CAN-350",
    barcode: "",
    included_items: "",
    additional_message: "",
    warranty: "none",
    weight_grams: 320,
    price_cents: 8_990,
    discount_cents: 0,
    url: "",
    published_channels: [],
    colour: "#c5221f",
  },
] as const;

/** Seeds the demo account's catalogue within the seed's transaction; answers how many rows it created. */
export async function seedDemoCatalog(accountId: string, transaction: Transaction): Promise<number> {
  let created = 0;
  for (const p of DEMO_PRODUCTS) {
    const inserted = await row<{ id: string }>(
      `INSERT INTO catalog_products (account_id, name, description, brand, model, reference, barcode, included_items, additional_message, warranty, weight_grams,
                                     price_cents, discount_cents, url, published_channels)
       SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15::text[]
        WHERE NOT EXISTS (SELECT 1 FROM catalog_products WHERE account_id = $1 AND name = $2) RETURNING id`,
      [
        accountId,
        p.name,
        p.description,
        p.brand,
        p.model,
        p.reference,
        p.barcode,
        p.included_items,
        p.additional_message,
        p.warranty,
        p.weight_grams,
        p.price_cents,
        p.discount_cents,
        p.url,
        [...p.published_channels],
      ],
      { transaction },
    );
    if (!inserted) continue;
    created++;
    const png = await sharp({ create: { width: IMAGE_SIDE, height: IMAGE_SIDE, channels: 3, background: p.colour } })
      .png()
      .toBuffer();
    const image = await checkImage(png);
    const [sha, thumb] = [await putBytes(image.bytes), await putBytes(image.thumb)];
    await row(
      `INSERT INTO catalog_product_images (account_id, product_id, sha256, content_type, size, width, height, thumb_sha256, thumb_size, position)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 0) RETURNING id`,
      [accountId, inserted.id, sha, image.contentType, image.bytes.byteLength, image.width, image.height, thumb, image.thumb.byteLength],
      { transaction },
    );
    created++;
  }
  return created;
}
