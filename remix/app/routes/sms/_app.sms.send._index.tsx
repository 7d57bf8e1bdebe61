/**
 * /sms/send: one number, a list, a CSV file (streamed into the staging table while it uploads)
 * or a contact group; sender (the account's short codes offered), route, template, body with a live GSM-7/UCS-2 segment counter and
 * cost (JavaScript), values for {{variables}}, schedule (São Paulo time), campaign name and whether
 * a campaign's links are shortened per recipient (who clicked shows on the campaign).
 * The form is always multipart so it works without JavaScript in every mode; the server reads
 * the chosen mode's field. Success goes to /sms/send/success.
 */
import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { isAppError } from "~api/lib/errors";
import { z } from "~api/lib/zod";
import { acceptSms, type StagedFile } from "~api/sms/accept";
import { dropStagedFile, stageSmsFile } from "~api/sms/recipients-file";
import { localToIso } from "~api/sms/schedule";
import { MAX_BODY } from "~api/sms/constants";
import { smsSegments } from "~api/sms/segments";
import { sendOptions } from "~api/sms/send-view";
import { CheckboxField } from "~/components/forms/controls";
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
import { intlLocale, type Lng } from "~/lib/i18n";
import { documentLoad, NO_HYDRATION, pluralTemplates } from "~/lib/hydration";
import { streamUpload } from "~/lib/uploads.server";
import type { RootData } from "~/root";

/** Served without React in the browser: JavaScript on this page is the enhancement script alone (ADR 051). */
export const handle = NO_HYDRATION;
export const clientLoader = documentLoad;

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
  shorten_links: z.string().optional(),
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
      shorten_links: form.shorten_links === "on",
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

/**
 * The segment counter and the cost, as the server counts them; the enhancement script (ADR 051)
 * recounts while the person types, from the templates and names carried here.
 */
function Counter({ body, pricePerSegment, currency, hasVariables }: { body: string; pricePerSegment: number | null; currency: string; hasVariables: boolean }) {
  const { t, i18n } = useTranslation("sms");
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const info = smsSegments(body);
  return (
    <div
      className="flex flex-wrap justify-between gap-2 text-sm text-muted-foreground"
      aria-live="polite"
      data-testid="segment-counter"
      data-sms-counter=""
      data-locale={intlLocale[lng]}
      data-plural-characters={JSON.stringify(pluralTemplates(i18n, "sms", "send.characters"))}
      data-plural-segments={JSON.stringify(pluralTemplates(i18n, "sms", "send.segments"))}
      data-coding-gsm7={t("coding.GSM7")}
      data-coding-ucs2={t("coding.UCS2")}
      data-tpl-cost={t("send.cost", { price: "{{price}}" })}
      data-tpl-cost-unknown={t("send.costUnknown")}
    >
      <span data-counter-text="" data-characters={info.characters} data-segments={info.segments}>
        {[t("send.characters", { count: info.characters }), t("send.segments", { count: info.segments }), t(`coding.${info.coding}`)].join(" · ")}
      </span>
      <span data-counter-cost="" data-testid="segment-cost">
        {hasVariables ? t("send.costUnknown") : pricePerSegment !== null ? t("send.cost", { price: formatMoney(info.segments * pricePerSegment, currency, lng) }) : null}
      </span>
    </div>
  );
}

export default function SmsSend() {
  const data = useLoaderData<typeof loader>();
  const last = useActionData<Reply>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation(["sms", "common"]);
  const errorText = useErrorText();
  // Served without React in the browser (ADR 051): the form is rendered here once, and the
  // enhancement script (public-src/enhance) does the mode switch, the template text and the counter.
  const [form, fields] = useForm<SendForm>({
    id: "sms-send",
    lastResult: last?.result,
    defaultValue: { mode: "single", route: data.routes[0]?.route ?? "T1", template_id: data.template ?? "", to: data.to ?? "" },
  });
  const initial = (last?.result.initialValue ?? {}) as Partial<Record<keyof SendForm, string>>;
  const templateBody = (id: string | null | undefined) => data.templates.find((x) => x.id === id)?.body;
  const templateId = initial.template_id ?? data.template ?? "";
  const body = templateBody(templateId) ?? initial.body ?? "";
  const route = initial.route || data.routes[0]?.route || "T1";
  const price = data.routes.find((r) => r.route === route)?.price_per_segment ?? null;
  const hasVariables = /\{\{\s*[A-Za-z0-9_]{1,40}\s*\}\}/.test(body);
  const errs = (name: keyof SendForm | "file") => (fields as unknown as Record<string, { errors?: string[] }>)[name]?.errors?.map((e) => errorText(e, last?.params));

  return (
    <div className="space-y-6">
      <PageHeader description={t("send.description")} />
      <Card className="max-w-3xl">
        <CardContent>
          <Form method="post" {...getFormProps(form)} encType="multipart/form-data" className="space-y-5" data-enhance="sms-send">
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
                    <input type="radio" name="mode" value={m} defaultChecked={((initial.mode as Mode) || "single") === m} />
                    {t(`send.mode.${m}`)}
                  </label>
                ))}
              </div>
              <p className="text-xs text-muted-foreground" data-without-js="">
                {t("send.modeHint")}
              </p>

              <div data-mode-panel="single">
                <TextField field={fields.to} label={t("send.to")} type="tel" description={t("send.toHint")} autoComplete="off" />
              </div>
              <div data-mode-panel="list">
                <FormField label={t("send.list")} htmlFor={fields.to_list.id} error={errs("to_list")} description={t("send.listHint")}>
                  <Textarea {...getTextareaProps(fields.to_list)} key={fields.to_list.key} rows={4} />
                </FormField>
              </div>
              <div data-mode-panel="file">
                <FormField label={t("send.file")} htmlFor="sms-send-file" error={errs("file")} description={t("send.fileHint")}>
                  <Input id="sms-send-file" name="file" type="file" accept=".csv,text/csv" aria-invalid={errs("file")?.length ? true : undefined} />
                </FormField>
              </div>
              <div data-mode-panel="group">
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
              <FormField
                label={t("send.from")}
                htmlFor={fields.from.id}
                error={errs("from")}
                description={data.defaults.sender ? t("send.fromHintDefault", { sender: data.defaults.sender }) : t("send.fromHint")}
              >
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
                <NativeSelect {...getSelectProps(fields.route)} key={fields.route.key} data-sms-route="">
                  {data.routes.map((r) => (
                    <NativeSelectOption key={r.route} value={r.route} data-price={r.price_per_segment} data-currency={r.currency}>
                      {t("send.routeOption", { route: r.route, price: formatMoney(r.price_per_segment, r.currency, lng) })}
                    </NativeSelectOption>
                  ))}
                </NativeSelect>
              </FormField>
            </div>

            <FormField label={t("send.template")} htmlFor={fields.template_id.id} error={errs("template_id")} description={t("send.templateHint")}>
              <NativeSelect {...getSelectProps(fields.template_id)} key={fields.template_id.key} defaultValue={templateId} data-sms-template="">
                <NativeSelectOption value="">{t("send.templateNone")}</NativeSelectOption>
                {data.templates.map((tpl) => (
                  <NativeSelectOption key={tpl.id} value={tpl.id} data-body={tpl.body}>
                    {tpl.name}
                  </NativeSelectOption>
                ))}
              </NativeSelect>
            </FormField>

            <FormField label={t("send.body")} htmlFor={fields.body.id} error={errs("body")}>
              <Textarea
                id={fields.body.id}
                name={fields.body.name}
                rows={5}
                defaultValue={body}
                readOnly={Boolean(templateId && templateBody(templateId) !== undefined)}
                aria-invalid={errs("body")?.length ? true : undefined}
                data-sms-body=""
              />
            </FormField>
            <Counter body={body} pricePerSegment={price} currency={data.currency} hasVariables={hasVariables} />
            {data.defaults.signature || data.defaults.optout_text ? (
              <p className="text-sm text-muted-foreground" data-testid="sms-settings-note">
                {[
                  data.defaults.signature ? t("send.signatureNote", { signature: data.defaults.signature }) : null,
                  data.defaults.optout_text ? t("send.optoutNote", { text: data.defaults.optout_text }) : null,
                ]
                  .filter(Boolean)
                  .join(" ")}{" "}
                <a href="/settings/messages" className="underline">
                  {t("send.settingsLink")}
                </a>
              </p>
            ) : null}
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
            <CheckboxField field={fields.shorten_links} label={t("send.shortenLinks")} description={t("send.shortenLinksHint")} />

            <Button type="submit" disabled={data.routes.length === 0} data-busy-text={t("send.sending")} data-idle-text={t("send.submit")}>
              {t("send.submit")}
            </Button>
          </Form>
        </CardContent>
      </Card>
    </div>
  );
}
