/**
 * /mail/templates (issue 17): the account's e-mail templates — name, subject, variables, active or
 * inactive (a button turns it over; an inactive one is refused at send), edit, copy, delete one,
 * delete the checked ones — and the template library (the platform's entries and the account's
 * own): start a template from an entry. Plain forms: works without JavaScript.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { deleteEmailLib, listEmailLibs } from "~api/email/libs";
import { deleteEmailTemplate, deleteEmailTemplates, listEmailTemplates, setEmailTemplateActive } from "~api/email/templates";
import { z } from "~api/lib/zod";
import { ConfirmDelete } from "~/components/forms/confirm-delete";
import { CsrfInput, ErrorText } from "~/components/forms/fields";
import { IntentForm } from "~/components/forms/intent-form";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { deleteIntentSchema, handleForm, type FormReply } from "~/lib/forms.server";
import { bulkIdsSchema } from "~/forms/bulk";
import { redirectWithToast } from "~/lib/toast.server";

export const handle = { crumb: "emailTemplates:crumbs.templates" };
const PATH = "/mail/templates";

const bulkSchema = bulkIdsSchema("emailTemplates.bulk.none");
const toggleSchema = z.object({ intent: z.literal("toggle"), id: z.string().min(1, "validation.required"), active: z.enum(["true", "false"]) });
const deleteLibSchema = z.object({ intent: z.literal("deleteLib"), id: z.string().min(1, "validation.required") });

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const [templates, libs] = await Promise.all([orHttpError(listEmailTemplates(ctx, { limit: "200" })), orHttpError(listEmailLibs(ctx, { limit: "200" }))]);
  const strip = <T extends { html: string; mjml: string }>({ html: _h, mjml: _m, ...rest }: T) => rest;
  return json({ templates: templates.data.map(strip), libs: libs.data.map(strip) }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const intent = (await request.clone().formData()).get("intent");
  if (intent === "toggle") {
    return handleForm(request, toggleSchema, async ({ id, active }) => {
      const { data } = await setEmailTemplateActive(ctx, id, active === "true");
      return redirectWithToast(request, `${PATH}#template-${id}`, {
        type: "success",
        title: data.active ? "emailTemplates:list.activated" : "emailTemplates:list.deactivated",
        params: { name: data.name },
      });
    });
  }
  if (intent === "delete") {
    return handleForm(request, deleteIntentSchema, async ({ id }) => {
      await deleteEmailTemplate(ctx, id);
      return redirectWithToast(request, PATH, { type: "success", title: "emailTemplates:list.deleted" });
    });
  }
  if (intent === "deleteLib") {
    return handleForm(request, deleteLibSchema, async ({ id }) => {
      await deleteEmailLib(ctx, id);
      return redirectWithToast(request, `${PATH}#library`, { type: "success", title: "emailTemplates:library.deleted" });
    });
  }
  return handleForm(request, bulkSchema, async ({ ids }) => {
    const r = await deleteEmailTemplates(ctx, { ids });
    return redirectWithToast(request, PATH, { type: "success", title: "emailTemplates:bulk.deleted", params: { count: r.deleted } });
  });
}

export default function MailTemplates() {
  const { templates, libs } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation("emailTemplates");
  const sent = last?.result.initialValue as { intent?: string; id?: string } | undefined;
  const bulkErrors = sent?.intent === "bulk" ? [...(last?.result.error?.ids ?? []), ...(last?.result.error?.[""] ?? [])] : undefined;
  const rowErrors = (id: string) => (sent?.id === id ? last?.result.error?.[""] : undefined);
  return (
    <div className="space-y-6">
      <PageHeader
        description={t("list.description")}
        actions={
          <Button asChild>
            <Link to="/mail/templates/create">{t("list.new")}</Link>
          </Button>
        }
      />
      <Card>
        <CardContent className="space-y-4">
          {templates.length === 0 ? (
            <p className="py-8 text-center text-sm text-muted-foreground" data-testid="templates-empty">
              {t("list.empty")}
            </p>
          ) : (
            <>
              <Table>
                <TableHeader>
                  <TableRow>
                    <TableHead className="w-8">
                      <span className="sr-only">{t("bulk.column")}</span>
                    </TableHead>
                    <TableHead>{t("fields.name")}</TableHead>
                    <TableHead>{t("fields.subject")}</TableHead>
                    <TableHead>{t("list.variables")}</TableHead>
                    <TableHead>{t("list.status")}</TableHead>
                    <TableHead className="text-right">{t("list.actions")}</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {templates.map((tpl) => (
                    <TableRow key={tpl.id} id={`template-${tpl.id}`} data-template-id={tpl.id}>
                      <TableCell className="align-top">
                        <input type="checkbox" name="ids" value={tpl.id} form="templates-bulk" aria-label={t("bulk.select", { name: tpl.name })} className="size-4" />
                      </TableCell>
                      <TableCell className="align-top font-medium">{tpl.name}</TableCell>
                      <TableCell className="max-w-xs align-top break-words text-muted-foreground">{tpl.subject}</TableCell>
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
                          <span className="text-muted-foreground">{t("list.none")}</span>
                        )}
                      </TableCell>
                      <TableCell className="align-top">
                        <div className="flex flex-col items-start gap-2">
                          <Badge variant={tpl.active ? "success" : "secondary"} data-testid="template-status">
                            {tpl.active ? t("list.active") : t("list.inactive")}
                          </Badge>
                          <IntentForm intent="toggle" rowId={tpl.id} values={{ active: tpl.active ? "false" : "true" }}>
                            <Button
                              type="submit"
                              size="sm"
                              variant="outline"
                              disabled={busy}
                              aria-label={t(tpl.active ? "list.deactivateLabel" : "list.activateLabel", { name: tpl.name })}
                            >
                              {tpl.active ? t("list.deactivate") : t("list.activate")}
                            </Button>
                          </IntentForm>
                          <ErrorText errors={sent?.intent === "toggle" ? rowErrors(tpl.id) : undefined} />
                        </div>
                      </TableCell>
                      <TableCell className="text-right align-top">
                        <div className="flex flex-wrap items-start justify-end gap-2">
                          {tpl.active ? (
                            <Button asChild size="sm" variant="outline">
                              <Link to={`/mail/send?template=${tpl.id}`}>{t("list.use")}</Link>
                            </Button>
                          ) : null}
                          <Button asChild size="sm" variant="outline">
                            <Link to={`/mail/templates/create/${tpl.id}`} aria-label={t("list.editLabel", { name: tpl.name })}>
                              {t("list.edit")}
                            </Link>
                          </Button>
                          <Button asChild size="sm" variant="outline">
                            <Link to={`/mail/templates/create/${tpl.id}/0/1`} aria-label={t("list.copyLabel", { name: tpl.name })}>
                              {t("list.copy")}
                            </Link>
                          </Button>
                          <ConfirmDelete
                            id={tpl.id}
                            errors={sent?.intent === "delete" ? rowErrors(tpl.id) : undefined}
                            summary={t("delete.summary")}
                            label={t("delete.label", { name: tpl.name })}
                            body={t("delete.body", { name: tpl.name })}
                            confirm={t("delete.confirm")}
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
                  {t("bulk.submit")}
                </Button>
                <ErrorText errors={bulkErrors} />
              </Form>
            </>
          )}
        </CardContent>
      </Card>

      <section id="library" className="space-y-3" aria-labelledby="library-title">
        <div>
          <h2 id="library-title" className="text-lg font-semibold">
            {t("library.title")}
          </h2>
          <p className="text-sm text-muted-foreground">{t("library.description")}</p>
        </div>
        {libs.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t("library.empty")}</p>
        ) : (
          <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
            {libs.map((lib) => (
              <Card key={lib.id} data-lib-id={lib.id}>
                <CardHeader>
                  <CardTitle className="flex items-center gap-2">
                    {lib.name}
                    <Badge variant="outline">{lib.platform ? t("library.platform") : t("library.own")}</Badge>
                  </CardTitle>
                  {lib.description ? <CardDescription>{lib.description}</CardDescription> : null}
                </CardHeader>
                <CardContent className="flex flex-wrap items-start gap-2">
                  <Button asChild size="sm">
                    <Link to={`/mail/templates/create/${lib.id}/1`} aria-label={t("library.useLabel", { name: lib.name })}>
                      {t("library.use")}
                    </Link>
                  </Button>
                  {lib.platform ? null : (
                    <ConfirmDelete
                      id={lib.id}
                      intent="deleteLib"
                      errors={sent?.intent === "deleteLib" ? rowErrors(lib.id) : undefined}
                      summary={t("delete.summary")}
                      label={t("library.deleteLabel", { name: lib.name })}
                      body={t("library.deleteBody", { name: lib.name })}
                      confirm={t("delete.confirm")}
                    />
                  )}
                </CardContent>
              </Card>
            ))}
          </div>
        )}
      </section>
    </div>
  );
}
