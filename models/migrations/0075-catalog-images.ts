import type { MigrationFn } from "../migrate";

/**
 * Catalogue images (issue 22, ADR 059): a product's pictures, JPG or PNG of exactly 500x500 and at
 * most 8 MB (spec section 5), checked by decoding them. The bytes are kept where the project keeps
 * uploaded files, on disk under UPLOAD_DIR (here UPLOAD_DIR/catalog, named by SHA-256, like the
 * live chat's files), the original and a 160x160 WebP thumbnail; a row gives them their account,
 * product, type, size, dimensions and position (0 is the product's cover).
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    CREATE TABLE catalog_product_images (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      product_id uuid NOT NULL REFERENCES catalog_products(id) ON DELETE CASCADE,
      sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
      content_type text NOT NULL CHECK (content_type IN ('image/jpeg', 'image/png')),
      size integer NOT NULL CHECK (size > 0 AND size <= 8388608),
      width integer NOT NULL CHECK (width > 0),
      height integer NOT NULL CHECK (height > 0),
      thumb_sha256 text NOT NULL CHECK (thumb_sha256 ~ '^[0-9a-f]{64}$'),
      thumb_content_type text NOT NULL DEFAULT 'image/webp',
      thumb_size integer NOT NULL CHECK (thumb_size > 0),
      position integer NOT NULL CHECK (position >= 0),
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (product_id, position) DEFERRABLE INITIALLY DEFERRED
    );
    CREATE INDEX catalog_product_images_account_idx ON catalog_product_images(account_id, product_id, position);
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query("DROP TABLE catalog_product_images;");
};
