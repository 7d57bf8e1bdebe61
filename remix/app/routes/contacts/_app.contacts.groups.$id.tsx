/** /contacts/groups/{id}: a group's contacts (keyset pages of 50, filters) and removing them from it. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useLocation, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { bulkContacts, getGroup, isPrivileged, listCustomFields } from "~api/contacts/services";
import { isAppError } from "~api/lib/errors";
import { BulkErrors } from "~/components/contacts/bulk-errors";
import { ContactFilters } from "~/components/contacts/contact-filters";
import { ContactsTable } from "~/components/contacts/contacts-table";
import { KeysetNav } from "~/components/contacts/keyset-nav";
import { CsrfInput, FormErrors } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { intlLocale } from "~/lib/i18n";
import { redirectWithToast } from "~/lib/toast.server";
import type { RootData } from "~/root";

export const handle = {
  crumb: (data: unknown) => {
    const g = (data as { group?: { name: string } } | undefined)?.group;
    return g ? { key: "contacts:groups.detail.title", params: { name: g.name } } : "contacts:groups.detail.fallbackTitle";
  },
};

const FILTERS = ["q", "tag", "field", "value"] as const;
const BULK_FORM = "group-bulk";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const id = params.id ?? "";
  const search = new URL(request.url).searchParams;
  const filters = Object.fromEntries(FILTERS.map((k) => [k, search.get(k)?.trim() ?? ""])) as Record<(typeof FILTERS)[number], string>;
  const fields = await orHttpError(listCustomFields(ctx));
  let filterErrors: string[] = [];
  let result: Awaited<ReturnType<typeof getGroup>>;
  try {
    result = await getGroup(ctx, id, { ...filters, after: search.get("after") ?? undefined });
  } catch (e) {
    if (!isAppError(e) || !["VALIDATION", "FORBIDDEN"].includes(e.code)) return orHttpError(Promise.reject(e));
    filterErrors = e.fields ? Object.values(e.fields).flat() : [`errors.${e.code}`];
    result = { ...(await orHttpError(getGroup(ctx, id))), contacts: { data: [], next_cursor: null, next: null, total: 0, total_capped: false } };
  }
  const privileged = isPrivileged(ctx);
  return json({
    group: result.group,
    page: result.contacts,
    filters,
    filterErrors,
    fields: fields.filter((f) => privileged || !f.sensitive).map((f) => ({ key: f.key, label: f.label })),
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const id = params.id ?? "";
  await orHttpError(getGroup(ctx, id));
  const url = new URL(request.url);
  return handleForm(request, null, async (_, formData) => {
    const done = await bulkContacts(ctx, { action: "remove_from_group", ids: formData.getAll("ids"), group_id: id });
    return redirectWithToast(request, `/contacts/groups/${id}${url.search}`, { type: "success", title: "contacts:bulk.removed", params: { count: done.count } });
  });
}

export default function ContactGroup() {
  const { group, page, filters, filterErrors, fields } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const location = useLocation();
  const lng = useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR";
  const { t } = useTranslation(["contacts", "common"]);
  const params = new URLSearchParams(location.search);
  const fmt = (v: number) => new Intl.NumberFormat(intlLocale[lng]).format(v);
  const path = `/contacts/groups/${group.id}`;
  const filtered = Object.values(filters).some(Boolean);
  return (
    <div className="space-y-6">
      <PageHeader description={group.description || t("groups.members", { count: group.members })} />
      <Card>
        <CardHeader className="gap-4">
          <ContactFilters action={path} values={{ ...filters, group: "" }} fields={fields} />
          <FormErrors errors={filterErrors} />
          <CardDescription>
            {t("groups.members", { count: group.members })}
            {filtered ? ` · ${page.total_capped ? t("list.totalCapped", { n: fmt(page.total) }) : t("list.total", { count: page.total })}` : null}
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          {page.data.length === 0 ? (
            <p className="py-8 text-center text-sm text-muted-foreground">{filtered ? t("list.emptyFiltered") : t("groups.detail.empty")}</p>
          ) : (
            <Form method="post" id={BULK_FORM} key={location.key} className="space-y-4">
              <CsrfInput />
              <input type="hidden" name="intent" value="remove_from_group" />
              <BulkErrors result={last?.result} />
              <div className="flex flex-wrap items-center gap-2 rounded-md border bg-muted/30 p-3">
                <p className="text-sm text-muted-foreground">{t("groups.detail.removeHint")}</p>
                <Button type="submit" variant="secondary" disabled={busy}>
                  {t("bulk.removeFromGroup")}
                </Button>
              </div>
              <ContactsTable rows={page.data} lng={lng} formId={BULK_FORM} />
            </Form>
          )}
          <KeysetNav path={path} params={params} next={page.next} />
        </CardContent>
      </Card>
    </div>
  );
}
