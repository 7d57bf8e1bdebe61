/**
 * /shortener/links: the account's short links (issue 22, ADR 057): the list with search, each
 * link's short URL (copy), QR code (shown inline as SVG rendered on the server; SVG/PNG download)
 * and click count, delete; and the create form (title, original URL, optional custom slug, domain
 * when the platform serves more than one). Works without JavaScript (plain form posts).
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { createLink, createLinkSchema, deleteLink, listLinks, qrPath } from "~api/shortener/links";
import { defaultShortDomain, platformShortDomains } from "~api/shortener/fields";
import { z } from "~api/lib/zod";
import { ConfirmDelete } from "~/components/forms/confirm-delete";
import { CsrfInput, ErrorText, FormErrors } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { CopyButton } from "~/components/forms/copy-button";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { formatDate } from "~/lib/format";
import { deleteIntentSchema, handleForm, type FormReply } from "~/lib/forms.server";
import { useTranslation } from "~/lib/react-i18n";
import { redirectWithToast } from "~/lib/toast.server";
import type { RootData } from "~/root";

export const handle = { crumb: "shortener:links.title" };
const PATH = "/shortener/links";

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const url = new URL(request.url);
  const q = url.searchParams.get("q") ?? "";
  const cursor = url.searchParams.get("cursor") ?? undefined;
  const list = await orHttpError(listLinks(ctx, { q, cursor }));
  // The QR codes are drawn here (server-side SVG): the browser loads no QR library.
  const links = list.data.map((l) => ({ ...l, qr: qrPath(l.short_url) }));
  return json({ links, next_cursor: list.next_cursor, q, domains: platformShortDomains(), defaultDomain: defaultShortDomain() });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const intent = (await request.clone().formData()).get("intent");
  if (intent === "delete") {
    return handleForm(request, deleteIntentSchema, async ({ id }) => {
      await deleteLink(ctx, id);
      return redirectWithToast(request, PATH, { type: "success", title: "shortener:links.delete.deleted" });
    });
  }
  return handleForm(request, createLinkSchema.extend({ intent: z.literal("create") }), async ({ intent: _i, ...value }) => {
    const { data } = await createLink(ctx, value);
    return redirectWithToast(request, PATH, { type: "success", title: "shortener:links.create.created", params: { url: data.short_url } });
  });
}

const summaryClass = "inline-flex h-8 cursor-pointer list-none items-center rounded-md border px-3 text-sm font-medium hover:bg-accent";

export default function ShortLinks() {
  const { links, next_cursor, q, domains, defaultDomain } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const lng = useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR";
  const { t } = useTranslation(["shortener", "common"]);
  const sent = last?.result.initialValue as Record<string, string> | undefined;
  const creating = sent?.intent === "create";
  const errors = creating ? last?.result.error : undefined;
  const value = (name: string) => (creating ? (sent?.[name] ?? "") : "");
  return (
    <div className="space-y-6">
      <PageHeader description={t("links.description")} />
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <Card className="min-w-0">
          <CardHeader>
            <Form method="get" className="flex flex-wrap gap-2" role="search">
              <Label htmlFor="links-q" className="sr-only">
                {t("links.search")}
              </Label>
              <Input id="links-q" name="q" defaultValue={q} placeholder={t("links.search")} className="max-w-xs" />
              <Button type="submit" variant="outline">
                {t("links.searchSubmit")}
              </Button>
            </Form>
          </CardHeader>
          <CardContent>
            {links.length === 0 ? (
              <p data-empty="links" className="text-sm text-muted-foreground">
                {t("links.empty")}
              </p>
            ) : (
              <Table region={t("links.title")}>
                <TableHeader>
                  <TableRow>
                    <TableHead>{t("links.columns.title")}</TableHead>
                    <TableHead>{t("links.columns.short")}</TableHead>
                    <TableHead className="text-right">{t("links.columns.clicks")}</TableHead>
                    <TableHead>{t("links.columns.created")}</TableHead>
                    <TableHead className="text-right">{t("links.columns.actions")}</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {links.map((l) => {
                    const deleting = sent?.intent === "delete" && sent.id === l.id;
                    return (
                      <TableRow key={l.id} data-link-id={l.id} data-slug={l.slug}>
                        <TableCell className="max-w-56 align-top">
                          <div className="font-medium">{l.title}</div>
                          <a href={l.original_url} rel="noopener noreferrer" className="block truncate text-xs text-muted-foreground underline" title={l.original_url}>
                            {l.original_url}
                          </a>
                        </TableCell>
                        <TableCell className="align-top">
                          <div className="flex items-center gap-2">
                            <Input readOnly value={l.short_url} aria-label={t("links.copyLabel", { title: l.title })} className="h-8 w-56" data-short-url />
                            <CopyButton text={l.short_url} label={t("shortener:links.copy")} copiedLabel={t("shortener:links.copied")} />
                          </div>
                        </TableCell>
                        <TableCell className="text-right align-top">
                          <Link to={`/shortener/reports/stat?link_id=${l.id}`} className="underline" data-clicks={l.clicks}>
                            {t("links.clicks", { count: l.clicks })}
                          </Link>
                        </TableCell>
                        <TableCell className="align-top whitespace-nowrap">{formatDate(l.created_at, lng, true)}</TableCell>
                        <TableCell className="text-right align-top">
                          <div className="flex flex-wrap items-start justify-end gap-2">
                            <details className="text-left">
                              <summary className={summaryClass} aria-label={t("links.qr.label", { title: l.title })}>
                                {t("links.qr.summary")}
                              </summary>
                              <div className="mt-2 w-48 space-y-2 rounded-md border bg-popover p-3 text-sm shadow-sm">
                                <svg
                                  viewBox={`-2 -2 ${l.qr.size + 4} ${l.qr.size + 4}`}
                                  role="img"
                                  aria-label={t("links.qr.alt", { url: l.short_url })}
                                  data-qr
                                  className="h-40 w-40 bg-white"
                                  shapeRendering="crispEdges"
                                >
                                  <path d={l.qr.d} fill="#000" />
                                </svg>
                                <div className="flex gap-2">
                                  <a href={`/shortener/links/${l.id}/qr?format=svg`} download className="underline">
                                    {t("links.qr.svg")}
                                  </a>
                                  <a href={`/shortener/links/${l.id}/qr?format=png`} download className="underline">
                                    {t("links.qr.png")}
                                  </a>
                                </div>
                              </div>
                            </details>
                            <ConfirmDelete
                              id={l.id}
                              errors={deleting ? last?.result.error?.[""] : undefined}
                              summary={t("links.delete.summary")}
                              label={t("links.delete.label", { title: l.title })}
                              body={t("links.delete.body", { title: l.title })}
                              confirm={t("links.delete.confirm")}
                            />
                          </div>
                        </TableCell>
                      </TableRow>
                    );
                  })}
                </TableBody>
              </Table>
            )}
            {next_cursor ? (
              <Link to={`?${new URLSearchParams({ q, cursor: next_cursor })}`} className="mt-4 inline-block text-sm underline">
                {t("links.more")}
              </Link>
            ) : null}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <h2 className="leading-none font-semibold">{t("links.create.title")}</h2>
            <CardDescription>{t("links.create.description")}</CardDescription>
          </CardHeader>
          <CardContent>
            <Form method="post" className="space-y-4" id="link-create">
              <CsrfInput />
              <input type="hidden" name="intent" value="create" />
              <FormErrors errors={errors?.[""]} />
              <div className="grid gap-1.5">
                <Label htmlFor="link-title">{t("links.fields.title")}</Label>
                <Input id="link-title" name="title" defaultValue={value("title")} maxLength={120} required aria-invalid={Boolean(errors?.title) || undefined} />
                <ErrorText errors={errors?.title} />
              </div>
              <div className="grid gap-1.5">
                <Label htmlFor="link-url">{t("links.fields.original_url")}</Label>
                <Input id="link-url" name="original_url" type="url" defaultValue={value("original_url")} required aria-invalid={Boolean(errors?.original_url) || undefined} />
                <ErrorText errors={errors?.original_url} />
              </div>
              <div className="grid gap-1.5">
                <Label htmlFor="link-slug">{t("links.fields.slug")}</Label>
                <Input
                  id="link-slug"
                  name="slug"
                  defaultValue={value("slug")}
                  pattern="[A-Za-z0-9_\-]{3,50}"
                  aria-describedby="link-slug-hint"
                  aria-invalid={Boolean(errors?.slug) || undefined}
                />
                <p id="link-slug-hint" className="text-xs text-muted-foreground">
                  {t("links.fields.slugHint")}
                </p>
                <ErrorText errors={errors?.slug} />
              </div>
              {domains.length > 1 ? (
                <div className="grid gap-1.5">
                  <Label htmlFor="link-domain">{t("links.fields.domain")}</Label>
                  <NativeSelect id="link-domain" name="domain" defaultValue={value("domain") || defaultDomain}>
                    {domains.map((d) => (
                      <NativeSelectOption key={d} value={d}>
                        {d}
                      </NativeSelectOption>
                    ))}
                  </NativeSelect>
                  <ErrorText errors={errors?.domain} />
                </div>
              ) : null}
              <Button type="submit" className="w-full" disabled={busy}>
                {t("links.create.submit")}
              </Button>
            </Form>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
