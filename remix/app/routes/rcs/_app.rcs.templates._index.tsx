/**
 * /rcs/templates: the account's RCS templates (spec section 2), newest first — searched by name,
 * filtered by group, 50 a page; each row's type and groups, a link to edit; a bulk delete of the
 * rows ticked (behind a confirmation); and the template groups: create, delete (keeping or
 * deleting their templates), open one as the list's filter. Plain forms: works without JavaScript.
 */
import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "~api/lib/zod";
import { groupSchema } from "~api/rcs/agent-schema";
import { GROUP_DELETE_MODES } from "~api/rcs/constants";
import { canWriteTemplates, createGroup, deleteGroup, deleteTemplates, listGroups, listTemplates } from "~api/rcs/templates";
import { CsrfInput, FormErrors, TextField } from "~/components/forms/fields";
import { IntentForm } from "~/components/forms/intent-form";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { CursorPager } from "~/components/whatsapp/cursor-pager";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { useLazyValidate } from "~/lib/lazy-validate";
import { useTranslation } from "~/lib/react-i18n";
import { redirectWithToast } from "~/lib/toast.server";

export const handle = { crumb: "rcs:templates.list.title" };

const PAGE = 50;
const PATH = "/rcs/templates";
const bulkSchema = z.object({ intent: z.literal("bulk-delete"), ids: z.array(z.string()).min(1, "rcs.templates.errors.noneTicked") });
const groupDeleteSchema = z.object({ intent: z.literal("group-delete"), id: z.string().min(1, "validation.required"), mode: z.enum(GROUP_DELETE_MODES, "validation.option") });

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const url = new URL(request.url);
  const q = url.searchParams.get("q") ?? "";
  const group = url.searchParams.get("group") ?? "";
  const cursor = url.searchParams.get("cursor") ?? "";
  const [page, groups] = await Promise.all([
    orHttpError(listTemplates(ctx, { q: q || undefined, group_id: group, cursor: cursor || undefined, limit: PAGE })),
    orHttpError(listGroups(ctx)),
  ]);
  return json({ page, groups: groups.data, q, group, cursor, canWrite: canWriteTemplates(ctx) }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const intent = (await request.clone().formData()).get("intent");
  if (intent === "bulk-delete") {
    return handleForm(request, bulkSchema, async ({ ids }) => {
      const { deleted } = await deleteTemplates(ctx, { ids });
      return redirectWithToast(request, PATH, { type: "success", title: "rcs:templates.list.deleted", params: { count: deleted } });
    });
  }
  if (intent === "group-delete") {
    return handleForm(request, groupDeleteSchema, async ({ id, mode }) => {
      const { deleted } = await deleteGroup(ctx, id, mode);
      return redirectWithToast(request, PATH, { type: "success", title: "rcs:templates.groups.deleted", params: { count: deleted } });
    });
  }
  return handleForm(request, groupSchema, async (value) => {
    const { data } = await createGroup(ctx, value);
    return redirectWithToast(request, PATH, { type: "success", title: "rcs:templates.groups.created", params: { name: data.name } });
  });
}

function GroupForm({ last, busy }: { last?: FormReply; busy: boolean }) {
  const { t } = useTranslation("rcs");
  const sent = last?.result.initialValue as { intent?: string } | undefined;
  const [form, fields] = useForm({
    id: "rcs-group-add",
    lastResult: sent?.intent === "group-add" ? last?.result : undefined,
    onValidate: useLazyValidate(() => import("~api/rcs/agent-schema").then((m) => m.groupSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-3">
      <CsrfInput />
      <input type="hidden" name="intent" value="group-add" />
      <FormErrors errors={form.errors} />
      <TextField field={fields.name} label={t("templates.groups.name")} autoComplete="off" />
      <Button type="submit" size="sm" disabled={busy}>
        {t("templates.groups.create")}
      </Button>
    </Form>
  );
}

export default function RcsTemplates() {
  const { page, groups, q, group, cursor, canWrite } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation("rcs");
  const sent = last?.result.initialValue as { intent?: string } | undefined;
  const groupName = new Map(groups.map((g) => [g.id, g.name]));
  const href = (c?: string) => {
    const p = new URLSearchParams();
    if (q) p.set("q", q);
    if (group) p.set("group", group);
    if (c) p.set("cursor", c);
    const s = p.toString();
    return s ? `${PATH}?${s}` : PATH;
  };
  return (
    <div className="space-y-6">
      <PageHeader
        description={t("templates.list.description")}
        actions={
          canWrite ? (
            <Button asChild size="sm">
              <Link to={group ? `/rcs/templates/new?group=${group}` : "/rcs/templates/new"}>{t("templates.list.new")}</Link>
            </Button>
          ) : null
        }
      />
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,1fr)_18rem]">
        <Card>
          <CardContent className="space-y-4 pt-6">
            <Form method="get" className="flex flex-wrap items-end gap-2" role="search">
              <div className="grid min-w-0 flex-1 gap-1">
                <Label htmlFor="rcs-templates-q">{t("templates.list.search")}</Label>
                <Input id="rcs-templates-q" name="q" defaultValue={q} type="search" />
              </div>
              <div className="grid gap-1">
                <Label htmlFor="rcs-templates-group">{t("templates.fields.group")}</Label>
                <NativeSelect id="rcs-templates-group" name="group" defaultValue={group}>
                  <NativeSelectOption value="">{t("templates.list.allGroups")}</NativeSelectOption>
                  {groups.map((g) => (
                    <NativeSelectOption key={g.id} value={g.id}>
                      {g.name}
                    </NativeSelectOption>
                  ))}
                </NativeSelect>
              </div>
              <Button type="submit" variant="outline" size="sm">
                {t("templates.list.filter")}
              </Button>
            </Form>
            {page.data.length === 0 ? (
              <p className="py-6 text-center text-sm text-muted-foreground" data-empty>
                {q || group ? t("templates.list.noMatch") : t("templates.list.empty")}
              </p>
            ) : (
              <Form method="post" className="space-y-3">
                <CsrfInput />
                <input type="hidden" name="intent" value="bulk-delete" />
                <FormErrors errors={sent?.intent === "bulk-delete" ? [...(last?.result.error?.ids ?? []), ...(last?.result.error?.[""] ?? [])] : undefined} />
                <Table>
                  <TableHeader>
                    <TableRow>
                      {canWrite ? (
                        <TableHead className="w-8">
                          <span className="sr-only">{t("templates.list.select")}</span>
                        </TableHead>
                      ) : null}
                      <TableHead>{t("templates.fields.name")}</TableHead>
                      <TableHead>{t("templates.fields.type")}</TableHead>
                      <TableHead>{t("templates.fields.group")}</TableHead>
                    </TableRow>
                  </TableHeader>
                  <TableBody>
                    {page.data.map((tpl) => (
                      <TableRow key={tpl.id} data-template-id={tpl.id}>
                        {canWrite ? (
                          <TableCell>
                            <input type="checkbox" name="ids" value={tpl.id} aria-label={t("templates.list.selectOne", { name: tpl.name })} className="size-4 accent-primary" />
                          </TableCell>
                        ) : null}
                        <TableCell className="font-medium">
                          {canWrite ? (
                            <Link to={`/rcs/templates/edit?id=${tpl.id}`} className="underline-offset-2 hover:underline">
                              {tpl.name}
                            </Link>
                          ) : (
                            tpl.name
                          )}
                        </TableCell>
                        <TableCell>{t(`templates.types.${tpl.content.type}`)}</TableCell>
                        <TableCell className="whitespace-normal text-muted-foreground">
                          {tpl.group_ids
                            .map((g) => groupName.get(g))
                            .filter(Boolean)
                            .join(", ") || "—"}
                        </TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
                {canWrite ? (
                  <details>
                    <summary className="inline-flex h-8 cursor-pointer list-none items-center rounded-md border border-destructive/40 px-3 text-sm font-medium text-destructive hover:bg-destructive/10">
                      {t("templates.list.bulkDelete")}
                    </summary>
                    <div className="mt-2 max-w-72 space-y-2 rounded-md border bg-popover p-3 text-sm shadow-sm">
                      <p>{t("templates.list.bulkDeleteBody")}</p>
                      <Button type="submit" variant="destructive" size="sm">
                        {t("templates.list.bulkDeleteConfirm")}
                      </Button>
                    </div>
                  </details>
                ) : null}
              </Form>
            )}
            <CursorPager cursor={cursor} next={page.next_cursor} href={href} />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>
              <h2>{t("templates.groups.title")}</h2>
            </CardTitle>
            <CardDescription>{t("templates.groups.intro")}</CardDescription>
          </CardHeader>
          <CardContent className="space-y-4">
            {groups.length === 0 ? <p className="text-sm text-muted-foreground">{t("templates.groups.empty")}</p> : null}
            <ul className="space-y-3">
              {groups.map((g) => (
                <li key={g.id} data-group-id={g.id} className="space-y-1">
                  <Link to={`${PATH}?group=${g.id}`} className="font-medium underline-offset-2 hover:underline">
                    {g.name}
                  </Link>
                  <span className="ml-1 text-xs text-muted-foreground">{t("templates.groups.count", { count: g.template_ids.length })}</span>
                  {canWrite ? (
                    <details>
                      <summary className="cursor-pointer text-xs text-destructive">{t("templates.groups.delete")}</summary>
                      <IntentForm intent="group-delete" rowId={g.id} className="mt-2 space-y-2 rounded-md border p-2">
                        <Label htmlFor={`rcs-group-mode-${g.id}`}>{t("templates.groups.mode")}</Label>
                        <NativeSelect id={`rcs-group-mode-${g.id}`} name="mode" defaultValue="keep">
                          {GROUP_DELETE_MODES.map((m) => (
                            <NativeSelectOption key={m} value={m}>
                              {t(`templates.groups.modes.${m}`)}
                            </NativeSelectOption>
                          ))}
                        </NativeSelect>
                        <Button type="submit" size="sm" variant="destructive" aria-label={t("templates.groups.deleteLabel", { name: g.name })}>
                          {t("templates.groups.deleteConfirm")}
                        </Button>
                      </IntentForm>
                    </details>
                  ) : null}
                </li>
              ))}
            </ul>
            {canWrite ? <GroupForm last={last} busy={busy} /> : null}
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
