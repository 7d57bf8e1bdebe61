/**
 * /sms/optouts: numbers that asked not to receive messages (by keyword reply, by hand, API or
 * import) — list with search and pages, add, remove — and the account's opt-out / resume
 * keywords (SAIR, PARAR… / VOLTAR, START). Plain forms: no JavaScript needed.
 */
import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { addOptoutSchema, OPTOUT_CHANNELS, optoutSettingsSchema } from "../../../api/optouts/schemas";
import { addOptout, getOptoutSettings, listOptouts, removeOptout, saveOptoutSettings } from "../../../api/optouts/services";
import { ConfirmDelete } from "~/components/forms/confirm-delete";
import { NumberListCard, listQuery } from "~/components/optouts/number-list-card";
import { SelectField, TextareaField } from "~/components/forms/controls";
import { CsrfInput, FormErrors, TextField } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { TableCell, TableRow } from "~/components/ui/table";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { formatDate } from "~/lib/format";
import { deleteIntentSchema, handleForm, type FormReply } from "~/lib/forms.server";
import { redirectWithToast } from "~/lib/toast.server";
import type { RootData } from "~/root";

export const handle = { crumb: "smpp:optouts.title" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const query = listQuery(request);
  const [list, settings] = await Promise.all([orHttpError(listOptouts(ctx, query)), orHttpError(getOptoutSettings(ctx))]);
  return json({ list, settings: settings.data, q: query.q });
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
  const { list, settings, q } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const lng = useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR";
  const { t } = useTranslation(["smpp", "common"]);
  const sent = last?.result.initialValue as { intent?: string; id?: string } | undefined;
  const [addForm, addFields] = useForm({
    id: "optout-add",
    lastResult: sent?.intent === "add" ? last?.result : undefined,
    defaultValue: { channel: "sms" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: addOptoutSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const [setForm, setFields] = useForm({
    id: "optout-settings",
    lastResult: sent?.intent === "settings" ? last?.result : undefined,
    defaultValue: { keywords: settings.keywords.join(", "), resume_keywords: settings.resume_keywords.join(", ") },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: optoutSettingsSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <div className="space-y-6">
      <PageHeader description={t("optouts.description")} />
      <div className="grid items-start gap-6 lg:grid-cols-[1fr_22rem]">
        <NumberListCard
          path="/sms/optouts"
          idPrefix="optout"
          q={q}
          list={list}
          texts={{ search: t("optouts.search"), searchSubmit: t("optouts.searchSubmit"), empty: t("optouts.empty") }}
          columns={[
            t("optouts.columns.number"), t("optouts.columns.channel"), t("optouts.columns.source"), t("optouts.columns.keyword"),
            t("optouts.columns.createdAt"), t("optouts.columns.actions"),
          ]}
          row={(o) => (
            <TableRow key={o.id} data-optout={o.recipient}>
              <TableCell className="font-medium">{o.recipient_formatted}</TableCell>
              <TableCell>{t(`optouts.channels.${o.channel}`, { defaultValue: o.channel })}</TableCell>
              <TableCell>{t(`optouts.sources.${o.source}`)}</TableCell>
              <TableCell>{o.keyword ?? "—"}</TableCell>
              <TableCell>{formatDate(o.created_at, lng, true)}</TableCell>
              <TableCell className="text-right">
                <div className="flex justify-end">
                  <ConfirmDelete
                    id={o.id}
                    errors={sent?.intent === "delete" && sent.id === o.id ? last?.result.error?.[""] : undefined}
                    summary={t("optouts.delete.summary")}
                    label={t("optouts.delete.label", { number: o.recipient_formatted })}
                    body={t("optouts.delete.body", { number: o.recipient_formatted })}
                    confirm={t("optouts.delete.confirm")}
                  />
                </div>
              </TableCell>
            </TableRow>
          )}
        />
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
                <SelectField field={addFields.channel} label={t("optouts.fields.channel")} options={OPTOUT_CHANNELS.map((c) => ({ value: c, label: t(`optouts.channels.${c}`) }))} />
                <Button type="submit" className="w-full" disabled={busy}>{t("optouts.add.submit")}</Button>
              </Form>
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <h2 className="leading-none font-semibold">{t("optouts.settings.title")}</h2>
              <CardDescription>{t("optouts.settings.description")}</CardDescription>
            </CardHeader>
            <CardContent>
              <Form method="post" {...getFormProps(setForm)} className="space-y-4">
                <CsrfInput />
                <input type="hidden" name="intent" value="settings" />
                <FormErrors errors={setForm.errors} />
                <TextareaField field={setFields.keywords as never} label={t("optouts.settings.keywords")} description={t("optouts.settings.keywordsHelp")} />
                <TextareaField field={setFields.resume_keywords as never} label={t("optouts.settings.resumeKeywords")} description={t("optouts.settings.resumeHelp")} />
                <Button type="submit" className="w-full" disabled={busy}>{t("optouts.settings.submit")}</Button>
              </Form>
            </CardContent>
          </Card>
        </div>
      </div>
    </div>
  );
}
