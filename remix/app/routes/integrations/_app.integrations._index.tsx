/**
 * /integrations (issue 23, ADR 066): the catalogue of what the account can connect — channels
 * (/channels), webhooks (/webhooks), Reclame Aqui (/ra) and Nuvemshop, installed here with a plain
 * form (store id, token, app secret; works without JavaScript, refused fields shown beside them,
 * secrets never sent back). An installed store links to its page.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { installIntegration, installSchema, listIntegrations } from "~/lib/integrations.server";
import { canWrite } from "~api/policy/policy";
import { CsrfInput, ErrorText, FormErrors } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { requireRoute } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { useTranslation } from "~/lib/react-i18n";
import { redirectWithToast } from "~/lib/toast.server";

export const handle = { crumb: "integrations:title" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const { data } = await listIntegrations(ctx);
  return json(
    { installed: data.map((i) => ({ id: i.id, kind: i.kind, name: i.name, store_id: i.store_id })), canManage: canWrite(ctx.actor, "integrations") },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request, "/integrations");
  return handleForm(
    request,
    installSchema,
    async (v) => {
      const { data } = await installIntegration(ctx, v);
      return redirectWithToast(request, `/integrations/${data.id}`, { type: "success", title: "integrations:install.installed" });
    },
    { hideFields: ["access_token", "app_secret"] },
  );
}

const LINKS = [
  { key: "channels", href: "/channels" },
  { key: "webhooks", href: "/webhooks" },
  { key: "ra", href: "/ra" },
] as const;

export default function Integrations() {
  const { installed, canManage } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation("integrations");
  const errors = last?.result.error;
  const sent = (last?.result.initialValue ?? {}) as Record<string, string>;
  const invalid = (name: string) => Boolean(errors?.[name]?.length) || undefined;
  const stores = installed.filter((i) => i.kind === "nuvemshop");
  return (
    <div className="space-y-6">
      <PageHeader
        description={t("description")}
        actions={
          <Button asChild variant="outline" size="sm">
            <Link to="/integrations/installed">{t("catalogue.installedList")}</Link>
          </Button>
        }
      />
      <div className="grid gap-4 md:grid-cols-2">
        {LINKS.map((l) => (
          <Card key={l.key} data-integration={l.key}>
            <CardHeader>
              <CardTitle>{t(`catalogue.${l.key}`)}</CardTitle>
              <CardDescription>{t(`catalogue.${l.key}Text`)}</CardDescription>
            </CardHeader>
            <CardContent>
              <Button asChild variant="outline" size="sm">
                <Link to={l.href}>{t("catalogue.open")}</Link>
              </Button>
            </CardContent>
          </Card>
        ))}
        <Card data-integration="nuvemshop" className="md:col-span-2">
          <CardHeader>
            <CardTitle>{t("catalogue.nuvemshop")}</CardTitle>
            <CardDescription>{t("catalogue.nuvemshopText")}</CardDescription>
          </CardHeader>
          <CardContent className="space-y-4">
            {stores.length > 0 ? (
              <ul className="space-y-1 text-sm">
                {stores.map((s) => (
                  <li key={s.id} className="flex items-center gap-2">
                    <Badge variant="secondary">{t("catalogue.installed")}</Badge>
                    <Link className="underline" to={`/integrations/${s.id}`}>
                      {s.name || s.store_id}
                    </Link>
                  </li>
                ))}
              </ul>
            ) : null}
            {canManage ? (
              <Form method="post" action="/integrations?index" className="grid max-w-xl gap-4" aria-label={t("install.title")}>
                <CsrfInput />
                <input type="hidden" name="kind" value="nuvemshop" />
                <FormErrors errors={errors?.[""] ?? errors?.kind} />
                <p className="text-sm text-muted-foreground">{t("install.hint")}</p>
                <div className="grid gap-1.5">
                  <Label htmlFor="install-store">{t("install.storeId")}</Label>
                  <Input id="install-store" name="store_id" inputMode="numeric" defaultValue={sent.store_id ?? ""} required aria-invalid={invalid("store_id")} />
                  <ErrorText errors={errors?.store_id} />
                </div>
                <div className="grid gap-1.5">
                  <Label htmlFor="install-token">{t("install.accessToken")}</Label>
                  <Input id="install-token" name="access_token" type="password" autoComplete="off" required aria-invalid={invalid("access_token")} />
                  <ErrorText errors={errors?.access_token} />
                </div>
                <div className="grid gap-1.5">
                  <Label htmlFor="install-secret">{t("install.appSecret")}</Label>
                  <Input id="install-secret" name="app_secret" type="password" autoComplete="off" required aria-invalid={invalid("app_secret")} />
                  <ErrorText errors={errors?.app_secret} />
                </div>
                <div>
                  <Button type="submit" disabled={busy}>
                    {t("install.submit")}
                  </Button>
                </div>
              </Form>
            ) : (
              <p className="text-sm text-muted-foreground">{t("detail.readOnly")}</p>
            )}
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
