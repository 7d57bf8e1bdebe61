/**
 * /sms/templates: the account's SMS templates with their {{variables}}; create, edit (?edit=<id>),
 * delete one (confirmation disclosure) and delete the checked ones. No JavaScript needed.
 */
import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { smsTemplateSchema } from "~api/sms/schemas";
import { createSmsTemplate, deleteSmsTemplate, deleteSmsTemplates, listSmsTemplates, updateSmsTemplate } from "~api/sms/templates";
import { ConfirmDelete } from "~/components/forms/confirm-delete";
import { TextareaField } from "~/components/forms/controls";
import { CsrfInput, ErrorText, FormErrors, TextField } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { deleteIntentSchema, handleForm, type FormReply } from "~/lib/forms.server";
import { redirectWithToast } from "~/lib/toast.server";
import { bulkTemplatesSchema, editTemplateSchema } from "~/forms/sms";
import { useLazyValidate } from "~/lib/lazy-validate";

export const handle = { crumb: "sms:templates.title" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const { data } = await orHttpError(listSmsTemplates(ctx));
  const editId = new URL(request.url).searchParams.get("edit");
  return json({ templates: data, editing: data.find((t) => t.id === editId) ?? null });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const intent = (await request.clone().formData()).get("intent");
  if (intent === "edit") {
    return handleForm(request, editTemplateSchema, async ({ id, name, body }) => {
      const t = await updateSmsTemplate(ctx, id, { name, body });
      return redirectWithToast(request, "/sms/templates", { type: "success", title: "sms:templates.edit.saved", params: { name: t.name } });
    });
  }
  if (intent === "delete") {
    return handleForm(request, deleteIntentSchema, async ({ id }) => {
      const t = await deleteSmsTemplate(ctx, id);
      return redirectWithToast(request, "/sms/templates", { type: "success", title: "sms:templates.delete.deleted", params: { name: t.name } });
    });
  }
  if (intent === "bulk") {
    return handleForm(request, bulkTemplatesSchema, async ({ ids }) => {
      const r = await deleteSmsTemplates(ctx, { ids });
      return redirectWithToast(request, "/sms/templates", { type: "success", title: "sms:templates.bulk.deleted", params: { count: r.deleted } });
    });
  }
  return handleForm(request, smsTemplateSchema, async (value) => {
    const t = await createSmsTemplate(ctx, value);
    return redirectWithToast(request, "/sms/templates", { type: "success", title: "sms:templates.create.created", params: { name: t.name } });
  });
}

export default function SmsTemplates() {
  const { templates, editing } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation(["sms", "common"]);
  const sent = last?.result.initialValue as { intent?: string; id?: string } | undefined;
  const bulkErrors = sent?.intent === "bulk" ? [...(last?.result.error?.ids ?? []), ...(last?.result.error?.[""] ?? [])] : undefined;
  const deleteReply = sent?.intent === "delete" ? sent.id : undefined;
  const formReply = sent?.intent === "bulk" || sent?.intent === "delete" ? undefined : last?.result;
  const [form, fields] = useForm({
    id: editing ? `template-edit-${editing.id}` : "template-create",
    lastResult: formReply,
    defaultValue: editing ? { name: editing.name, body: editing.body } : undefined,
    onValidate: useLazyValidate(() => import("~/forms/sms").then((m) => (editing ? m.editTemplateSchema : m.smsTemplateSchema))),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <div className="space-y-6">
      <PageHeader description={t("templates.description")} />
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,1fr)_24rem]">
        <Card>
          <CardContent className="space-y-4">
            {templates.length === 0 ? (
              <p className="py-8 text-center text-sm text-muted-foreground">{t("templates.empty")}</p>
            ) : (
              <>
                <Table>
                  <TableHeader>
                    <TableRow>
                      <TableHead className="w-8">
                        <span className="sr-only">{t("templates.bulk.column")}</span>
                      </TableHead>
                      <TableHead>{t("templates.name")}</TableHead>
                      <TableHead>{t("templates.body")}</TableHead>
                      <TableHead>{t("templates.variables")}</TableHead>
                      <TableHead className="text-right">{t("templates.actions")}</TableHead>
                    </TableRow>
                  </TableHeader>
                  <TableBody>
                    {templates.map((tpl) => (
                      <TableRow key={tpl.id} data-template-id={tpl.id}>
                        <TableCell className="align-top">
                          <input type="checkbox" name="ids" value={tpl.id} form="templates-bulk" aria-label={t("templates.bulk.select", { name: tpl.name })} className="size-4" />
                        </TableCell>
                        <TableCell className="align-top font-medium">{tpl.name}</TableCell>
                        <TableCell className="max-w-sm align-top whitespace-pre-wrap break-words text-muted-foreground">{tpl.body}</TableCell>
                        <TableCell className="align-top">
                          {tpl.variables.length ? (
                            <ul className="flex flex-wrap gap-1">
                              {tpl.variables.map((v) => (
                                <li key={v}>
                                  <code className="rounded bg-muted px-1.5 py-0.5 text-xs">{`{{${v}}}`}</code>
                                </li>
                              ))}
                            </ul>
                          ) : (
                            <span className="text-muted-foreground">{t("templates.none")}</span>
                          )}
                        </TableCell>
                        <TableCell className="text-right align-top">
                          <div className="flex flex-wrap items-start justify-end gap-2">
                            <Button asChild size="sm" variant="outline">
                              <Link to={`/sms/send?template=${tpl.id}`}>{t("templates.use")}</Link>
                            </Button>
                            <Button asChild size="sm" variant="outline">
                              <Link to={`/sms/templates?edit=${tpl.id}`} aria-label={t("templates.edit.label", { name: tpl.name })}>
                                {t("templates.edit.link")}
                              </Link>
                            </Button>
                            <ConfirmDelete
                              id={tpl.id}
                              errors={deleteReply === tpl.id ? last?.result.error?.[""] : undefined}
                              summary={t("templates.delete.summary")}
                              label={t("templates.delete.label", { name: tpl.name })}
                              body={t("templates.delete.body", { name: tpl.name })}
                              confirm={t("templates.delete.confirm")}
                            />
                          </div>
                        </TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
                <Form method="post" id="templates-bulk" className="flex flex-wrap items-center gap-3">
                  <CsrfInput />
                  <input type="hidden" name="intent" value="bulk" />
                  <Button type="submit" variant="destructive" size="sm" disabled={busy}>
                    {t("templates.bulk.submit")}
                  </Button>
                  <ErrorText errors={bulkErrors} />
                </Form>
              </>
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <h2 className="leading-none font-semibold">{editing ? t("templates.edit.title") : t("templates.create.title")}</h2>
          </CardHeader>
          <CardContent>
            <Form method="post" action="/sms/templates" {...getFormProps(form)} className="space-y-4">
              <CsrfInput />
              <input type="hidden" name="intent" value={editing ? "edit" : "create"} />
              {editing ? <input type="hidden" name="id" value={editing.id} /> : null}
              <FormErrors errors={form.errors} />
              <TextField field={fields.name} label={t("templates.name")} autoComplete="off" />
              <TextareaField field={fields.body} label={t("templates.body")} description={t("templates.bodyHint")} />
              <div className="flex gap-2">
                <Button type="submit" className="flex-1" disabled={busy}>
                  {editing ? t("templates.edit.submit") : t("templates.create.submit")}
                </Button>
                {editing ? (
                  <Button asChild variant="outline">
                    <Link to="/sms/templates">{t("templates.edit.cancel")}</Link>
                  </Button>
                ) : null}
              </div>
            </Form>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
