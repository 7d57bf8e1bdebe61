/**
 * /whatsapp/request: ask for a WhatsApp number (spec section 2) — the business's data Meta's
 * onboarding asks for (legal name, CNPJ, website, e-mail, phone, address), the display name and
 * category, the number and the integration wanted, and a description — and the account's requests
 * newest first, each with its status and dates (São Paulo time) and, while requested or in review,
 * a cancel behind a confirmation. createNumberRequest / cancelNumberRequest hold every rule; a
 * refusal is shown next to its field, translated. Plain forms: works without JavaScript.
 */
import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { formatCnpj } from "~api/lib/cnpj";
import { z } from "~api/lib/zod";
import { formatPhone } from "~api/contacts/phone";
import { cancelNumberRequest, createNumberRequest, listNumberRequests } from "~api/whatsapp/number-requests";
import { REQUEST_INTEGRATIONS, VERTICALS } from "~api/whatsapp/request-constants";
import { numberRequestSchema } from "~api/whatsapp/request-schema";
import { ConfirmDelete } from "~/components/forms/confirm-delete";
import { SelectField, TextareaField } from "~/components/forms/controls";
import { CsrfInput, FormErrors, TextField } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { RequestStatusBadge } from "~/components/whatsapp/badges";
import { CursorPager } from "~/components/whatsapp/cursor-pager";
import { requireRoute } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { formatDate } from "~/lib/format";
import type { Lng } from "~/lib/i18n";
import { redirectWithToast } from "~/lib/toast.server";
import type { RootData } from "~/root";
import { useLazyValidate } from "~/lib/lazy-validate";

export const handle = { crumb: "whatsapp:crumbs.request" };

const PAGE = 20;
const PENDING = ["requested", "in_review"];
const cancelSchema = z.object({ intent: z.literal("cancel"), id: z.string().min(1, "validation.required") });

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const cursor = new URL(request.url).searchParams.get("cursor") ?? undefined;
  const listed = await listNumberRequests(ctx, { cursor, limit: PAGE });
  // Numbers and CNPJs formatted here: the browser gets no phone metadata for a list (ADR 052).
  const page = { ...listed, data: listed.data.map((r) => ({ ...r, phone_display: formatPhone(r.phone_number), cnpj_display: formatCnpj(r.cnpj) })) };
  return json({ page, cursor: cursor ?? null }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const intent = (await request.clone().formData()).get("intent");
  if (intent === "cancel") {
    return handleForm(request, cancelSchema, async ({ id }) => {
      const { data } = await cancelNumberRequest(ctx, id);
      return redirectWithToast(request, "/whatsapp/request", { type: "success", title: "whatsapp:request.canceled", params: { number: formatPhone(data.phone_number) } });
    });
  }
  return handleForm(request, numberRequestSchema, async (input) => {
    const { data } = await createNumberRequest(ctx, input);
    return redirectWithToast(request, "/whatsapp/request", { type: "success", title: "whatsapp:request.created", params: { number: formatPhone(data.phone_number) } });
  });
}

function RequestForm({ lastResult, busy }: { lastResult?: FormReply["result"]; busy: boolean }) {
  const { t } = useTranslation("whatsapp");
  const [form, fields] = useForm({
    id: "whatsapp-request",
    lastResult,
    defaultValue: { integration: "cloud" },
    onValidate: useLazyValidate(() => import("~api/whatsapp/request-schema").then((m) => m.numberRequestSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-6">
      <CsrfInput />
      <input type="hidden" name="intent" value="request" />
      <FormErrors errors={form.errors} />
      <fieldset className="grid items-start gap-4 md:grid-cols-2">
        <legend className="mb-2 text-sm font-semibold">{t("request.form.business")}</legend>
        <TextField field={fields.legal_name} label={t("request.form.legalName")} autoComplete="organization" className="md:col-span-2" />
        <TextField field={fields.cnpj} label={t("request.form.cnpj")} description={t("request.form.cnpjHint")} autoComplete="off" />
        <TextField field={fields.website} label={t("request.form.website")} type="url" description={t("request.form.websiteHint")} autoComplete="url" />
        <TextField field={fields.email} label={t("request.form.email")} type="email" autoComplete="email" />
        <TextField field={fields.business_phone} label={t("request.form.businessPhone")} type="tel" description={t("request.form.phoneHint")} autoComplete="tel" />
        <TextField field={fields.address} label={t("request.form.address")} description={t("request.form.optional")} autoComplete="street-address" className="md:col-span-2" />
      </fieldset>
      <fieldset className="grid items-start gap-4 md:grid-cols-2">
        <legend className="mb-2 text-sm font-semibold">{t("request.form.whatsapp")}</legend>
        <TextField field={fields.display_name} label={t("request.form.displayName")} description={t("request.form.displayNameHint")} autoComplete="off" className="md:col-span-2" />
        <SelectField
          field={fields.vertical}
          label={t("request.form.vertical")}
          placeholder={t("request.form.choose")}
          options={VERTICALS.map((v) => ({ value: v, label: t(`request.vertical.${v}`) }))}
        />
        <TextField field={fields.phone_number} label={t("request.form.phoneNumber")} type="tel" description={t("request.form.phoneNumberHint")} autoComplete="off" />
        <SelectField
          field={fields.integration}
          label={t("request.form.integration")}
          description={t("request.form.integrationHint")}
          options={REQUEST_INTEGRATIONS.map((v) => ({ value: v, label: t(`request.integration.${v}`) }))}
          className="md:col-span-2"
        />
        <TextareaField field={fields.description} label={t("request.form.description")} description={t("request.form.descriptionHint")} className="md:col-span-2" />
      </fieldset>
      <Button type="submit" disabled={busy}>
        {t("request.form.submit")}
      </Button>
    </Form>
  );
}

export default function WhatsappRequest() {
  const { page, cursor } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation(["whatsapp", "common"]);
  const sent = last?.result.initialValue as { intent?: string; id?: string } | undefined;
  const cancelReply = sent?.intent === "cancel" ? sent.id : undefined;

  return (
    <div className="space-y-6">
      <PageHeader description={t("request.description")} />

      <Card>
        <CardHeader>
          <CardTitle>
            <h2>{t("request.list.title")}</h2>
          </CardTitle>
          <CardDescription>{t("request.list.description")}</CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          {page.data.length === 0 ? (
            <p className="py-6 text-center text-sm text-muted-foreground">{t("request.list.empty")}</p>
          ) : (
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>{t("request.list.number")}</TableHead>
                  <TableHead>{t("request.list.displayName")}</TableHead>
                  <TableHead>{t("request.list.business")}</TableHead>
                  <TableHead>{t("request.list.status")}</TableHead>
                  <TableHead>{t("request.list.requestedAt")}</TableHead>
                  <TableHead className="text-right">
                    <span className="sr-only">{t("request.list.actions")}</span>
                  </TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {page.data.map((r) => (
                  <TableRow key={r.id} data-request={r.id} data-phone={r.phone_number}>
                    <TableCell className="align-top whitespace-nowrap">
                      <div className="font-medium">{r.phone_display}</div>
                      <div className="text-xs text-muted-foreground">{t(`request.integration.${r.integration}`)}</div>
                    </TableCell>
                    <TableCell className="align-top">
                      <div>{r.display_name}</div>
                      <div className="text-xs text-muted-foreground">{t(`request.vertical.${r.vertical}`, { defaultValue: r.vertical })}</div>
                    </TableCell>
                    <TableCell className="align-top">
                      <div>{r.legal_name}</div>
                      <div className="text-xs text-muted-foreground tabular-nums">{r.cnpj_display}</div>
                    </TableCell>
                    <TableCell className="align-top whitespace-normal">
                      <RequestStatusBadge status={r.status} />
                      <div className="mt-1 text-xs whitespace-nowrap text-muted-foreground tabular-nums">
                        {t("request.list.since", { date: formatDate(r.status_at, lng, true) })}
                      </div>
                      {r.status === "rejected" && r.reason ? <p className="mt-1 max-w-64 text-xs text-muted-foreground">{t("request.list.reason", { reason: r.reason })}</p> : null}
                    </TableCell>
                    <TableCell className="align-top whitespace-nowrap tabular-nums" data-created-at>
                      {formatDate(r.created_at, lng, true)}
                    </TableCell>
                    <TableCell className="text-right align-top">
                      {PENDING.includes(r.status) ? (
                        <ConfirmDelete
                          id={r.id}
                          intent="cancel"
                          errors={cancelReply === r.id ? last?.result.error?.[""] : undefined}
                          summary={t("request.cancel.summary")}
                          label={t("request.cancel.label", { number: r.phone_display })}
                          body={t("request.cancel.body", { number: r.phone_display })}
                          confirm={t("request.cancel.confirm")}
                        />
                      ) : null}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
          <CursorPager cursor={cursor ?? ""} next={page.next_cursor} href={(c) => (c ? `/whatsapp/request?cursor=${encodeURIComponent(c)}` : "/whatsapp/request")} />
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>
            <h2>{t("request.form.title")}</h2>
          </CardTitle>
          <CardDescription>{t("request.form.intro")}</CardDescription>
        </CardHeader>
        <CardContent>
          {/* A new request remounts the form: its fields start empty again. */}
          <RequestForm key={page.data[0]?.id ?? "none"} lastResult={sent?.intent === "cancel" ? undefined : last?.result} busy={busy} />
        </CardContent>
      </Card>
    </div>
  );
}
