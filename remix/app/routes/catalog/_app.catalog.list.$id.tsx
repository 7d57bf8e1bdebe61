/**
 * /catalog/list/{id} (issue 22): one catalogue product — its form (every field, the publish
 * checkboxes), its images (upload: JPG or PNG, exactly 500x500 px, at most 8 MB, checked by
 * decoding it; each shown by its thumbnail; remove), "Send as RCS card" / "Send on WhatsApp" when it
 * is published there, and delete. Plain forms switched by `intent`, the upload a multipart form
 * streamed to the use-case (refused by its declared size before it is read): everything works
 * without JavaScript; each success redirects with a toast.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { rcsSendHref, whatsappSendHref } from "~api/catalog/channels";
import { IMAGE_MAX_BYTES, IMAGE_SIDE, IMAGES_PER_PRODUCT } from "~api/catalog/constants";
import { deleteImage, deleteProduct, getProduct, updateProduct } from "~api/catalog/products";
import { z } from "~api/lib/zod";
import { can } from "~api/policy/policy";
import { ProductForm } from "~/components/catalog/product-form";
import { ConfirmDelete } from "~/components/forms/confirm-delete";
import { CsrfInput, ErrorText } from "~/components/forms/fields";
import { IntentForm } from "~/components/forms/intent-form";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Label } from "~/components/ui/label";
import { productFormSchema, productInput } from "~/forms/catalog-product";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { imageUrl, thumbUrl, uploadImage } from "~/lib/catalog.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { useTranslation } from "~/lib/react-i18n";
import { redirectWithToast } from "~/lib/toast.server";

export const handle = {
  crumb: (data: unknown) => ({ key: "catalog:form.editTitle", params: { name: (data as { product?: { name?: string } } | undefined)?.product?.name ?? "" } }),
};

const LIST = "/catalog/list";
const deleteImageSchema = z.object({ intent: z.literal("delete-image"), image_id: z.string().min(1, "validation.required") });
const deleteSchema = z.object({ intent: z.literal("delete") });

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request, LIST);
  const { data: p } = await orHttpError(getProduct(ctx, params.id ?? ""));
  return json(
    {
      product: { ...p, images: p.images.map((i) => ({ ...i, src: imageUrl(i), thumb: thumbUrl(i) })) },
      send: {
        rcs: p.published_channels.includes("rcs") && can(ctx.actor, "/rcs/send") ? rcsSendHref(p.id) : null,
        whatsapp: p.published_channels.includes("whatsapp") && can(ctx.actor, "/whatsapp/send") ? whatsappSendHref(p.id) : null,
      },
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export async function action({ request, params }: ActionFunctionArgs) {
  const id = params.id ?? "";
  if (/^multipart\/form-data;/i.test(request.headers.get("Content-Type") ?? "")) return uploadImage(request, id);
  const ctx = await requireRoute(request, LIST);
  const path = `${LIST}/${id}`;
  const intent = (await request.clone().formData()).get("intent");
  if (intent === "delete-image") {
    return handleForm(request, deleteImageSchema, async ({ image_id }) => {
      await deleteImage(ctx, id, image_id);
      return redirectWithToast(request, path, { type: "success", title: "catalog:images.deleted" });
    });
  }
  if (intent === "delete") {
    return handleForm(request, deleteSchema, async () => {
      await deleteProduct(ctx, id);
      return redirectWithToast(request, LIST, { type: "success", title: "catalog:list.deleted", params: { count: 1 } });
    });
  }
  return handleForm(request, productFormSchema, async (v) => {
    const { data } = await updateProduct(ctx, id, productInput(v));
    return redirectWithToast(request, path, { type: "success", title: "catalog:form.saved", params: { name: data.name } });
  });
}

export default function CatalogProductPage() {
  const { product: p, send } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation("catalog");
  const sent = last?.result.initialValue as { intent?: string } | undefined;
  const uploadErrors = sent?.intent === "upload" ? [...(last?.result.error?.file ?? []), ...(last?.result.error?.[""] ?? [])] : null;
  const full = p.images.length >= IMAGES_PER_PRODUCT;
  return (
    <div className="space-y-6">
      <PageHeader
        description={t("form.editDescription")}
        actions={
          <div className="flex flex-wrap gap-2">
            {send.rcs ? (
              <Button asChild size="sm" variant="outline">
                <Link to={send.rcs}>{t("send.rcs")}</Link>
              </Button>
            ) : null}
            {send.whatsapp ? (
              <Button asChild size="sm" variant="outline">
                <Link to={send.whatsapp}>{t("send.whatsapp")}</Link>
              </Button>
            ) : null}
          </div>
        }
      />
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <Card>
          <CardContent className="pt-6">
            <ProductForm product={p} last={last} busy={busy} currency={p.currency} submit={t("form.save")} />
          </CardContent>
        </Card>
        <div className="space-y-6">
          <Card>
            <CardHeader>
              <CardTitle>
                <h2>{t("images.title")}</h2>
              </CardTitle>
              <CardDescription>{t("images.rules", { side: IMAGE_SIDE, mb: IMAGE_MAX_BYTES / (1024 * 1024), max: IMAGES_PER_PRODUCT })}</CardDescription>
            </CardHeader>
            <CardContent className="space-y-4">
              {p.images.length === 0 ? <p className="text-sm text-muted-foreground">{t("images.empty")}</p> : null}
              <ul className="grid grid-cols-2 gap-3" aria-label={t("images.title")}>
                {p.images.map((i) => (
                  <li key={i.id} data-image-id={i.id} className="space-y-1">
                    <a href={i.src} target="_blank" rel="noreferrer">
                      <img src={i.thumb} alt={t("images.thumbAlt", { name: p.name })} width={160} height={160} className="aspect-square w-full rounded border object-cover" />
                    </a>
                    <p className="text-xs text-muted-foreground">
                      {i.position === 0 ? t("images.cover") : t("images.position", { n: i.position + 1 })} · {i.width}x{i.height}
                    </p>
                    <IntentForm intent="delete-image" values={{ image_id: i.id }}>
                      <Button type="submit" size="sm" variant="outline" aria-label={t("images.deleteLabel", { n: i.position + 1 })}>
                        {t("images.delete")}
                      </Button>
                    </IntentForm>
                  </li>
                ))}
              </ul>
              {full ? (
                <p className="text-sm text-muted-foreground">{t("images.full", { max: IMAGES_PER_PRODUCT })}</p>
              ) : (
                <Form method="post" encType="multipart/form-data" className="space-y-2" aria-label={t("images.upload")}>
                  <CsrfInput />
                  <input type="hidden" name="intent" value="upload" />
                  <Label htmlFor="catalog-image-file">{t("images.file")}</Label>
                  <input
                    id="catalog-image-file"
                    name="file"
                    type="file"
                    accept="image/jpeg,image/png"
                    required
                    aria-describedby={uploadErrors?.length ? "catalog-image-error" : undefined}
                    className="block w-full text-sm file:mr-2 file:rounded-md file:border file:bg-background file:px-3 file:py-1 file:text-sm"
                  />
                  <ErrorText id="catalog-image-error" errors={uploadErrors} />
                  <Button type="submit" size="sm" disabled={busy}>
                    {t("images.upload")}
                  </Button>
                </Form>
              )}
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>
                <h2>{t("form.deleteTitle")}</h2>
              </CardTitle>
            </CardHeader>
            <CardContent>
              <ConfirmDelete
                id={p.id}
                summary={t("form.delete")}
                label={t("form.deleteLabel", { name: p.name })}
                body={t("form.deleteBody")}
                confirm={t("form.deleteConfirm")}
                errors={sent?.intent === "delete" ? last?.result.error?.[""] : null}
              />
            </CardContent>
          </Card>
        </div>
      </div>
    </div>
  );
}
