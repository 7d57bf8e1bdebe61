/**
 * /contacts: search and filters (GET form), a keyset-paged table (50 a page) with a checkbox per
 * row, and bulk actions (add to a group, delete with confirmation) in one POST form.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { isAppError } from "~api/lib/errors";
import { bulkContacts, groupOptions, isPrivileged, listContacts, listCustomFields, type ContactPage } from "~api/contacts/services";
import { BulkErrors } from "~/components/contacts/bulk-errors";
import { ContactFilters } from "~/components/contacts/contact-filters";
import { ContactsTable } from "~/components/contacts/contacts-table";
import { KeysetNav } from "~/components/contacts/keyset-nav";
import { CsrfInput, FormErrors } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { intlLocale } from "~/lib/i18n";
import { redirectWithToast } from "~/lib/toast.server";
import type { RootData } from "~/root";

const FILTERS = ["q", "group", "tag", "field", "value"] as const;
const BULK_FORM = "contacts-bulk";

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const params = new URL(request.url).searchParams;
  const filters = Object.fromEntries(FILTERS.map((k) => [k, params.get(k)?.trim() ?? ""])) as Record<(typeof FILTERS)[number], string>;
  const [groups, fields] = await Promise.all([orHttpError(groupOptions(ctx)), orHttpError(listCustomFields(ctx))]);
  let page: ContactPage = { data: [], next_cursor: null, next: null, total: 0, total_capped: false };
  let filterErrors: string[] = [];
  try {
    page = await listContacts(ctx, { ...filters, after: params.get("after") ?? undefined });
  } catch (e) {
    // A filter that cannot run (a value the field's type refuses, a hidden field) is said on the page.
    if (!isAppError(e) || !["VALIDATION", "FORBIDDEN"].includes(e.code)) throw e;
    filterErrors = e.fields ? Object.values(e.fields).flat() : [`errors.${e.code}`];
  }
  const privileged = isPrivileged(ctx);
  return json({
    page,
    filters,
    filterErrors,
    groups,
    fields: fields.filter((f) => privileged || !f.sensitive).map((f) => ({ key: f.key, label: f.label })),
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const url = new URL(request.url);
  url.searchParams.delete("index");
  const back = `/contacts${url.search}`;
  return handleForm(request, null, async (_, formData) => {
    const done = await bulkContacts(ctx, { action: formData.get("intent"), ids: formData.getAll("ids"), group_id: formData.get("group_id") });
    const title = done.action === "delete" ? "contacts:bulk.deleted" : "contacts:bulk.added";
    return redirectWithToast(request, back, { type: "success", title, params: { count: done.count } });
  });
}

export default function Contacts() {
  const { page, filters, filterErrors, groups, fields } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const location = useLocation();
  const lng = useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR";
  const { t } = useTranslation(["contacts", "common"]);
  const params = new URLSearchParams(location.search);
  params.delete("index");
  const n = new Intl.NumberFormat(intlLocale[lng]).format(page.total);
  const filtered = Object.values(filters).some(Boolean);
  return (
    <div className="space-y-6">
      <PageHeader
        description={t("description")}
        actions={
          <>
            <Button asChild>
              <Link to="/contacts/new">{t("actions.new")}</Link>
            </Button>
            <Button asChild variant="outline">
              <Link to="/contacts/import">{t("actions.import")}</Link>
            </Button>
            <Button asChild variant="outline">
              <Link to="/contacts/groups">{t("actions.groups")}</Link>
            </Button>
            <Button asChild variant="outline">
              <Link to="/contacts/fields">{t("actions.fields")}</Link>
            </Button>
          </>
        }
      />
      <Card>
        <CardHeader className="gap-4">
          <ContactFilters action="/contacts" values={filters} groups={groups} fields={fields} />
          <FormErrors errors={filterErrors} />
          <CardDescription>{page.total_capped ? t("list.totalCapped", { n }) : t("list.total", { count: page.total })}</CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          {page.data.length === 0 ? (
            <p className="py-8 text-center text-sm text-muted-foreground">{filtered ? t("list.emptyFiltered") : t("list.empty")}</p>
          ) : (
            <Form method="post" id={BULK_FORM} key={location.key} className="space-y-4">
              <CsrfInput />
              <BulkErrors result={last?.result} />
              <div className="flex flex-wrap items-end gap-2 rounded-md border bg-muted/30 p-3">
                <div className="grid gap-1.5">
                  <Label htmlFor="bulk-group">{t("bulk.group")}</Label>
                  <NativeSelect id="bulk-group" name="group_id" defaultValue="" className="min-w-48">
                    <NativeSelectOption value="">{t("bulk.chooseGroupOption")}</NativeSelectOption>
                    {groups.map((g) => (
                      <NativeSelectOption key={g.id} value={g.id}>
                        {g.name}
                      </NativeSelectOption>
                    ))}
                  </NativeSelect>
                </div>
                <Button type="submit" name="intent" value="add_to_group" variant="secondary" disabled={busy}>
                  {t("bulk.addToGroup")}
                </Button>
                <details className="relative">
                  <summary className="inline-flex h-9 cursor-pointer list-none items-center rounded-md border border-destructive/40 px-3 text-sm font-medium text-destructive hover:bg-destructive/10">
                    {t("bulk.delete")}
                  </summary>
                  <div className="mt-2 max-w-72 space-y-2 rounded-md border bg-popover p-3 text-sm shadow-sm">
                    <p>{t("bulk.deleteBody")}</p>
                    <Button type="submit" name="intent" value="delete" variant="destructive" size="sm" disabled={busy}>
                      {t("bulk.deleteConfirm")}
                    </Button>
                  </div>
                </details>
              </div>
              <ContactsTable rows={page.data} lng={lng} formId={BULK_FORM} />
            </Form>
          )}
          <KeysetNav path="/contacts" params={params} next={page.next} />
        </CardContent>
      </Card>
    </div>
  );
}
