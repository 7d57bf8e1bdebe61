/**
 * /lookup/list: look up a CSV list (streamed upload, the contact import's rules) or a contact
 * group's numbers; the account's lists with their progress (re-read every 2 s while one runs, with
 * JavaScript; a refresh link without), their results (?list=<id>), CSV export, and the "clean a
 * group" action (ADR 058). Every form works without JavaScript.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useRevalidator, useRouteLoaderData } from "@remix-run/react";
import { useEffect } from "react";
import { useTranslation } from "~/lib/react-i18n";
import { groupOptions } from "~api/contacts/groups";
import { isAppError } from "~api/lib/errors";
import { cleanGroup, createFileList, createGroupList, listLists, listResults, lookupPrice, type LookupListView } from "~api/lookup/services";
import { CsrfInput, FormErrors } from "~/components/forms/fields";
import { ResultsTable } from "~/components/lookup/results-table";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { FormField } from "~/components/ui/form-field";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { requireCsrf } from "~/lib/csrf.server";
import { formatDate, formatMoney } from "~/lib/format";
import { i18next } from "~/lib/i18n.server";
import type { Lng } from "~/lib/i18n";
import { redirectWithToast } from "~/lib/toast.server";
import { streamUpload } from "~/lib/uploads.server";
import type { RootData } from "~/root";

export const handle = { crumb: "lookup:list.crumb" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const open = new URL(request.url).searchParams.get("list");
  const [lists, groups, price] = await Promise.all([
    orHttpError(listLists(ctx, 20)),
    groupOptions(ctx).catch(() => [] as Array<{ id: string; name: string }>),
    lookupPrice(ctx.actor.accountId).catch(() => null),
  ]);
  const shown = open ? lists.find((l) => l.id === open) : undefined;
  const results = shown ? await orHttpError(listResults(ctx, shown.id, { limit: 100 })) : [];
  return json({ lists, groups, price, shown: shown?.id ?? null, results });
}

type Reply = { formErrors?: string[]; params?: Record<string, unknown>; form?: string };
const reply = (body: Reply, status: number) => json(body, { status });
const failure = (e: unknown, form: string) => {
  if (!isAppError(e)) throw e;
  const fieldErrors = e.fields ? Object.values(e.fields).flat() : [];
  return reply({ formErrors: fieldErrors.length ? fieldErrors : [`errors.${e.code}`], params: e.params, form }, e.status);
};

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const csrfOk = (fields: FormData) =>
    requireCsrf(request, fields).then(
      () => true,
      () => false,
    );
  if (/^multipart\/form-data;/i.test(request.headers.get("Content-Type") ?? "")) {
    // The CSRF token (and the group to clean) come before the file: without a valid token no file reaches the use-case.
    let cleanGroupId: string | null = null;
    const { fields, outcome } = await streamUpload(request, {
      fileField: "file",
      acceptFiles: async (f) => {
        cleanGroupId = String(f.get("clean_group_id") ?? "") || null;
        return csrfOk(f);
      },
      consume: async (files) => {
        for await (const file of files) return createFileList(ctx, file, { cleanGroupId });
        return null;
      },
    });
    if (!(await csrfOk(fields))) return reply({ formErrors: ["errors.CSRF"], form: "upload" }, 403);
    if (outcome.status === "none" || (outcome.status === "ok" && !outcome.value)) return reply({ formErrors: ["lookup.errors.noFile"], form: "upload" }, 422);
    if (outcome.status === "error") return failure(outcome.error, "upload");
    return redirectWithToast(request, "/lookup/list", { type: "success", title: "lookup:list.queued" });
  }
  const form = await request.formData();
  if (!(await csrfOk(form))) return reply({ formErrors: ["errors.CSRF"] }, 403);
  const intent = String(form.get("intent") ?? "");
  try {
    if (intent === "group") {
      await createGroupList(ctx, { groupId: String(form.get("group_id") ?? ""), clean: form.get("clean") === "on" });
      return redirectWithToast(request, "/lookup/list", { type: "success", title: "lookup:list.queued" });
    }
    if (intent === "clean") {
      const listId = String(form.get("list_id") ?? "");
      const done = await cleanGroup(ctx, listId, String(form.get("group_id") ?? ""), await i18next.getLocale(request));
      return redirectWithToast(request, `/lookup/list?list=${listId}`, {
        type: "success",
        title: done.moved ? "lookup:clean.done" : "lookup:clean.none",
        params: { count: done.moved },
      });
    }
  } catch (e) {
    return failure(e, intent);
  }
  return reply({ formErrors: ["validation.invalid"] }, 422);
}

function StatusBadge({ status }: { status: LookupListView["status"] }) {
  const { t } = useTranslation("lookup");
  const variant = status === "failed" ? "destructive" : status === "completed" ? "secondary" : "outline";
  return <Badge variant={variant}>{t(`lookup:list.status.${status}`)}</Badge>;
}

function ListsTable({ lists, groups, lng }: { lists: LookupListView[]; groups: Array<{ id: string; name: string }>; lng: Lng }) {
  const { t } = useTranslation("lookup");
  return (
    <Table region={t("lookup:list.recent")}>
      <TableHeader>
        <TableRow>
          <TableHead>{t("lookup:list.columns.name")}</TableHead>
          <TableHead>{t("lookup:list.columns.status")}</TableHead>
          <TableHead className="text-right">{t("lookup:list.columns.progress")}</TableHead>
          <TableHead className="text-right">{t("lookup:list.columns.valid")}</TableHead>
          <TableHead className="text-right">{t("lookup:list.columns.invalid")}</TableHead>
          <TableHead className="text-right">{t("lookup:list.columns.badLines")}</TableHead>
          <TableHead className="text-right">{t("lookup:list.columns.cost")}</TableHead>
          <TableHead>{t("lookup:list.columns.actions")}</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {lists.map((l) => (
          <TableRow key={l.id} data-list-id={l.id} data-status={l.status}>
            <TableCell className="max-w-xs">
              <div className="truncate" title={l.name}>
                {l.name}
              </div>
              <div className="text-xs text-muted-foreground">
                {t(`lookup:list.source.${l.source}`)} · <time dateTime={l.createdAt}>{formatDate(l.createdAt, lng, true)}</time>
              </div>
              {l.failure ? <div className="text-xs text-destructive">{t(l.failure.replace(/^errors\./, "errors:"))}</div> : null}
              {l.cleanedCount !== null ? <div className="text-xs">{t("lookup:clean.moved", { count: l.cleanedCount })}</div> : null}
            </TableCell>
            <TableCell>
              <StatusBadge status={l.status} />
            </TableCell>
            <TableCell className="text-right tabular-nums">
              <progress className="mr-2 hidden h-2 w-20 align-middle sm:inline" max={100} value={l.percent} aria-hidden="true" />
              <span data-percent>{l.percent}%</span>
              <div className="text-xs text-muted-foreground">{t("lookup:list.rows", { done: l.processedRows, total: l.totalRows })}</div>
            </TableCell>
            <TableCell className="text-right tabular-nums">{l.validCount}</TableCell>
            <TableCell className="text-right tabular-nums">{l.invalidCount}</TableCell>
            <TableCell className="text-right tabular-nums">{l.badLines}</TableCell>
            <TableCell className="text-right tabular-nums">
              {formatMoney(l.charged - l.refunded, l.currency, lng)}
              {l.refunded ? <div className="text-xs text-muted-foreground">{t("lookup:list.refunded", { amount: formatMoney(l.refunded, l.currency, lng) })}</div> : null}
            </TableCell>
            <TableCell className="space-y-2">
              {l.status === "completed" || l.status === "failed" ? (
                <div className="flex flex-wrap gap-2 text-sm">
                  <Link className="underline" to={`/lookup/list?list=${l.id}`}>
                    {t("lookup:list.results")}
                  </Link>
                  <a className="underline" href={`/lookup/list/${l.id}/export`} download>
                    {t("lookup:export")}
                  </a>
                </div>
              ) : null}
              {l.status === "completed" && groups.length ? (
                <Form method="post" className="flex flex-wrap items-end gap-2">
                  <CsrfInput />
                  <input type="hidden" name="intent" value="clean" />
                  <input type="hidden" name="list_id" value={l.id} />
                  <label className="sr-only" htmlFor={`clean-${l.id}`}>
                    {t("lookup:clean.group")}
                  </label>
                  <NativeSelect id={`clean-${l.id}`} name="group_id" required defaultValue={l.groupId ?? ""} className="min-w-32">
                    <NativeSelectOption value="">{t("lookup:clean.pick")}</NativeSelectOption>
                    {groups.map((g) => (
                      <NativeSelectOption key={g.id} value={g.id}>
                        {g.name}
                      </NativeSelectOption>
                    ))}
                  </NativeSelect>
                  <Button type="submit" size="sm" variant="outline">
                    {t("lookup:clean.submit")}
                  </Button>
                </Form>
              ) : null}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

export default function LookupLists() {
  const { lists, groups, price, shown, results } = useLoaderData<typeof loader>();
  const last = useActionData<Reply>();
  const lng = useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR";
  const { t } = useTranslation("lookup");
  const busy = useNavigation().state === "submitting";
  const running = lists.some((l) => l.status === "queued" || l.status === "running");
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle") revalidator.revalidate();
    }, 2000);
    return () => clearInterval(timer);
  }, [running, revalidator]);
  const shownList = lists.find((l) => l.id === shown);
  return (
    <div className="space-y-6">
      <PageHeader description={t("lookup:list.description")} />
      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <h2 className="leading-none font-semibold">{t("lookup:list.upload.title")}</h2>
            <CardDescription>{t("lookup:list.upload.hint")}</CardDescription>
          </CardHeader>
          <CardContent>
            <Form method="post" encType="multipart/form-data" className="space-y-4" aria-busy={busy || undefined}>
              <CsrfInput />
              {last?.form === "upload" ? <FormErrors errors={last.formErrors} params={last.params} /> : null}
              {groups.length ? (
                <FormField label={t("lookup:list.upload.clean")} htmlFor="upload-clean" description={t("lookup:list.upload.cleanHint")}>
                  <NativeSelect id="upload-clean" name="clean_group_id" defaultValue="" aria-describedby="upload-clean-description">
                    <NativeSelectOption value="">{t("lookup:list.upload.noClean")}</NativeSelectOption>
                    {groups.map((g) => (
                      <NativeSelectOption key={g.id} value={g.id}>
                        {g.name}
                      </NativeSelectOption>
                    ))}
                  </NativeSelect>
                </FormField>
              ) : null}
              <FormField
                label={t("lookup:list.upload.file")}
                htmlFor="lookup-file"
                description={price ? t("lookup:list.price", { price: formatMoney(price.price, price.currency, lng) }) : undefined}
              >
                <input
                  id="lookup-file"
                  name="file"
                  type="file"
                  accept=".csv,text/csv"
                  required
                  aria-describedby={price ? "lookup-file-description" : undefined}
                  className="block w-full cursor-pointer rounded-md border border-input bg-transparent text-sm shadow-xs file:mr-3 file:cursor-pointer file:border-0 file:border-r file:border-input file:bg-muted file:px-3 file:py-2 file:text-sm file:font-medium focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
                />
              </FormField>
              <Button type="submit" disabled={busy}>
                {t("lookup:list.upload.submit")}
              </Button>
            </Form>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <h2 className="leading-none font-semibold">{t("lookup:list.group.title")}</h2>
            <CardDescription>{t("lookup:list.group.hint")}</CardDescription>
          </CardHeader>
          <CardContent>
            {groups.length === 0 ? (
              <p className="text-sm text-muted-foreground">{t("lookup:list.group.none")}</p>
            ) : (
              <Form method="post" className="space-y-4">
                <CsrfInput />
                <input type="hidden" name="intent" value="group" />
                {last?.form === "group" ? <FormErrors errors={last.formErrors} params={last.params} /> : null}
                <FormField label={t("lookup:list.group.group")} htmlFor="lookup-group">
                  <NativeSelect id="lookup-group" name="group_id" required defaultValue="">
                    <NativeSelectOption value="">{t("lookup:clean.pick")}</NativeSelectOption>
                    {groups.map((g) => (
                      <NativeSelectOption key={g.id} value={g.id}>
                        {g.name}
                      </NativeSelectOption>
                    ))}
                  </NativeSelect>
                </FormField>
                <label className="flex items-center gap-2 text-sm">
                  <input type="checkbox" name="clean" className="size-4" />
                  {t("lookup:list.group.clean")}
                </label>
                <Button type="submit">{t("lookup:list.group.submit")}</Button>
              </Form>
            )}
          </CardContent>
        </Card>
      </div>
      {last?.form === "clean" ? <FormErrors errors={last.formErrors} params={last.params} /> : null}
      <Card>
        <CardHeader>
          <h2 className="leading-none font-semibold">{t("lookup:list.recent")}</h2>
          {running ? (
            <CardDescription>
              <Link className="underline" to="/lookup/list">
                {t("lookup:list.refresh")}
              </Link>
            </CardDescription>
          ) : null}
        </CardHeader>
        <CardContent>
          {lists.length === 0 ? <p className="py-6 text-center text-sm text-muted-foreground">{t("lookup:list.empty")}</p> : <ListsTable lists={lists} groups={groups} lng={lng} />}
        </CardContent>
      </Card>
      {shownList ? (
        <Card>
          <CardHeader>
            <h2 className="leading-none font-semibold">{t("lookup:list.resultsOf", { name: shownList.name })}</h2>
            <CardDescription>{t("lookup:list.firstResults", { count: results.length })}</CardDescription>
          </CardHeader>
          <CardContent>
            <ResultsTable rows={results} lng={lng} withLine region={t("lookup:list.resultsOf", { name: shownList.name })} />
          </CardContent>
        </Card>
      ) : null}
    </div>
  );
}
