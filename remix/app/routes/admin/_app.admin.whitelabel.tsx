/** /admin/whitelabel: the reseller's own branding (name, color, host); platform staff also see every brand. */
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "~/lib/react-i18n";
import { whitelabelSchema } from "~api/whitelabel/schemas";
import { getWhitelabel, saveWhitelabel } from "~api/whitelabel/services";
import { CsrfInput, FormErrors, TextField, useErrorText } from "~/components/forms/fields";
import { BrandPreview } from "~/components/settings/brand-preview";
import { WhitelabelTable } from "~/components/settings/whitelabel-table";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { FormField } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import type { Lng } from "~/lib/i18n";
import { redirectWithToast } from "~/lib/toast.server";
import type { RootData } from "~/root";
import { useLazyValidate } from "~/lib/lazy-validate";

export const handle = { crumb: "admin:whitelabel.title" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const { own, all } = await orHttpError(getWhitelabel(ctx));
  const view = (w: NonNullable<typeof own>) => ({ id: w.id, name: w.name, color: w.color, host: w.host, updatedAt: w.updatedAt.toISOString() });
  return json({ own: own ? view(own) : null, all: ctx.actor.accountType === "platform" ? all.map(view) : null });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  return handleForm(request, whitelabelSchema, async (value) => {
    await saveWhitelabel(ctx, value);
    return redirectWithToast(request, "/admin/whitelabel", { type: "success", title: "admin:whitelabel.saved" });
  });
}

const HEX = /^#[0-9a-fA-F]{6}$/;
const DEFAULT_COLOR = "#0f766e";

export default function WhitelabelAdmin() {
  const { own, all } = useLoaderData<typeof loader>();
  const root = useRouteLoaderData<RootData>("root");
  const lng = (root?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation(["admin", "common"]);
  const errorText = useErrorText();
  const last = useActionData<FormReply & { params?: Record<string, unknown> }>();
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm({
    id: "whitelabel-form",
    lastResult: last?.result,
    defaultValue: { name: own?.name ?? "", color: own?.color ?? DEFAULT_COLOR, host: own?.host ?? "" },
    onValidate: useLazyValidate(() => import("~api/whitelabel/schemas").then((m) => m.whitelabelSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  // The preview follows the form as the person types (with JavaScript); without it, it shows what is saved.
  const [preview, setPreview] = useState({ name: own?.name ?? "", color: own?.color ?? DEFAULT_COLOR });
  // The color picker is an enhancement: it only appears once JavaScript runs, and writes into the text field.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const colorErrors = fields.color.errors?.map((e) => errorText(e));

  return (
    <div className="space-y-8">
      <PageHeader description={t("whitelabel.description")} />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <Card>
          <CardHeader>
            <CardTitle>{own ? t("whitelabel.edit") : t("whitelabel.create")}</CardTitle>
            <CardDescription>{t("whitelabel.formHint")}</CardDescription>
          </CardHeader>
          <CardContent>
            <Form
              method="post"
              {...getFormProps(form)}
              className="space-y-4"
              onChange={(e) => {
                // Typing in the named fields; the color picker (no name) updates the preview itself.
                if (!(e.target as HTMLInputElement).name) return;
                const f = e.currentTarget;
                const name = (f.elements.namedItem("name") as HTMLInputElement | null)?.value ?? "";
                const color = (f.elements.namedItem("color") as HTMLInputElement | null)?.value ?? "";
                setPreview({ name, color });
              }}
            >
              <CsrfInput />
              <FormErrors errors={form.errors} params={last?.params} />
              <TextField field={fields.name} label={t("whitelabel.name")} autoComplete="organization" />
              <FormField label={t("whitelabel.color")} htmlFor={fields.color.id} error={colorErrors} description={t("whitelabel.colorHint")}>
                <div className="flex items-center gap-2">
                  {hydrated ? (
                    <input
                      type="color"
                      aria-label={t("whitelabel.colorPicker")}
                      className="h-9 w-12 cursor-pointer rounded-md border bg-transparent p-1"
                      value={HEX.test(preview.color) ? preview.color.toLowerCase() : DEFAULT_COLOR}
                      onChange={(e) => {
                        const value = e.currentTarget.value;
                        form.update({ name: fields.color.name, value });
                        setPreview((p) => ({ ...p, color: value }));
                      }}
                    />
                  ) : (
                    <span className="inline-block size-9 shrink-0 rounded-md border" style={{ background: own?.color ?? DEFAULT_COLOR }} aria-hidden />
                  )}
                  <Input
                    {...getInputProps(fields.color, { type: "text", ariaDescribedBy: `${fields.color.id}-description` })}
                    key={fields.color.key}
                    className="font-mono"
                    maxLength={7}
                    spellCheck={false}
                  />
                </div>
              </FormField>
              <TextField field={fields.host} label={t("whitelabel.host")} description={t("whitelabel.hostHint")} autoComplete="off" />
              <div className="flex justify-end">
                <Button type="submit" disabled={busy}>
                  {t("common:actions.save")}
                </Button>
              </div>
            </Form>
          </CardContent>
        </Card>
        <BrandPreview name={preview.name || t("common:appName")} color={HEX.test(preview.color) ? preview.color : (own?.color ?? DEFAULT_COLOR)} />
      </div>
      {all ? <WhitelabelTable rows={all} lng={lng} /> : null}
    </div>
  );
}
