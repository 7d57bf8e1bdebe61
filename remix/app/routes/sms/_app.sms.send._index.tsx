/**
 * /sms/send: one number, a list, a CSV file (streamed into the staging table while it uploads)
 * or a contact group; sender (the account's short codes offered), route, template, body with a live GSM-7/UCS-2 segment counter and
 * cost (JavaScript), values for {{variables}}, schedule (São Paulo time) and campaign name.
 * The form is always multipart so it works without JavaScript in every mode; the server reads
 * the chosen mode's field. Success goes to /sms/send/success.
 */
import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { isAppError } from "~api/lib/errors";
import { z } from "~api/lib/zod";
import { acceptSms, type StagedFile } from "~api/sms/accept";
import { dropStagedFile, stageSmsFile } from "~api/sms/recipients-file";
import { localToIso } from "~api/sms/schedule";
import { MAX_BODY } from "~api/sms/schemas";
import { smsSegments } from "~api/sms/segments";
import { sendOptions } from "~api/sms/send-view";
import { CsrfInput, FormErrors, TextField, useErrorText } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { FormField } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { requireCsrf } from "~/lib/csrf.server";
import { formatMoney } from "~/lib/format";
import type { Lng } from "~/lib/i18n";
import { streamUpload } from "~/lib/uploads.server";
import type { RootData } from "~/root";

const MODES = ["single", "list", "file", "group"] as const;
type Mode = (typeof MODES)[number];
/** The field of each mode that holds its recipients (API errors on `to`/`group_id`/`file` land there). */
const RECIPIENT_FIELD: Record<Mode, string> = { single: "to", list: "to_list", file: "file", group: "group_id" };

/** The form as posted (all text); the use-case validates the real input. */
const sendFormSchema = z.object({
  mode: z.enum(MODES, "validation.option").default("single"),
  idempotency_key: z.string().optional(),
  to: z.string().optional(),
  to_list: z.string().optional(),
  group_id: z.string().optional(),
  from: z.string().max(11, "validation.maxLength::11").optional(),
  route: z.string().optional(),
  template_id: z.string().optional(),
  body: z
    .string()
    .max(MAX_BODY * 2, `validation.maxLength::${MAX_BODY}`)
    .optional(),
  variables: z.string().optional(),
  scheduled_at: z.string().optional(),
  campaign_name: z.string().max(120, "validation.maxLength::120").optional(),
});
type SendForm = z.infer<typeof sendFormSchema>;

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const options = await orHttpError(sendOptions(ctx));
  const url = new URL(request.url);
  const template = url.searchParams.get("template");
  // `to`: a number to start with (the home page's onboarding links the person's own mobile for the test SMS).
  const to = /^\+?[0-9 ()-]{8,20}$/.test(url.searchParams.get("to") ?? "") ? url.searchParams.get("to") : null;
  return json({ ...options, idempotencyKey: crypto.randomUUID(), template: options.templates.some((t) => t.id === template) ? template : null, to });
}

/** "nome=Ana\ncodigo=7" -> { nome: "Ana", codigo: "7" }; null when a line is not name=value. */
function parseVariables(text: string | undefined): Record<string, string> | null {
  const out: Record<string, string> = {};
  for (const line of (text ?? "").split(/\r?\n/)) {
    if (!line.trim()) continue;
    const m = /^\s*([A-Za-z0-9_]{1,40})\s*=(.*)$/.exec(line);
    if (!m) return null;
    out[m[1]] = m[2].trim();
  }
  return out;
}

type Reply = { result: SubmissionResult<string[]>; params?: Record<string, string | number> };

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const csrfOk = (fields: FormData) =>
    requireCsrf(request, fields).then(
      () => true,
      () => false,
    );
  let fields: FormData;
  let staged: StagedFile | null = null;
  let fileError: unknown = null;
  if (/^multipart\/form-data;/i.test(request.headers.get("Content-Type") ?? "")) {
    // The CSRF token and the mode come before the file: only a file-mode post with a valid token is read.
    const upload = await streamUpload(request, {
      fileField: "file",
      acceptFiles: async (f) => f.get("mode") === "file" && (await csrfOk(f)),
      consume: (files) => stageSmsFile(ctx, files),
    });
    fields = upload.fields;
    if (upload.outcome.status === "ok") staged = upload.outcome.value;
    if (upload.outcome.status === "error") fileError = upload.outcome.error;
  } else {
    fields = await request.formData().catch(() => new FormData());
  }

  const submission = parseWithZod(fields, { schema: sendFormSchema });
  const fail = (status: number, opts: { formErrors?: string[]; fieldErrors?: Record<string, string[]> }, params?: Record<string, string | number>) =>
    json({ result: submission.reply({ formErrors: opts.formErrors, fieldErrors: opts.fieldErrors }), params } as Reply, { status });

  try {
    if (!(await csrfOk(fields))) return fail(403, { formErrors: ["errors.CSRF"] });
    if (submission.status !== "success") return json({ result: submission.reply() } as Reply, { status: 422 });
    const form: SendForm = submission.value;
    const mode = form.mode;
    if (fileError) {
      if (!isAppError(fileError)) throw fileError;
      return fail(fileError.status, { fieldErrors: fileError.fields ?? { file: [`errors.${fileError.code}`] } }, fileError.params);
    }
    if (mode === "file" && !staged) return fail(422, { fieldErrors: { file: ["validation.required"] } });
    const variables = parseVariables(form.variables);
    if (!variables) return fail(422, { fieldErrors: { variables: ["sms.errors.variablesFormat"] } });
    const scheduledAt = localToIso(form.scheduled_at);
    if (scheduledAt === undefined) return fail(422, { fieldErrors: { scheduled_at: ["validation.date"] } });

    const input: Record<string, unknown> = {
      from: form.from ?? "",
      route: form.route ?? "",
      template_id: form.template_id ?? "",
      body: form.body ?? "",
      variables,
      scheduled_at: scheduledAt,
      campaign_name: form.campaign_name ?? "",
    };
    if (mode === "single") input.to = form.to ?? "";
    if (mode === "list")
      input.to = (form.to_list ?? "")
        .split(/[\n,;]+/)
        .map((s) => s.trim())
        .filter(Boolean);
    if (mode === "group") input.group_id = form.group_id ?? "";
    if ((mode === "single" || mode === "list") && (input.to as string | string[]).length === 0) {
      return fail(422, { fieldErrors: { [RECIPIENT_FIELD[mode]]: ["sms.errors.recipientRequired"] } });
    }
    if (mode === "group" && !input.group_id) return fail(422, { fieldErrors: { group_id: ["sms.errors.recipientRequired"] } });

    const answer = await acceptSms(ctx, input, { idempotencyKey: form.idempotency_key || null, file: staged ?? undefined });
    const to = answer.campaign_id ? `/sms/send/success?campaign=${answer.campaign_id}` : `/sms/send/success?message=${answer.data![0].id}`;
    return redirect(to);
  } catch (e) {
    if (e instanceof Response) throw e;
    if (!isAppError(e)) throw e;
    if (!e.fields) return fail(e.status, { formErrors: [`errors.${e.code}`] }, e.params);
    const mode = (submission.status === "success" ? submission.value.mode : "single") as Mode;
    const fieldErrors: Record<string, string[]> = {};
    for (const [k, v] of Object.entries(e.fields)) {
      const name = k === "to" || k.startsWith("to.") || k === "group_id" || k === "file" ? RECIPIENT_FIELD[mode] : k.startsWith("variables.") ? "variables" : k;
      (fieldErrors[name] ??= []).push(...v);
    }
    return fail(e.status, { fieldErrors }, e.params);
  } finally {
    // Accepted: the transaction removed the rows (this deletes nothing); refused or answered from the Idempotency-Key: they go now.
    await dropStagedFile(staged).catch(() => undefined);
  }
}

function Counter({ body, pricePerSegment, currency, hasVariables }: { body: string; pricePerSegment: number | null; currency: string; hasVariables: boolean }) {
  const { t } = useTranslation("sms");
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const info = smsSegments(body);
  return (
    <div className="flex flex-wrap justify-between gap-2 text-sm text-muted-foreground" aria-live="polite" data-testid="segment-counter">
      <span data-characters={info.characters} data-segments={info.segments}>
        {[t("send.characters", { count: info.characters }), t("send.segments", { count: info.segments }), t(`coding.${info.coding}`)].join(" · ")}
      </span>
      {hasVariables ? (
        <span>{t("send.costUnknown")}</span>
      ) : pricePerSegment !== null ? (
        <span data-testid="segment-cost">{t("send.cost", { price: formatMoney(info.segments * pricePerSegment, currency, lng) })}</span>
      ) : null}
    </div>
  );
}

export default function SmsSend() {
  const data = useLoaderData<typeof loader>();
  const last = useActionData<Reply>();
  const busy = useNavigation().state === "submitting";
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation(["sms", "common"]);
  const errorText = useErrorText();
  const [form, fields] = useForm({
    id: "sms-send",
    lastResult: last?.result,
    defaultValue: { mode: "single", route: data.routes[0]?.route ?? "T1", template_id: data.template ?? "", to: data.to ?? "" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: sendFormSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const initial = (last?.result.initialValue ?? {}) as Partial<Record<keyof SendForm, string>>;
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const [mode, setMode] = useState<Mode>((initial.mode as Mode) || "single");
  const templateBody = (id: string | null | undefined) => data.templates.find((x) => x.id === id)?.body;
  const [templateId, setTemplateId] = useState<string>(initial.template_id ?? data.template ?? "");
  const [body, setBody] = useState<string>(templateBody(templateId) ?? initial.body ?? "");
  const [route, setRoute] = useState<string>(initial.route || data.routes[0]?.route || "T1");
  const bodyRef = useRef<HTMLTextAreaElement>(null);
  const price = data.routes.find((r) => r.route === route)?.price_per_segment ?? null;
  const hasVariables = /\{\{\s*[A-Za-z0-9_]{1,40}\s*\}\}/.test(body);
  const errs = (name: keyof SendForm | "file") => (fields as unknown as Record<string, { errors?: string[] }>)[name]?.errors?.map((e) => errorText(e, last?.params));
  const show = (m: Mode) => !hydrated || mode === m;

  return (
    <div className="space-y-6">
      <PageHeader description={t("send.description")} />
      <Card className="max-w-3xl">
        <CardContent>
          <Form method="post" {...getFormProps(form)} encType="multipart/form-data" className="space-y-5">
            <CsrfInput />
            <input type="hidden" name="idempotency_key" value={data.idempotencyKey} />
            <FormErrors errors={form.errors} params={last?.params} />
            {data.routes.length === 0 ? <p className="text-sm text-destructive">{t("send.noRoutes")}</p> : null}

            <fieldset className="space-y-3">
              <legend className="mb-2 text-sm font-medium">{t("send.recipients")}</legend>
              <div className="flex flex-wrap gap-2" role="radiogroup">
                {MODES.map((m) => (
                  <label
                    key={m}
                    className="flex cursor-pointer items-center gap-2 rounded-md border px-3 py-1.5 text-sm has-[:checked]:border-primary has-[:checked]:bg-primary/10"
                  >
                    <input type="radio" name="mode" value={m} defaultChecked={((initial.mode as Mode) || "single") === m} onChange={() => setMode(m)} />
                    {t(`send.mode.${m}`)}
                  </label>
                ))}
              </div>
              {hydrated ? null : <p className="text-xs text-muted-foreground">{t("send.modeHint")}</p>}

              <div hidden={!show("single")}>
                <TextField field={fields.to} label={t("send.to")} type="tel" description={t("send.toHint")} autoComplete="off" />
              </div>
              <div hidden={!show("list")}>
                <FormField label={t("send.list")} htmlFor={fields.to_list.id} error={errs("to_list")} description={t("send.listHint")}>
                  <Textarea {...getTextareaProps(fields.to_list)} key={fields.to_list.key} rows={4} />
                </FormField>
              </div>
              <div hidden={!show("file")}>
                <FormField label={t("send.file")} htmlFor="sms-send-file" error={errs("file")} description={t("send.fileHint")}>
                  <Input id="sms-send-file" name="file" type="file" accept=".csv,text/csv" aria-invalid={errs("file")?.length ? true : undefined} />
                </FormField>
              </div>
              <div hidden={!show("group")}>
                <FormField label={t("send.group")} htmlFor={fields.group_id.id} error={errs("group_id")}>
                  <NativeSelect {...getSelectProps(fields.group_id)} key={fields.group_id.key}>
                    <NativeSelectOption value="">{t("send.groupNone")}</NativeSelectOption>
                    {data.groups.map((g) => (
                      <NativeSelectOption key={g.id} value={g.id}>
                        {t("send.groupOption", { name: g.name, count: g.members })}
                      </NativeSelectOption>
                    ))}
                  </NativeSelect>
                </FormField>
              </div>
            </fieldset>

            <div className="grid gap-4 sm:grid-cols-2">
              <FormField label={t("send.from")} htmlFor={fields.from.id} error={errs("from")} description={t("send.fromHint")}>
                {/* The account's short codes as suggestions (native: no JavaScript needed); the send refuses any other sender on this field (api/sms/senders.ts). */}
                <Input {...getInputProps(fields.from, { type: "text" })} key={fields.from.key} list="sms-send-senders" autoComplete="off" />
                <datalist id="sms-send-senders" data-testid="sender-options">
                  {data.senders.map((s) => (
                    <option
                      key={s.sender}
                      value={s.sender}
                      label={t(s.type === "short_code" ? "send.senderShortCode" : "send.senderAlphanumeric", { nickname: s.nickname || s.sender })}
                    />
                  ))}
                </datalist>
              </FormField>
              <FormField label={t("send.route")} htmlFor={fields.route.id} error={errs("route")}>
                <NativeSelect {...getSelectProps(fields.route)} key={fields.route.key} onChange={(e) => setRoute(e.currentTarget.value)}>
                  {data.routes.map((r) => (
                    <NativeSelectOption key={r.route} value={r.route}>
                      {t("send.routeOption", { route: r.route, price: formatMoney(r.price_per_segment, r.currency, lng) })}
                    </NativeSelectOption>
                  ))}
                </NativeSelect>
              </FormField>
            </div>

            <FormField label={t("send.template")} htmlFor={fields.template_id.id} error={errs("template_id")} description={t("send.templateHint")}>
              <NativeSelect
                {...getSelectProps(fields.template_id)}
                key={fields.template_id.key}
                defaultValue={templateId}
                onChange={(e) => {
                  const id = e.currentTarget.value;
                  setTemplateId(id);
                  const tb = templateBody(id);
                  if (tb !== undefined) setBody(tb);
                }}
              >
                <NativeSelectOption value="">{t("send.templateNone")}</NativeSelectOption>
                {data.templates.map((tpl) => (
                  <NativeSelectOption key={tpl.id} value={tpl.id}>
                    {tpl.name}
                  </NativeSelectOption>
                ))}
              </NativeSelect>
            </FormField>

            <FormField label={t("send.body")} htmlFor={fields.body.id} error={errs("body")}>
              <Textarea
                ref={bodyRef}
                id={fields.body.id}
                name={fields.body.name}
                rows={5}
                value={body}
                readOnly={Boolean(templateId && templateBody(templateId) !== undefined)}
                onChange={(e) => setBody(e.currentTarget.value)}
                aria-invalid={errs("body")?.length ? true : undefined}
              />
            </FormField>
            <Counter body={body} pricePerSegment={price} currency={data.currency} hasVariables={hasVariables} />
            <p className="text-sm text-muted-foreground">
              {t("send.variablesHint")} <code className="rounded bg-muted px-1">{"{{first_name}}"}</code>. {t("send.variablesSources")}
            </p>

            <FormField label={t("send.variables")} htmlFor={fields.variables.id} error={errs("variables")} description={t("send.variablesFieldHint")}>
              <Textarea {...getTextareaProps(fields.variables)} key={fields.variables.key} rows={2} placeholder="loja=Centro" />
            </FormField>

            <div className="grid gap-4 sm:grid-cols-2">
              <FormField label={t("send.schedule")} htmlFor={fields.scheduled_at.id} error={errs("scheduled_at")} description={t("send.scheduleHint")}>
                <Input {...getInputProps(fields.scheduled_at, { type: "datetime-local" })} key={fields.scheduled_at.key} />
              </FormField>
              <TextField field={fields.campaign_name} label={t("send.campaignName")} description={t("send.campaignNameHint")} autoComplete="off" />
            </div>

            <Button type="submit" disabled={busy || data.routes.length === 0}>
              {busy ? t("send.sending") : t("send.submit")}
            </Button>
          </Form>
        </CardContent>
      </Card>
    </div>
  );
}
