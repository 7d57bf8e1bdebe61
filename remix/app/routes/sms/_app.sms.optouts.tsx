/**
 * /sms/optouts: numbers that asked not to receive messages (by keyword reply, by hand, API or
 * import) — list with search and pages, add, remove — and the account's opt-out / resume
 * keywords (SAIR, PARAR… / VOLTAR, START). Plain forms: no JavaScript needed.
 */
import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { z } from "~api/lib/zod";
import { addKeyword, listKeywords, removeKeyword, removeKeywords, updateKeyword } from "~api/optouts/account-keywords";
import { addOptoutSchema, keywordIdsSchema, keywordSchema, optoutSettingsSchema } from "~api/optouts/schemas";
import { KEYWORD_ACTIONS, MAX_KEYWORD_LENGTH, OPTOUT_CHANNELS } from "~api/optouts/constants";
import { addOptout, getOptoutSettings, listOptouts, removeOptout, saveOptoutSettings } from "~api/optouts/services";
import { ConfirmDelete } from "~/components/forms/confirm-delete";
import { listQuery } from "~/components/optouts/number-list-card";
import { OptoutsListCard } from "~/components/optouts/optouts-list-card";
import { SelectField, TextareaField } from "~/components/forms/controls";
import { CsrfInput, ErrorText, FormErrors, TextField } from "~/components/forms/fields";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { deleteIntentSchema, handleForm, type FormReply } from "~/lib/forms.server";
import { redirectWithToast } from "~/lib/toast.server";
import { useLazyValidate } from "~/lib/lazy-validate";

export const handle = { crumb: "smpp:optouts.title" };

const keywordUpdateSchema = keywordSchema.extend({ id: z.string().min(1, "validation.required") });
const keywordDeleteSchema = z.object({ id: z.string().min(1, "validation.required") });

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const query = listQuery(request);
  const [list, settings, keywords] = await Promise.all([orHttpError(listOptouts(ctx, query)), orHttpError(getOptoutSettings(ctx)), orHttpError(listKeywords(ctx))]);
  return json({ list, settings: settings.data, keywords: keywords.data, q: query.q });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const intent = (await request.clone().formData()).get("intent");
  if (intent === "delete") {
    return handleForm(request, deleteIntentSchema, async ({ id }) => {
      await removeOptout(ctx, id);
      return redirectWithToast(request, "/sms/optouts", { type: "success", title: "smpp:optouts.delete.deleted" });
    });
  }
  if (intent === "keyword-add") {
    return handleForm(request, keywordSchema, async (value) => {
      const r = await addKeyword(ctx, value);
      return redirectWithToast(request, "/sms/optouts", { type: "success", title: "smpp:optouts.keywords.added", params: { keyword: r.data.keyword } });
    });
  }
  if (intent === "keyword-update") {
    return handleForm(request, keywordUpdateSchema, async ({ id, ...value }) => {
      const r = await updateKeyword(ctx, id, value);
      return redirectWithToast(request, "/sms/optouts", { type: "success", title: "smpp:optouts.keywords.updated", params: { keyword: r.data.keyword } });
    });
  }
  if (intent === "keyword-delete") {
    return handleForm(request, keywordDeleteSchema, async ({ id }) => {
      await removeKeyword(ctx, id);
      return redirectWithToast(request, "/sms/optouts", { type: "success", title: "smpp:optouts.keywords.deleted" });
    });
  }
  if (intent === "keyword-bulk") {
    return handleForm(request, keywordIdsSchema, async (value) => {
      const r = await removeKeywords(ctx, value);
      return redirectWithToast(request, "/sms/optouts", { type: "success", title: "smpp:optouts.keywords.bulkDeleted", params: { count: r.deleted } });
    });
  }
  if (intent === "settings") {
    return handleForm(request, optoutSettingsSchema, async (value) => {
      await saveOptoutSettings(ctx, value);
      return redirectWithToast(request, "/sms/optouts", { type: "success", title: "smpp:optouts.settings.saved" });
    });
  }
  return handleForm(request, addOptoutSchema, async (value) => {
    const r = await addOptout(ctx, value, { source: "manual" });
    return redirectWithToast(request, "/sms/optouts", {
      type: "success",
      title: r.created ? "smpp:optouts.add.added" : "smpp:optouts.add.existing",
      params: { number: r.data.recipient_formatted },
    });
  });
}

export default function Optouts() {
  const { list, settings, keywords, q } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation(["smpp", "common"]);
  const sent = last?.result.initialValue as { intent?: string; id?: string } | undefined;
  const [addForm, addFields] = useForm({
    id: "optout-add",
    lastResult: sent?.intent === "add" ? last?.result : undefined,
    defaultValue: { channel: "sms" },
    onValidate: useLazyValidate(() => import("~api/optouts/schemas").then((m) => m.addOptoutSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const [setForm, setFields] = useForm({
    id: "optout-settings",
    lastResult: sent?.intent === "settings" ? last?.result : undefined,
    defaultValue: { keywords: settings.keywords.join(", "), resume_keywords: settings.resume_keywords.join(", ") },
    onValidate: useLazyValidate(() => import("~api/optouts/schemas").then((m) => m.optoutSettingsSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const [kwForm, kwFields] = useForm({
    id: "keyword-add",
    lastResult: sent?.intent === "keyword-add" ? last?.result : undefined,
    defaultValue: { action: "optout" },
    onValidate: useLazyValidate(() => import("~api/optouts/schemas").then((m) => m.keywordSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const rowErrors = (id: string, field: string) =>
    (sent?.intent === "keyword-update" || sent?.intent === "keyword-delete") && sent.id === id ? last?.result.error?.[field] : undefined;
  const bulkErrors = sent?.intent === "keyword-bulk" ? [...(last?.result.error?.ids ?? []), ...(last?.result.error?.[""] ?? [])] : undefined;
  const actionOptions = KEYWORD_ACTIONS.map((a) => ({ value: a, label: t(`optouts.keywords.actions.${a}`) }));
  return (
    <div className="space-y-6">
      <PageHeader description={t("optouts.description")} />
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="space-y-6">
          <OptoutsListCard path="/sms/optouts" idPrefix="optout" q={q} list={list} showChannel last={last} />
          <Card id="keywords">
            <CardHeader>
              <h2 className="leading-none font-semibold">{t("optouts.keywords.title")}</h2>
              <CardDescription>{t("optouts.settings.description")}</CardDescription>
            </CardHeader>
            <CardContent className="space-y-4">
              <Table>
                <TableHeader>
                  <TableRow>
                    <TableHead className="w-8">
                      <span className="sr-only">{t("optouts.keywords.select")}</span>
                    </TableHead>
                    <TableHead>{t("optouts.keywords.keyword")}</TableHead>
                    <TableHead>{t("optouts.keywords.action")}</TableHead>
                    <TableHead className="text-right">
                      <span className="sr-only">{t("optouts.columns.actions")}</span>
                    </TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {keywords.map((k) => {
                    const keywordErrors = rowErrors(k.id, "keyword");
                    const actionErrors = rowErrors(k.id, "action");
                    const open = Boolean(keywordErrors?.length || actionErrors?.length);
                    return (
                      <TableRow key={k.id} data-keyword={k.keyword}>
                        <TableCell>
                          <input
                            type="checkbox"
                            name="ids"
                            value={k.id}
                            form="keyword-bulk"
                            aria-label={t("optouts.keywords.selectOne", { keyword: k.keyword })}
                            className="size-4"
                          />
                        </TableCell>
                        <TableCell className="font-medium">{k.keyword}</TableCell>
                        <TableCell>{t(`optouts.keywords.actions.${k.action}`)}</TableCell>
                        <TableCell className="text-right">
                          <div className="flex justify-end gap-2">
                            <details className="text-left" open={open}>
                              <summary
                                aria-label={t("optouts.keywords.editLabel", { keyword: k.keyword })}
                                className="inline-flex h-8 cursor-pointer list-none items-center rounded-md border px-3 text-sm font-medium hover:bg-accent"
                              >
                                {t("optouts.keywords.edit")}
                              </summary>
                              <Form method="post" className="mt-2 w-56 space-y-2 rounded-md border bg-popover p-3 text-sm shadow-sm">
                                <CsrfInput />
                                <input type="hidden" name="intent" value="keyword-update" />
                                <input type="hidden" name="id" value={k.id} />
                                <label className="block space-y-1">
                                  <span>{t("optouts.keywords.keyword")}</span>
                                  <Input name="keyword" defaultValue={k.keyword} maxLength={MAX_KEYWORD_LENGTH} required aria-invalid={keywordErrors?.length ? true : undefined} />
                                </label>
                                <ErrorText errors={keywordErrors} />
                                <label className="block space-y-1">
                                  <span>{t("optouts.keywords.action")}</span>
                                  <NativeSelect name="action" defaultValue={k.action} aria-invalid={actionErrors?.length ? true : undefined}>
                                    {actionOptions.map((o) => (
                                      <NativeSelectOption key={o.value} value={o.value}>
                                        {o.label}
                                      </NativeSelectOption>
                                    ))}
                                  </NativeSelect>
                                </label>
                                <ErrorText errors={actionErrors} />
                                <Button type="submit" size="sm" disabled={busy}>
                                  {t("optouts.keywords.save")}
                                </Button>
                              </Form>
                            </details>
                            <ConfirmDelete
                              id={k.id}
                              intent="keyword-delete"
                              errors={sent?.intent === "keyword-delete" && sent.id === k.id ? [...(rowErrors(k.id, "id") ?? []), ...(last?.result.error?.[""] ?? [])] : undefined}
                              summary={t("optouts.delete.summary")}
                              label={t("optouts.keywords.deleteLabel", { keyword: k.keyword })}
                              body={t("optouts.keywords.deleteBody", { keyword: k.keyword })}
                              confirm={t("optouts.delete.confirm")}
                            />
                          </div>
                        </TableCell>
                      </TableRow>
                    );
                  })}
                </TableBody>
              </Table>
              <Form method="post" id="keyword-bulk" className="flex flex-wrap items-center gap-3">
                <CsrfInput />
                <input type="hidden" name="intent" value="keyword-bulk" />
                <Button type="submit" variant="outline" size="sm" disabled={busy}>
                  {t("optouts.keywords.bulkSubmit")}
                </Button>
                <ErrorText errors={bulkErrors} />
              </Form>
              <Form method="post" {...getFormProps(kwForm)} className="max-w-md space-y-4 border-t pt-4">
                <CsrfInput />
                <input type="hidden" name="intent" value="keyword-add" />
                <FormErrors errors={kwForm.errors} />
                <TextField field={kwFields.keyword} label={t("optouts.keywords.keyword")} autoComplete="off" />
                <SelectField field={kwFields.action} label={t("optouts.keywords.action")} options={actionOptions} />
                <Button type="submit" className="w-full" disabled={busy}>
                  {t("optouts.keywords.add")}
                </Button>
              </Form>
            </CardContent>
          </Card>
        </div>
        <div className="space-y-6">
          <Card>
            <CardHeader>
              <h2 className="leading-none font-semibold">{t("optouts.add.title")}</h2>
            </CardHeader>
            <CardContent>
              <Form method="post" {...getFormProps(addForm)} className="space-y-4">
                <CsrfInput />
                <input type="hidden" name="intent" value="add" />
                <FormErrors errors={addForm.errors} />
                <TextField field={addFields.recipient} label={t("optouts.fields.number")} type="tel" autoComplete="off" />
                <SelectField
                  field={addFields.channel}
                  label={t("optouts.fields.channel")}
                  options={OPTOUT_CHANNELS.map((c) => ({ value: c, label: t(`optouts.channels.${c}`) }))}
                />
                <Button type="submit" className="w-full" disabled={busy}>
                  {t("optouts.add.submit")}
                </Button>
              </Form>
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <h2 className="leading-none font-semibold">{t("optouts.settings.title")}</h2>
              <CardDescription>{t("optouts.settings.replaceHelp")}</CardDescription>
            </CardHeader>
            <CardContent>
              <Form method="post" {...getFormProps(setForm)} className="space-y-4">
                <CsrfInput />
                <input type="hidden" name="intent" value="settings" />
                <FormErrors errors={setForm.errors} />
                <TextareaField field={setFields.keywords as never} label={t("optouts.settings.keywords")} description={t("optouts.settings.keywordsHelp")} />
                <TextareaField field={setFields.resume_keywords as never} label={t("optouts.settings.resumeKeywords")} description={t("optouts.settings.resumeHelp")} />
                <Button type="submit" className="w-full" disabled={busy}>
                  {t("optouts.settings.submit")}
                </Button>
              </Form>
            </CardContent>
          </Card>
        </div>
      </div>
    </div>
  );
}
