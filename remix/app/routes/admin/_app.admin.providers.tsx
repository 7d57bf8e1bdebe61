/**
 * /admin/providers (platform staff): the provider connections (simulator, HTTP, SMPP) — list,
 * create, edit, delete with confirmation, test — and the SMS route map (T1, T2, T4, T6 ->
 * connection). Credentials are write-only: the list shows masked hints; an HTTP webhook secret
 * generated on create is shown once in that POST's answer. And what each connection charges per
 * segment on each route from a start on (ADR 070: list, add, delete one not started yet), the cost
 * of /admin/sms/sales' margin. Plain POST forms with CSRF: every action works without JavaScript.
 */
import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { z } from "~api/lib/zod";
import { createProviderSchema, routeMapSchema, updateProviderSchema } from "~api/providers/schemas";
import { PROVIDER_KINDS } from "~api/providers/constants";
import { createProvider, deleteProvider, getRouteMap, listProviders, putRouteMap, updateProvider, type ProviderView } from "~api/providers/services";
import { testProvider, type TestResult } from "~api/providers/test-connection";
import { createProviderCost, deleteProviderCost, listProviderCosts, type ProviderCost } from "~api/providers/costs";
import { COST_CURRENCIES } from "~api/providers/constants";
import { SMS_ROUTES } from "~api/sms/constants";
import { costFormSchema, deleteCostSchema } from "~/forms/provider-costs";
import { formatDateTime } from "~/components/sms-reports/format";
import { formatMoney } from "~/lib/format";
import type { Lng } from "~/lib/i18n";
import type { RootData } from "~/root";
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
import { deleteIntentSchema, handleForm, type FormReply } from "~/lib/forms.server";
import { redirectWithToast } from "~/lib/toast.server";
import { useLazyValidate } from "~/lib/lazy-validate";

export const handle = { crumb: "admin:providers.title" };

const PATH = "/admin/providers";
const editSchema = updateProviderSchema.extend({ intent: z.literal("edit"), id: z.string().min(1, "validation.required") });
const routesSchema = routeMapSchema.and(z.object({ intent: z.literal("routes") }));
const testSchema = z.object({ intent: z.literal("test"), id: z.string().min(1, "validation.required") });
type Generated = { generated: { name: string; webhook_secret: string } };
type Tested = { tested: { name: string } & TestResult };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const [providers, routes, costs] = await Promise.all([orHttpError(listProviders(ctx)), orHttpError(getRouteMap(ctx)), orHttpError(listProviderCosts(ctx))]);
  return json({ providers: providers.data, routes: routes.data, costs: costs.data });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const intent = (await request.clone().formData()).get("intent");
  if (intent === "delete") {
    return handleForm(request, deleteIntentSchema, async ({ id }) => {
      await deleteProvider(ctx, id);
      return redirectWithToast(request, PATH, { type: "success", title: "admin:providers.delete.deleted" });
    });
  }
  if (intent === "cost") {
    return handleForm(request, costFormSchema, async ({ connection_id, intent: _i, ...value }) => {
      await createProviderCost(ctx, connection_id, value);
      return redirectWithToast(request, PATH, { type: "success", title: "admin:providers.costs.created" });
    });
  }
  if (intent === "deleteCost") {
    return handleForm(request, deleteCostSchema, async ({ id }) => {
      await deleteProviderCost(ctx, null, id);
      return redirectWithToast(request, PATH, { type: "success", title: "admin:providers.costs.deleted" });
    });
  }
  if (intent === "test") {
    return handleForm(request, testSchema, async ({ id }) => {
      const r = await testProvider(ctx, id);
      const { data } = await listProviders(ctx);
      return json<Tested>({ tested: { name: data.find((p) => p.id === id)?.name ?? "", ...r } });
    });
  }
  if (intent === "routes") {
    return handleForm(request, routesSchema, async (value) => {
      await putRouteMap(ctx, value);
      return redirectWithToast(request, PATH, { type: "success", title: "admin:providers.routes.saved" });
    });
  }
  if (intent === "edit") {
    return handleForm(request, editSchema, async ({ id, intent: _i, ...value }) => {
      const r = await updateProvider(ctx, id, value);
      if (r.generated) return json<Generated>({ generated: { name: r.data.name, ...r.generated } });
      return redirectWithToast(request, PATH, { type: "success", title: "admin:providers.edit.saved", params: { name: r.data.name } });
    });
  }
  return handleForm(request, createProviderSchema, async (value) => {
    const r = await createProvider(ctx, value);
    if (r.generated) return json<Generated>({ generated: { name: r.data.name, ...r.generated } });
    return redirectWithToast(request, PATH, { type: "success", title: "admin:providers.create.created", params: { name: r.data.name } });
  });
}

const summaryClass = "inline-flex h-8 cursor-pointer list-none items-center rounded-md border px-3 text-sm font-medium hover:bg-accent";

function describe(p: ProviderView): string {
  const s = p.settings as Record<string, string | number | undefined>;
  if (p.kind === "http") return String(s.url ?? "");
  if (p.kind === "smpp") return `${s.system_id ?? ""}@${s.host ?? ""}:${s.port ?? ""}`;
  return "";
}

/** The settings fields of every kind (no JavaScript: all shown, grouped by kind). */
function EditFields({ p, errors }: { p: ProviderView; errors?: Record<string, string[] | null> }) {
  const { t } = useTranslation("admin");
  const s = p.settings as Record<string, string | number | undefined>;
  const field = (name: string, label: string, opts: { type?: string; secret?: boolean; value?: string | number } = {}) => (
    <div className="grid gap-1">
      <Label htmlFor={`${name}-${p.id}`}>{label}</Label>
      <Input
        id={`${name}-${p.id}`}
        name={name}
        type={opts.type ?? "text"}
        autoComplete="off"
        defaultValue={opts.secret ? undefined : (opts.value ?? s[name] ?? "")}
        placeholder={
          opts.secret
            ? p.secrets[name as keyof ProviderView["secrets"]]
              ? t("providers.fields.keepSecret", { hint: p.secrets[name as keyof ProviderView["secrets"]] })
              : ""
            : undefined
        }
      />
      <ErrorText errors={errors?.[name]} />
    </div>
  );
  return (
    <>
      <div className="grid gap-1">
        <Label htmlFor={`kind-${p.id}`}>{t("providers.fields.kind")}</Label>
        <NativeSelect id={`kind-${p.id}`} name="kind" defaultValue={p.kind}>
          {PROVIDER_KINDS.map((k) => (
            <NativeSelectOption key={k} value={k}>
              {t(`providers.kinds.${k}`)}
            </NativeSelectOption>
          ))}
        </NativeSelect>
      </div>
      <fieldset className="grid gap-2 rounded-md border p-2">
        <legend className="px-1 text-xs text-muted-foreground">{t("providers.fields.httpGroup")}</legend>
        {field("url", t("providers.fields.url"), { type: "url" })}
        {field("api_key", t("providers.fields.apiKey"), { secret: true })}
        {field("webhook_secret", t("providers.fields.webhookSecret"), { secret: true })}
      </fieldset>
      <fieldset className="grid gap-2 rounded-md border p-2">
        <legend className="px-1 text-xs text-muted-foreground">{t("providers.fields.smppGroup")}</legend>
        {field("host", t("providers.fields.host"))}
        {field("port", t("providers.fields.port"), { type: "number" })}
        {field("system_id", t("providers.fields.systemId"))}
        {field("password", t("providers.fields.password"), { type: "password", secret: true })}
        {field("system_type", t("providers.fields.systemType"))}
      </fieldset>
      {field("tps", t("providers.fields.tps"), { type: "number" })}
      <label className="flex items-center gap-2">
        <input type="checkbox" name="enabled" defaultChecked={p.enabled} className="size-4" />
        {t("providers.fields.enabled")}
      </label>
    </>
  );
}

type CostState = "inForce" | "scheduled" | "past";
/** Each cost's state: per provider and route (newest start first), the first started one is in force, older ones past. */
function costStates(costs: ProviderCost[]): Map<string, CostState> {
  const seen = new Set<string>();
  const out = new Map<string, CostState>();
  for (const c of costs) {
    const k = `${c.provider}|${c.route}`;
    if (!c.applied) out.set(c.id, "scheduled");
    else if (seen.has(k)) out.set(c.id, "past");
    else {
      seen.add(k);
      out.set(c.id, "inForce");
    }
  }
  return out;
}

/** The costs per segment of every connection and route (ADR 070): the list, and the form that adds one. */
function ProviderCosts({ costs, providers, reply }: { costs: ProviderCost[]; providers: ProviderView[]; reply?: FormReply }) {
  const { t } = useTranslation(["admin", "common"]);
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const busy = useNavigation().state === "submitting";
  const sent = reply?.result.initialValue as { intent?: string; id?: string } | undefined;
  const [form, fields] = useForm({
    id: "provider-cost",
    lastResult: sent?.intent === "cost" ? reply?.result : undefined,
    defaultValue: { intent: "cost", currency: "BRL", route: "T1" },
    onValidate: useLazyValidate(() => import("~/forms/provider-costs").then((m) => m.costFormSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const states = costStates(costs);
  const sms = providers.filter((p) => p.channel === "sms");
  return (
    <Card>
      <CardHeader>
        <h2 className="leading-none font-semibold">{t("providers.costs.title")}</h2>
        <CardDescription>{t("providers.costs.description")}</CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-1 items-start gap-6 xl:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="min-w-0 space-y-2">
          <FormErrors errors={sent?.intent === "deleteCost" ? reply?.result.error?.[""] : undefined} />
          {costs.length === 0 ? (
            <p className="py-8 text-center text-sm text-muted-foreground">{t("providers.costs.empty")}</p>
          ) : (
            <Table region={t("providers.costs.title")}>
              <TableHeader>
                <TableRow>
                  <TableHead>{t("providers.costs.columns.provider")}</TableHead>
                  <TableHead>{t("providers.costs.columns.route")}</TableHead>
                  <TableHead className="text-right">{t("providers.costs.columns.cost")}</TableHead>
                  <TableHead>{t("providers.costs.columns.validFrom")}</TableHead>
                  <TableHead>{t("providers.costs.columns.state")}</TableHead>
                  <TableHead className="text-right">{t("providers.columns.actions")}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {costs.map((c) => {
                  const state = states.get(c.id) ?? "past";
                  return (
                    <TableRow key={c.id} data-cost={c.id} data-state={state}>
                      <TableCell className="font-mono">{c.provider}</TableCell>
                      <TableCell>{c.route}</TableCell>
                      <TableCell className="text-right tabular-nums" data-col="cost">
                        {formatMoney(c.cost_per_segment, c.currency, lng)}
                      </TableCell>
                      <TableCell className="tabular-nums">{formatDateTime(c.valid_from, lng)}</TableCell>
                      <TableCell>{t(`providers.costs.states.${state}`)}</TableCell>
                      <TableCell className="text-right">
                        {c.applied ? (
                          "—"
                        ) : (
                          <ConfirmDelete
                            id={c.id}
                            intent="deleteCost"
                            summary={t("providers.costs.delete.summary")}
                            label={t("providers.costs.delete.label", { provider: c.provider, route: c.route })}
                            body={t("providers.costs.delete.body", { provider: c.provider, route: c.route })}
                            confirm={t("providers.costs.delete.confirm")}
                          />
                        )}
                      </TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          )}
        </div>
        <Form method="post" {...getFormProps(form)} className="min-w-0 space-y-4" aria-label={t("providers.costs.create.title")}>
          <CsrfInput />
          <input type="hidden" name="intent" value="cost" />
          <h3 className="font-medium">{t("providers.costs.create.title")}</h3>
          <FormErrors errors={form.errors} />
          <SelectField
            field={fields.connection_id}
            label={t("providers.costs.fields.provider")}
            placeholder={t("providers.costs.fields.providerPick")}
            options={sms.map((p) => ({ value: p.id, label: p.name }))}
          />
          <SelectField field={fields.route} label={t("providers.costs.fields.route")} options={SMS_ROUTES.map((r) => ({ value: r, label: r }))} />
          <TextField field={fields.cost_per_segment} label={t("providers.costs.fields.cost")} description={t("providers.costs.fields.costHint")} autoComplete="off" />
          <SelectField field={fields.currency} label={t("providers.costs.fields.currency")} options={COST_CURRENCIES.map((c) => ({ value: c, label: c }))} />
          <TextField field={fields.valid_from} label={t("providers.costs.fields.validFrom")} description={t("providers.costs.fields.validFromHint")} type="datetime-local" />
          <Button type="submit" className="w-full" disabled={busy}>
            {t("providers.costs.create.submit")}
          </Button>
        </Form>
      </CardContent>
    </Card>
  );
}

export default function AdminProviders() {
  const { providers, routes, costs } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply | Generated | Tested>();
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation(["admin", "common"]);
  const reply = last && "result" in last ? last : undefined;
  const generated = last && "generated" in last ? last.generated : undefined;
  const tested = last && "tested" in last ? last.tested : undefined;
  const sent = reply?.result.initialValue as { intent?: string; id?: string } | undefined;
  const rowReply = sent?.intent === "edit" || sent?.intent === "delete" || sent?.intent === "test" ? { id: sent.id, intent: sent.intent, errors: reply!.result.error } : undefined;
  const routesErrors = sent?.intent === "routes" ? reply!.result.error : undefined;
  const [form, fields] = useForm({
    id: "provider-create",
    lastResult: sent?.intent === "create" ? reply?.result : undefined,
    defaultValue: { kind: "http", enabled: "on" },
    onValidate: useLazyValidate(() => import("~api/providers/schemas").then((m) => m.createProviderSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const list = providers as unknown as ProviderView[];
  const usable = list.filter((p) => p.enabled && p.channel === "sms");
  const kinds = PROVIDER_KINDS.map((k) => ({ value: k, label: t(`providers.kinds.${k}`) }));
  return (
    <div className="space-y-6">
      <PageHeader description={t("providers.description")} />
      <FormErrors errors={sent?.intent === "test" ? reply?.result.error?.[""] : undefined} />
      {generated ? (
        <div role="status" className="rounded-md border border-primary/40 bg-primary/5 p-4 text-sm" data-testid="provider-secret">
          <p className="font-semibold">{t("providers.generated.title", { name: generated.name })}</p>
          <p className="mt-1 break-all">
            <code className="rounded bg-muted px-2 py-0.5 font-mono">{generated.webhook_secret}</code>
          </p>
          <p className="mt-1 text-muted-foreground">{t("providers.generated.once")}</p>
        </div>
      ) : null}
      {tested ? (
        <div
          role="status"
          data-testid="provider-test"
          data-ok={tested.ok ? "true" : "false"}
          className={
            tested.ok ? "rounded-md border border-primary/40 bg-primary/5 p-4 text-sm" : "rounded-md border border-destructive/40 bg-destructive/10 p-4 text-sm text-destructive"
          }
        >
          <p className="font-semibold">{t(tested.ok ? "providers.test.okTitle" : "providers.test.failedTitle", { name: tested.name })}</p>
          <p className="mt-1">
            {t(`providers.test.codes.${tested.code}`, { ...tested.params })} ({t("providers.test.ms", { ms: tested.ms })})
          </p>
        </div>
      ) : null}

      <Card>
        <CardHeader>
          <h2 className="leading-none font-semibold">{t("providers.routes.title")}</h2>
          <CardDescription>{t("providers.routes.description")}</CardDescription>
        </CardHeader>
        <CardContent>
          <Form key={routes.map((r) => r.connection_id).join()} method="post" className="flex flex-wrap items-end gap-4" aria-label={t("providers.routes.title")}>
            <CsrfInput />
            <input type="hidden" name="intent" value="routes" />
            <FormErrors errors={routesErrors?.[""]} />
            {routes.map((r) => (
              <div key={r.route} className="grid gap-1">
                <Label htmlFor={`route-${r.route}`}>{t("providers.routes.route", { route: r.route })}</Label>
                <NativeSelect id={`route-${r.route}`} name={r.route} defaultValue={r.connection_id ?? ""} className="w-48">
                  {r.connection_id && !usable.some((p) => p.id === r.connection_id) ? (
                    <NativeSelectOption value={r.connection_id}>{t("providers.routes.disabledOption", { name: r.connection_name })}</NativeSelectOption>
                  ) : null}
                  {usable.map((p) => (
                    <NativeSelectOption key={p.id} value={p.id}>{`${p.name} (${t(`providers.kinds.${p.kind}`)})`}</NativeSelectOption>
                  ))}
                </NativeSelect>
                <ErrorText errors={routesErrors?.[r.route]} />
              </div>
            ))}
            <Button type="submit" disabled={busy}>
              {t("providers.routes.submit")}
            </Button>
          </Form>
        </CardContent>
      </Card>

      <div className="grid grid-cols-1 items-start gap-6 xl:grid-cols-[minmax(0,1fr)_22rem]">
        <Card>
          <CardContent>
            {list.length === 0 ? (
              <p className="py-8 text-center text-sm text-muted-foreground">{t("providers.empty")}</p>
            ) : (
              <Table>
                <TableHeader>
                  <TableRow>
                    <TableHead>{t("providers.columns.name")}</TableHead>
                    <TableHead>{t("providers.columns.kind")}</TableHead>
                    <TableHead>{t("providers.columns.target")}</TableHead>
                    <TableHead>{t("providers.columns.credentials")}</TableHead>
                    <TableHead>{t("providers.columns.routes")}</TableHead>
                    <TableHead>{t("providers.columns.status")}</TableHead>
                    <TableHead className="text-right">{t("providers.columns.actions")}</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {list.map((p) => {
                    const mine = rowReply?.id === p.id ? rowReply : undefined;
                    const editErrors = mine?.intent === "edit" ? mine.errors : undefined;
                    const hints = Object.entries(p.secrets).map(([k, v]) => `${t(`providers.secrets.${k}`)} ${v}`);
                    return (
                      <TableRow key={p.id} data-provider={p.name}>
                        <TableCell className="font-mono font-medium">{p.name}</TableCell>
                        <TableCell>{t(`providers.kinds.${p.kind}`)}</TableCell>
                        <TableCell className="max-w-56 truncate font-mono text-xs" title={describe(p)}>
                          {describe(p) || "—"}
                        </TableCell>
                        <TableCell className="font-mono text-xs">{hints.length ? hints.join(" · ") : "—"}</TableCell>
                        <TableCell data-testid="provider-routes">{p.routes.join(", ") || "—"}</TableCell>
                        <TableCell>{p.enabled ? t("providers.enabled") : t("providers.disabled")}</TableCell>
                        <TableCell className="text-right align-top">
                          <div className="flex flex-wrap items-start justify-end gap-2">
                            <Form method="post">
                              <CsrfInput />
                              <input type="hidden" name="intent" value="test" />
                              <input type="hidden" name="id" value={p.id} />
                              <Button type="submit" size="sm" variant="outline" disabled={busy} aria-label={t("providers.test.label", { name: p.name })}>
                                {t("providers.test.submit")}
                              </Button>
                            </Form>
                            <details className="text-left" open={Boolean(editErrors)}>
                              <summary className={summaryClass} aria-label={t("providers.edit.label", { name: p.name })}>
                                {t("providers.edit.summary")}
                              </summary>
                              <Form method="post" className="mt-2 w-72 space-y-3 rounded-md border bg-popover p-3 text-sm whitespace-normal shadow-sm">
                                <CsrfInput />
                                <input type="hidden" name="intent" value="edit" />
                                <input type="hidden" name="id" value={p.id} />
                                <FormErrors errors={editErrors?.[""]} />
                                <EditFields p={p} errors={editErrors} />
                                <Button type="submit" size="sm">
                                  {t("providers.edit.submit")}
                                </Button>
                              </Form>
                            </details>
                            <ConfirmDelete
                              id={p.id}
                              errors={mine?.intent === "delete" ? mine.errors?.[""] : undefined}
                              summary={t("providers.delete.summary")}
                              label={t("providers.delete.label", { name: p.name })}
                              body={t("providers.delete.body", { name: p.name })}
                              confirm={t("providers.delete.confirm")}
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
            <h2 className="leading-none font-semibold">{t("providers.create.title")}</h2>
            <CardDescription>{t("providers.create.description")}</CardDescription>
          </CardHeader>
          <CardContent>
            <Form method="post" {...getFormProps(form)} className="space-y-4">
              <CsrfInput />
              <input type="hidden" name="intent" value="create" />
              <FormErrors errors={form.errors} />
              <TextField field={fields.name} label={t("providers.fields.name")} description={t("providers.fields.nameHint")} autoComplete="off" />
              <SelectField field={fields.kind} label={t("providers.fields.kind")} options={kinds} />
              <fieldset className="space-y-3 rounded-md border p-3">
                <legend className="px-1 text-xs text-muted-foreground">{t("providers.fields.httpGroup")}</legend>
                <TextField field={fields.url} label={t("providers.fields.url")} type="url" />
                <TextField field={fields.api_key} label={t("providers.fields.apiKey")} autoComplete="off" />
                <TextField field={fields.webhook_secret} label={t("providers.fields.webhookSecret")} description={t("providers.fields.webhookSecretHint")} autoComplete="off" />
              </fieldset>
              <fieldset className="space-y-3 rounded-md border p-3">
                <legend className="px-1 text-xs text-muted-foreground">{t("providers.fields.smppGroup")}</legend>
                <TextField field={fields.host} label={t("providers.fields.host")} />
                <TextField field={fields.port as unknown as Parameters<typeof TextField>[0]["field"]} label={t("providers.fields.port")} type="number" />
                <TextField field={fields.system_id} label={t("providers.fields.systemId")} autoComplete="off" />
                <TextField field={fields.password} label={t("providers.fields.password")} type="password" autoComplete="new-password" />
                <TextField field={fields.system_type} label={t("providers.fields.systemType")} />
              </fieldset>
              <TextField field={fields.tps as unknown as Parameters<typeof TextField>[0]["field"]} label={t("providers.fields.tps")} type="number" />
              <CheckboxField field={fields.enabled as unknown as Parameters<typeof CheckboxField>[0]["field"]} label={t("providers.fields.enabled")} />
              <Button type="submit" className="w-full" disabled={busy}>
                {t("providers.create.submit")}
              </Button>
            </Form>
          </CardContent>
        </Card>
      </div>
      <ProviderCosts costs={costs as unknown as ProviderCost[]} providers={list} reply={reply} />
    </div>
  );
}
