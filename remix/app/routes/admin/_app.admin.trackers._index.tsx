/**
 * /admin/trackers (issue 23, ADR 062; platform staff): the SMS trackers — a phone number or a
 * sender id followed across every account — each opening its page of matching messages; a form
 * to follow one more and a confirmed delete per row. Plain POST forms with CSRF, redirect after
 * post, errors beside their field: everything works without JavaScript.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { z } from "~api/lib/zod";
import { TRACKER_KINDS } from "~api/trackers/constants";
import { createTracker, deleteTracker, listTrackers } from "~api/trackers/trackers";
import { ConfirmDeleteRow } from "~/components/forms/confirm-delete";
import { CsrfInput, ErrorText, FormErrors } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { formatDate } from "~/lib/format";
import { deleteIntentSchema, handleForm, type FormReply } from "~/lib/forms.server";
import type { Lng } from "~/lib/i18n";
import { redirectWithToast } from "~/lib/toast.server";
import type { RootData } from "~/root";

export const handle = { crumb: "adminAudit:trackers.title" };

const PATH = "/admin/trackers";
/** The form's fields as typed; the use-case checks the number or sender (its errors come back on `value`). */
const createSchema = z.object({
  intent: z.literal("create"),
  kind: z.enum(TRACKER_KINDS, { error: "validation.option" }),
  value: z.string({ error: "validation.required" }).trim().min(1, "validation.required").max(32, "validation.max::32"),
  label: z.string().trim().max(100, "validation.max::100").optional(),
});

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const { data } = await orHttpError(listTrackers(ctx));
  return json({ trackers: data }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const intent = (await request.clone().formData()).get("intent");
  if (intent === "delete") {
    return handleForm(request, deleteIntentSchema, async ({ id }) => {
      await deleteTracker(ctx, id);
      return redirectWithToast(request, PATH, { type: "success", title: "adminAudit:trackers.deleted" });
    });
  }
  return handleForm(request, createSchema, async ({ intent: _i, ...value }) => {
    const r = await createTracker(ctx, value);
    return redirectWithToast(request, `${PATH}/${r.data.id}`, { type: "success", title: "adminAudit:trackers.created", params: { value: r.data.value } });
  });
}

export default function AdminTrackers() {
  const { trackers } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation("adminAudit");
  const sent = last?.result.initialValue as { intent?: string; id?: string; kind?: string; value?: string; label?: string } | undefined;
  const createErrors = sent?.intent !== "delete" ? last?.result.error : undefined;
  const deleteErrors = sent?.intent === "delete" ? { id: sent.id, errors: last?.result.error?.[""] } : undefined;
  return (
    <div className="space-y-6">
      <PageHeader description={t("trackers.description")} />
      <Card>
        <CardHeader>
          <CardTitle>{t("trackers.create.title")}</CardTitle>
        </CardHeader>
        <CardContent>
          <Form method="post" action={`${PATH}?index`} aria-label={t("trackers.create.title")} className="flex flex-wrap items-start gap-3">
            <CsrfInput />
            <input type="hidden" name="intent" value="create" />
            <FormErrors errors={createErrors?.[""]} />
            <div className="grid gap-1">
              <Label htmlFor="tracker-kind">{t("trackers.fields.kind")}</Label>
              <NativeSelect id="tracker-kind" name="kind" defaultValue={sent?.kind ?? "phone"}>
                {TRACKER_KINDS.map((k) => (
                  <NativeSelectOption key={k} value={k}>
                    {t(`trackers.kinds.${k}`)}
                  </NativeSelectOption>
                ))}
              </NativeSelect>
              <ErrorText errors={createErrors?.kind} />
            </div>
            <div className="grid gap-1">
              <Label htmlFor="tracker-value">{t("trackers.fields.value")}</Label>
              <Input
                id="tracker-value"
                name="value"
                required
                maxLength={32}
                defaultValue={sent?.value ?? ""}
                placeholder={t("trackers.fields.valuePlaceholder")}
                aria-invalid={createErrors?.value?.length ? true : undefined}
                aria-describedby={createErrors?.value?.length ? "tracker-value-error" : undefined}
              />
              <ErrorText id="tracker-value-error" errors={createErrors?.value} />
            </div>
            <div className="grid gap-1">
              <Label htmlFor="tracker-label">{t("trackers.fields.label")}</Label>
              <Input id="tracker-label" name="label" maxLength={100} defaultValue={sent?.label ?? ""} />
              <ErrorText errors={createErrors?.label} />
            </div>
            <Button type="submit" className="mt-6">
              {t("trackers.create.submit")}
            </Button>
          </Form>
        </CardContent>
      </Card>
      <Card>
        <CardContent className="overflow-x-auto pt-6">
          {trackers.length === 0 ? (
            <p className="py-6 text-center text-sm text-muted-foreground">{t("trackers.empty")}</p>
          ) : (
            <table className="w-full text-sm">
              <thead>
                <tr className="text-left text-muted-foreground">
                  <th className="py-2">{t("trackers.fields.value")}</th>
                  <th>{t("trackers.fields.kind")}</th>
                  <th>{t("trackers.fields.label")}</th>
                  <th>{t("trackers.createdBy")}</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {trackers.map((tr) => (
                  <tr key={tr.id} data-tracker-id={tr.id} className="border-t">
                    <td className="py-2">
                      <Link to={`${PATH}/${tr.id}`} className="font-mono underline">
                        {tr.value}
                      </Link>
                    </td>
                    <td>{t(`trackers.kinds.${tr.kind}`)}</td>
                    <td>{tr.label ?? ""}</td>
                    <td>
                      {tr.created_by_email ?? ""} <span className="text-xs text-muted-foreground">{formatDate(tr.created_at, lng, true)}</span>
                    </td>
                    <td className="text-right">
                      <ConfirmDeleteRow t={t} prefix="trackers" params={{ value: tr.value }} id={tr.id} errors={deleteErrors?.id === tr.id ? deleteErrors.errors : null} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
