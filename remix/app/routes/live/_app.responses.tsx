/**
 * /responses: canned (sample) messages with their audience — all agents, only me, or one
 * department (spec sections 3 and 5). Managers see and delete every one; create and delete
 * work without JavaScript.
 */
import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { departmentOptions, isLiveWriter } from "~api/live/access";
import { createSample, deleteSample, listSamples, updateSample } from "~api/live/samples";
import { sampleEditSchema, sampleFormSchema } from "~api/live/schemas";
import { SAMPLE_AUDIENCES } from "~api/live/constants";
import { z } from "~api/lib/zod";
import { ConfirmDeleteRow } from "~/components/forms/confirm-delete";
import { IntentForm } from "~/components/forms/intent-form";
import { SelectField, TextareaField } from "~/components/forms/controls";
import { FormErrors, TextField } from "~/components/forms/fields";
import { EmptyRow, useReplyFor } from "~/components/live/parts";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { deleteIntentSchema, handleForm } from "~/lib/forms.server";
import { redirectWithToast } from "~/lib/toast.server";
import { useLazyValidate } from "~/lib/lazy-validate";

export const handle = { crumb: "live:responses.title" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const samples = await orHttpError(listSamples(ctx));
  const writer = isLiveWriter(ctx);
  // Agents manage their own canned messages ("me"); writers every one, for all or a department.
  const departments = writer ? await departmentOptions(ctx) : [];
  return json({ samples, departments, writer, me: ctx.actor.userId });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const intent = (await request.clone().formData()).get("intent");
  if (intent === "update") {
    return handleForm(request, sampleEditSchema.extend({ id: z.string().min(1, "validation.required") }), async ({ id, ...v }) => {
      const s = await updateSample(ctx, id, v);
      return redirectWithToast(request, "/responses", { type: "success", title: "live:responses.edit.saved", params: { key: s.key } });
    });
  }
  if (intent === "delete") {
    return handleForm(request, deleteIntentSchema, async ({ id }) => {
      const s = await deleteSample(ctx, id);
      return redirectWithToast(request, "/responses", { type: "success", title: "live:responses.delete.deleted", params: { key: s.key } });
    });
  }
  return handleForm(request, sampleFormSchema, async (v) => {
    const s = await createSample(ctx, v);
    return redirectWithToast(request, "/responses", { type: "success", title: "live:responses.create.created", params: { key: s.key } });
  });
}

export default function Responses() {
  const { samples, departments, writer, me } = useLoaderData<typeof loader>();
  const audiences = writer ? SAMPLE_AUDIENCES : SAMPLE_AUDIENCES.filter((a) => a === "me");
  const { t } = useTranslation(["live", "common"]);
  const busy = useNavigation().state === "submitting";
  const reply = useReplyFor();
  const [form, fields] = useForm({
    id: "response-create",
    lastResult: reply.of("create"),
    defaultValue: { audience: writer ? "all" : "me" },
    onValidate: useLazyValidate(() => import("~api/live/schemas").then((m) => m.sampleFormSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <div className="space-y-6">
      <PageHeader description={t("responses.description")} />
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,1fr)_24rem]">
        <Card>
          <CardContent>
            {samples.length === 0 ? (
              <EmptyRow>{t("responses.empty")}</EmptyRow>
            ) : (
              <Table data-testid="responses">
                <TableHeader>
                  <TableRow>
                    <TableHead>{t("responses.key")}</TableHead>
                    <TableHead>{t("responses.message")}</TableHead>
                    <TableHead>{t("responses.audience")}</TableHead>
                    <TableHead className="text-right">{t("responses.actions")}</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {samples.map((s) => (
                    <TableRow key={s.id} data-sample-id={s.id}>
                      <TableCell className="align-top">
                        <code className="rounded bg-muted px-1.5 py-0.5 text-xs">/{s.key}</code>
                      </TableCell>
                      <TableCell className="max-w-sm align-top whitespace-pre-wrap break-words">{s.message}</TableCell>
                      <TableCell className="align-top">
                        <Badge variant="secondary">
                          {s.audience === "department"
                            ? s.department_name
                            : s.audience === "me"
                              ? t("responses.owner", { name: s.agent_name ?? "" })
                              : t("responses.audiences.all")}
                        </Badge>
                      </TableCell>
                      <TableCell className="space-y-2 text-right align-top">
                        {writer || (s.audience === "me" && s.agent_id === me) ? (
                          <>
                            <details className="text-left" open={Boolean(reply.errorsOf("update", s.id)?.length)}>
                              <summary className="cursor-pointer text-sm underline">{t("responses.edit.summary")}</summary>
                              <IntentForm intent="update" rowId={s.id} className="mt-2 space-y-2">
                                <FormErrors errors={reply.errorsOf("update", s.id)} />
                                <label className="block text-xs" htmlFor={`sample-key-${s.id}`}>
                                  {t("responses.edit.key")}
                                </label>
                                <input id={`sample-key-${s.id}`} name="key" defaultValue={s.key} required maxLength={40} className="h-8 w-full rounded-md border px-2 text-sm" />
                                <label className="block text-xs" htmlFor={`sample-message-${s.id}`}>
                                  {t("responses.edit.message")}
                                </label>
                                <textarea
                                  id={`sample-message-${s.id}`}
                                  name="message"
                                  defaultValue={s.message}
                                  required
                                  maxLength={4000}
                                  rows={3}
                                  className="w-full rounded-md border px-2 py-1 text-sm"
                                />
                                <Button type="submit" size="sm">
                                  {t("responses.edit.submit")}
                                </Button>
                              </IntentForm>
                            </details>
                            <ConfirmDeleteRow t={t} prefix="responses" params={{ key: s.key }} id={s.id} errors={reply.errorsOf("delete", s.id)} />
                          </>
                        ) : null}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <h2 className="leading-none font-semibold">{t("responses.create.title")}</h2>
          </CardHeader>
          <CardContent>
            <IntentForm intent="create" {...getFormProps(form)} className="space-y-4">
              <FormErrors errors={form.errors} />
              <TextField field={fields.key} label={t("responses.key")} description={t("responses.keyHint")} autoComplete="off" />
              <TextareaField field={fields.message} label={t("responses.message")} />
              <SelectField field={fields.audience} label={t("responses.audience")} options={audiences.map((a) => ({ value: a, label: t(`responses.audiences.${a}`) }))} />
              {writer ? (
                <SelectField
                  field={fields.department_id}
                  label={t("responses.department")}
                  placeholder={t("responses.chooseDepartment")}
                  options={departments.map((d) => ({ value: d.id, label: d.name }))}
                />
              ) : null}
              <Button type="submit" className="w-full" disabled={busy}>
                {t("responses.create.submit")}
              </Button>
            </IntentForm>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
