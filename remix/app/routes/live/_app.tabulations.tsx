/**
 * /tabulations: the account's tabulations (plan permission "tab"): create, rename, activate or
 * deactivate, delete (with confirmation). Every form is a plain POST; no JavaScript needed.
 */
import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { z } from "~api/lib/zod";
import { isLiveWriter } from "~api/live/access";
import { tabulationSchema } from "~api/live/schemas";
import { createTabulation, deleteTabulation, listTabulations, renameTabulation, setTabulationActive } from "~api/live/tabulations";
import { ConfirmDeleteRow } from "~/components/forms/confirm-delete";
import { IntentForm } from "~/components/forms/intent-form";
import { ErrorText, FormErrors, TextField } from "~/components/forms/fields";
import { EmptyRow, useReplyFor } from "~/components/live/parts";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { deleteIntentSchema, handleForm } from "~/lib/forms.server";
import { redirectWithToast } from "~/lib/toast.server";
import { useLazyValidate } from "~/lib/lazy-validate";

export const handle = { crumb: "live:tabulations.title" };

const id = z.string().min(1, "validation.required");
const renameSchema = tabulationSchema.extend({ intent: z.literal("rename"), id });
const toggleSchema = z.object({ intent: z.literal("toggle"), id, active: z.enum(["true", "false"]) });

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  return json({ tabulations: await orHttpError(listTabulations(ctx)), canEdit: isLiveWriter(ctx) });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const intent = (await request.clone().formData()).get("intent");
  const done = (title: string, name: string) => redirectWithToast(request, "/tabulations", { type: "success", title, params: { name } });
  if (intent === "rename") return handleForm(request, renameSchema, async (v) => done("live:tabulations.rename.saved", (await renameTabulation(ctx, v.id, v)).name));
  if (intent === "toggle") {
    return handleForm(request, toggleSchema, async (v) => {
      const tab = await setTabulationActive(ctx, v.id, { active: v.active });
      return done(tab.active ? "live:tabulations.toggle.activated" : "live:tabulations.toggle.deactivated", tab.name);
    });
  }
  if (intent === "delete") return handleForm(request, deleteIntentSchema, async (v) => done("live:tabulations.delete.deleted", (await deleteTabulation(ctx, v.id)).name));
  return handleForm(request, tabulationSchema, async (v) => done("live:tabulations.create.created", (await createTabulation(ctx, v)).name));
}

export default function Tabulations() {
  const { tabulations, canEdit } = useLoaderData<typeof loader>();
  const { t } = useTranslation(["live", "common"]);
  const busy = useNavigation().state === "submitting";
  const reply = useReplyFor();
  const [form, fields] = useForm({
    id: "tabulation-create",
    lastResult: reply.of("create"),
    onValidate: useLazyValidate(() => import("~api/live/schemas").then((m) => m.tabulationSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <div className="space-y-6">
      <PageHeader description={t("tabulations.description")} />
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <Card>
          <CardContent>
            {tabulations.length === 0 ? (
              <EmptyRow>{t("tabulations.empty")}</EmptyRow>
            ) : (
              <Table data-testid="tabulations">
                <TableHeader>
                  <TableRow>
                    <TableHead>{t("tabulations.name")}</TableHead>
                    <TableHead>{t("tabulations.status")}</TableHead>
                    {canEdit ? <TableHead className="text-right">{t("tabulations.actions")}</TableHead> : null}
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {tabulations.map((tab) => (
                    <TableRow key={tab.id} data-tabulation-id={tab.id}>
                      <TableCell className="align-top font-medium">
                        {canEdit ? (
                          <IntentForm intent="rename" rowId={tab.id} className="flex flex-wrap items-start gap-2">
                            <Input
                              name="name"
                              defaultValue={tab.name}
                              aria-label={t("tabulations.rename.label", { name: tab.name })}
                              className="h-8 max-w-56"
                              required
                              maxLength={120}
                            />
                            <Button type="submit" size="sm" variant="outline" disabled={busy}>
                              {t("tabulations.rename.submit")}
                            </Button>
                            <ErrorText errors={reply.errorsOf("rename", tab.id)} className="basis-full" />
                          </IntentForm>
                        ) : (
                          tab.name
                        )}
                      </TableCell>
                      <TableCell className="align-top">
                        <Badge variant={tab.active ? "default" : "secondary"}>{tab.active ? t("tabulations.active") : t("tabulations.inactive")}</Badge>
                      </TableCell>
                      {canEdit ? (
                        <TableCell className="text-right align-top">
                          <div className="flex flex-wrap items-start justify-end gap-2">
                            <IntentForm intent="toggle" rowId={tab.id} values={{ active: tab.active ? "false" : "true" }}>
                              <Button
                                type="submit"
                                size="sm"
                                variant="outline"
                                disabled={busy}
                                aria-label={t(tab.active ? "tabulations.toggle.deactivateLabel" : "tabulations.toggle.activateLabel", { name: tab.name })}
                              >
                                {tab.active ? t("tabulations.toggle.deactivate") : t("tabulations.toggle.activate")}
                              </Button>
                            </IntentForm>
                            <ConfirmDeleteRow t={t} prefix="tabulations" params={{ name: tab.name }} id={tab.id} errors={reply.errorsOf("delete", tab.id)} />
                          </div>
                        </TableCell>
                      ) : null}
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
          </CardContent>
        </Card>
        {canEdit ? (
          <Card>
            <CardHeader>
              <h2 className="leading-none font-semibold">{t("tabulations.create.title")}</h2>
            </CardHeader>
            <CardContent>
              <IntentForm intent="create" {...getFormProps(form)} className="space-y-4">
                <FormErrors errors={form.errors} />
                <TextField field={fields.name} label={t("tabulations.name")} autoComplete="off" />
                <Button type="submit" className="w-full" disabled={busy}>
                  {t("tabulations.create.submit")}
                </Button>
              </IntentForm>
            </CardContent>
          </Card>
        ) : null}
      </div>
    </div>
  );
}
