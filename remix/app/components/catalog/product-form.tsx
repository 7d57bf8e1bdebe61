/**
 * The catalogue product's form (create and edit): every field of spec section 3 with section 5's
 * limits, the money in reais, the publish checkboxes. A plain POST form (intent=save): works
 * without JavaScript; with it, the same schema validates as people type (loaded lazily).
 */
import { type FieldMetadata, getFormProps, useForm } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { LIMITS, PUBLISH_CHANNELS, WARRANTIES } from "~api/catalog/constants";
import { CsrfInput, FormErrors, TextField } from "~/components/forms/fields";
import { SelectField, TextareaField } from "~/components/forms/controls";
import { Button } from "~/components/ui/button";
import type { FormReply } from "~/lib/forms.server";
import { useLazyValidate } from "~/lib/lazy-validate";
import { reaisText } from "~/lib/money-input";
import { useTranslation } from "~/lib/react-i18n";

export type ProductValues = {
  id?: string;
  updated_at?: string;
  name: string;
  description: string;
  brand: string;
  model: string;
  reference: string;
  barcode: string;
  included_items: string;
  additional_message: string;
  warranty: string;
  weight_grams: number | null;
  price_cents: number;
  discount_cents: number;
  url: string;
  published_channels: string[];
};

export const EMPTY_PRODUCT: ProductValues = {
  name: "",
  description: "",
  brand: "",
  model: "",
  reference: "",
  barcode: "",
  included_items: "",
  additional_message: "",
  warranty: "none",
  weight_grams: null,
  price_cents: 0,
  discount_cents: 0,
  url: "",
  published_channels: [],
};

export function ProductForm({ product, last, busy, currency, submit }: { product: ProductValues; last?: FormReply; busy: boolean; currency: string; submit: string }) {
  const { t } = useTranslation("catalog");
  const sent = last?.result.initialValue as { intent?: string } | undefined;
  const [form, fields] = useForm({
    id: `catalog-product-${product.id ?? "new"}-${product.updated_at ?? ""}`,
    lastResult: !sent || sent.intent === "save" ? last?.result : undefined,
    defaultValue: {
      name: product.name,
      description: product.description,
      brand: product.brand,
      model: product.model,
      reference: product.reference,
      barcode: product.barcode,
      included_items: product.included_items,
      additional_message: product.additional_message,
      warranty: product.warranty,
      url: product.url,
      weight_grams: product.weight_grams === null ? "" : String(product.weight_grams),
      price: reaisText(product.price_cents),
      discount: product.discount_cents ? reaisText(product.discount_cents) : "",
    },
    onValidate: useLazyValidate(() => import("~/forms/catalog-product").then((m) => m.productFormSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  // The boxes as last posted (a refused save shows them as the person left them), else as stored.
  const posted = (sent as Record<string, unknown> | undefined)?.published_channels;
  const chosen = new Set<unknown>(sent?.intent === "save" ? [posted ?? []].flat() : product.published_channels);
  const max = (n: number) => t("form.max", { n });
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4">
      <CsrfInput />
      <input type="hidden" name="intent" value="save" />
      <FormErrors errors={form.errors} />
      <div className="grid gap-4 md:grid-cols-2">
        <TextField field={fields.name} label={t("fields.name")} description={max(LIMITS.name)} autoComplete="off" className="md:col-span-2" />
        <TextareaField field={fields.description} label={t("fields.description")} description={max(LIMITS.description)} className="md:col-span-2" />
        <TextField field={fields.brand} label={t("fields.brand")} autoComplete="off" />
        <TextField field={fields.model} label={t("fields.model")} autoComplete="off" />
        <TextField field={fields.reference} label={t("fields.reference")} autoComplete="off" />
        <TextField field={fields.barcode} label={t("fields.barcode")} description={t("form.barcodeHint")} autoComplete="off" />
        <TextField field={fields.price} label={t("fields.price", { currency })} description={t("form.moneyHint")} autoComplete="off" />
        <TextField field={fields.discount} label={t("fields.discount", { currency })} description={t("form.discountHint")} autoComplete="off" />
        <SelectField
          field={fields.warranty as FieldMetadata<string | null | undefined>}
          label={t("fields.warranty")}
          options={WARRANTIES.map((w) => ({ value: w, label: t(`warranty.${w}`) }))}
        />
        <TextField
          field={fields.weight_grams as FieldMetadata<string | null | undefined>}
          label={t("fields.weight")}
          description={t("form.weightHint")}
          type="number"
          autoComplete="off"
        />
        <TextField field={fields.url} label={t("fields.url")} type="url" autoComplete="off" className="md:col-span-2" />
        <TextareaField field={fields.included_items} label={t("fields.includedItems")} description={max(LIMITS.includedItems)} />
        <TextareaField field={fields.additional_message} label={t("fields.additionalMessage")} description={max(LIMITS.additionalMessage)} />
      </div>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium">{t("fields.publishedChannels")}</legend>
        <p className="text-sm text-muted-foreground">{t("form.publishHint")}</p>
        <div className="flex flex-wrap gap-4">
          {PUBLISH_CHANNELS.map((c) => (
            <label key={c} className="flex items-center gap-2 text-sm">
              <input type="checkbox" name="published_channels" value={c} defaultChecked={chosen.has(c)} className="size-4 accent-primary" />
              {t(`channels.${c}`)}
            </label>
          ))}
        </div>
      </fieldset>
      <Button type="submit" disabled={busy}>
        {submit}
      </Button>
    </Form>
  );
}
