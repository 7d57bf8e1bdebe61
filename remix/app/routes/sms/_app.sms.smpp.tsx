/**
 * /sms/smpp: the account's SMPP users (credentials for our SMPP server). Create (the generated
 * password is shown once, in the answer to that POST), edit route/tps/enabled (optionally a new
 * password, shown once the same way), delete. Plain forms: no JavaScript needed.
 */
import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { env } from "~api/lib/env";
import { z } from "~api/lib/zod";
import { createSmppUserSchema, updateSmppUserSchema } from "~api/smpp/schemas";
import { MAX_TPS } from "~api/smpp/constants";
import { createSmppUser, deleteSmppUser, listSmppUsers, updateSmppUser } from "~api/smpp/users";
import { SMS_ROUTES } from "~api/sms/constants";
import { ConfirmDelete } from "~/components/forms/confirm-delete";
import { CheckboxField, SelectField } from "~/components/forms/controls";
import { CsrfInput, ErrorText, FormErrors, TextField } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { formatDate } from "~/lib/format";
import { deleteIntentSchema, handleForm, type FormReply } from "~/lib/forms.server";
import { redirectWithToast } from "~/lib/toast.server";
import type { RootData } from "~/root";
import { useLazyValidate } from "~/lib/lazy-validate";

export const handle = { crumb: "smpp:users.title" };

const editSchema = updateSmppUserSchema.extend({ intent: z.literal("edit"), id: z.string().min(1, "validation.required") });
type Shown = { shown: { system_id: string; password: string } };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const host = new URL(request.url).hostname;
  return json({ users: (await orHttpError(listSmppUsers(ctx))).data, server: { host, port: env().SMPP_PORT } });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const intent = (await request.clone().formData()).get("intent");
  if (intent === "delete") {
    return handleForm(request, deleteIntentSchema, async ({ id }) => {
      await deleteSmppUser(ctx, id);
      return redirectWithToast(request, "/sms/smpp", { type: "success", title: "smpp:users.delete.deleted" });
    });
  }
  if (intent === "edit") {
    return handleForm(request, editSchema, async ({ id, ...value }) => {
      const r = await updateSmppUser(ctx, id, value);
      if (r.password) return json<Shown>({ shown: { system_id: r.data.system_id, password: r.password } });
      return redirectWithToast(request, "/sms/smpp", { type: "success", title: "smpp:users.edit.saved", params: { name: r.data.system_id } });
    });
  }
  return handleForm(request, createSmppUserSchema, async (value) => {
    const r = await createSmppUser(ctx, value);
    return json<Shown>({ shown: { system_id: r.data.system_id, password: r.password } });
  });
}

const summaryClass = "inline-flex h-8 cursor-pointer list-none items-center rounded-md border px-3 text-sm font-medium hover:bg-accent";

export default function SmppUsers() {
  const { users, server } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply | Shown>();
  const busy = useNavigation().state === "submitting";
  const lng = useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR";
  const { t } = useTranslation(["smpp", "common"]);
  const reply = last && "result" in last ? last : undefined;
  const shown = last && "shown" in last ? last.shown : undefined;
  const sent = reply?.result.initialValue as { intent?: string; id?: string } | undefined;
  const rowReply = sent?.intent === "edit" || sent?.intent === "delete" ? { id: sent.id, intent: sent.intent, errors: reply!.result.error } : undefined;
  const [form, fields] = useForm({
    id: "smpp-user-create",
    lastResult: rowReply ? undefined : reply?.result,
    defaultValue: { route: "T1", tps: "10", enabled: "on" },
    onValidate: useLazyValidate(() => import("~api/smpp/schemas").then((m) => m.createSmppUserSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const routes = SMS_ROUTES.map((r) => ({ value: r, label: r }));
  return (
    <div className="space-y-6">
      <PageHeader description={t("users.description", { host: server.host, port: server.port })} />
      {shown ? (
        <div role="status" className="rounded-md border border-primary/40 bg-primary/5 p-4 text-sm" data-testid="smpp-password">
          <p className="font-semibold">{t("users.password.title", { name: shown.system_id })}</p>
          <p className="mt-1">
            {t("users.password.label")} <code className="rounded bg-muted px-2 py-0.5 font-mono text-base">{shown.password}</code>
          </p>
          <p className="mt-1 text-muted-foreground">{t("users.password.once")}</p>
        </div>
      ) : null}
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <Card>
          <CardContent>
            {users.length === 0 ? (
              <p className="py-8 text-center text-sm text-muted-foreground">{t("users.empty")}</p>
            ) : (
              <Table>
                <TableHeader>
                  <TableRow>
                    <TableHead>{t("users.columns.systemId")}</TableHead>
                    <TableHead>{t("users.columns.route")}</TableHead>
                    <TableHead>{t("users.columns.tps")}</TableHead>
                    <TableHead>{t("users.columns.status")}</TableHead>
                    <TableHead>{t("users.columns.createdAt")}</TableHead>
                    <TableHead className="text-right">{t("users.columns.actions")}</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {users.map((u) => {
                    const mine = rowReply?.id === u.id ? rowReply : undefined;
                    const editErrors = mine?.intent === "edit" ? mine.errors : undefined;
                    return (
                      <TableRow key={u.id} data-smpp-user={u.system_id}>
                        <TableCell className="font-mono font-medium">{u.system_id}</TableCell>
                        <TableCell>{u.route}</TableCell>
                        <TableCell>{u.tps}</TableCell>
                        <TableCell>{u.enabled ? t("users.enabled") : t("users.disabled")}</TableCell>
                        <TableCell>{formatDate(u.created_at, lng, true)}</TableCell>
                        <TableCell className="text-right align-top">
                          <div className="flex flex-wrap items-start justify-end gap-2">
                            <details className="text-left" open={Boolean(editErrors)}>
                              <summary className={summaryClass} aria-label={t("users.edit.label", { name: u.system_id })}>
                                {t("users.edit.summary")}
                              </summary>
                              <Form method="post" className="mt-2 w-72 space-y-3 rounded-md border bg-popover p-3 text-sm whitespace-normal shadow-sm">
                                <CsrfInput />
                                <input type="hidden" name="intent" value="edit" />
                                <input type="hidden" name="id" value={u.id} />
                                <FormErrors errors={editErrors?.[""]} />
                                <div className="grid gap-1.5">
                                  <Label htmlFor={`route-${u.id}`}>{t("users.fields.route")}</Label>
                                  <NativeSelect id={`route-${u.id}`} name="route" defaultValue={u.route}>
                                    {routes.map((r) => (
                                      <NativeSelectOption key={r.value} value={r.value}>
                                        {r.label}
                                      </NativeSelectOption>
                                    ))}
                                  </NativeSelect>
                                  <ErrorText errors={editErrors?.route} />
                                </div>
                                <div className="grid gap-1.5">
                                  <Label htmlFor={`tps-${u.id}`}>{t("users.fields.tps")}</Label>
                                  <Input id={`tps-${u.id}`} name="tps" type="number" min={1} max={MAX_TPS} defaultValue={u.tps} required />
                                  <ErrorText errors={editErrors?.tps} />
                                </div>
                                <label className="flex items-center gap-2">
                                  <input type="checkbox" name="enabled" defaultChecked={u.enabled} className="size-4" />
                                  {t("users.fields.enabled")}
                                </label>
                                <label className="flex items-center gap-2">
                                  <input type="checkbox" name="reset_password" className="size-4" />
                                  {t("users.fields.resetPassword")}
                                </label>
                                <Button type="submit" size="sm">
                                  {t("users.edit.submit")}
                                </Button>
                              </Form>
                            </details>
                            <ConfirmDelete
                              id={u.id}
                              errors={mine?.intent === "delete" ? mine.errors?.[""] : undefined}
                              summary={t("users.delete.summary")}
                              label={t("users.delete.label", { name: u.system_id })}
                              body={t("users.delete.body", { name: u.system_id })}
                              confirm={t("users.delete.confirm")}
                            />
                          </div>
                        </TableCell>
                      </TableRow>
                    );
                  })}
                </TableBody>
              </Table>
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <h2 className="leading-none font-semibold">{t("users.create.title")}</h2>
            <CardDescription>{t("users.create.description")}</CardDescription>
          </CardHeader>
          <CardContent>
            <Form method="post" {...getFormProps(form)} className="space-y-4">
              <CsrfInput />
              <input type="hidden" name="intent" value="create" />
              <FormErrors errors={form.errors} />
              <TextField field={fields.system_id} label={t("users.fields.systemId")} autoComplete="off" />
              <SelectField field={fields.route} label={t("users.fields.route")} options={routes} />
              <TextField field={fields.tps as unknown as Parameters<typeof TextField>[0]["field"]} label={t("users.fields.tps")} type="number" />
              <CheckboxField field={fields.enabled} label={t("users.fields.enabled")} />
              <Button type="submit" className="w-full" disabled={busy}>
                {t("users.create.submit")}
              </Button>
            </Form>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
