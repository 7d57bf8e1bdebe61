/**
 * /lookup: look up one number (a plain form: works without JavaScript; post-redirect-get to
 * ?result=<id>) and the account's recent single lookups, exportable as CSV (/lookup/export).
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { isAppError } from "~api/lib/errors";
import { getLookup, lookupNumber, lookupPrice, recentLookups } from "~api/lookup/services";
import { CsrfInput, FormErrors, useErrorText } from "~/components/forms/fields";
import { ResultsTable, ValidityBadge } from "~/components/lookup/results-table";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { FormField } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { requireCsrf } from "~/lib/csrf.server";
import { formatMoney } from "~/lib/format";
import { redirectWithToast } from "~/lib/toast.server";
import type { RootData } from "~/root";

export const handle = { crumb: "lookup:single.crumb" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const id = new URL(request.url).searchParams.get("result");
  const [recent, price, result] = await Promise.all([
    orHttpError(recentLookups(ctx, 20)),
    lookupPrice(ctx.actor.accountId).catch(() => null),
    id ? getLookup(ctx, id).catch(() => null) : Promise.resolve(null),
  ]);
  return json({ recent, price, result });
}

type Reply = { fieldErrors?: string[]; formErrors?: string[]; number?: string };

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const form = await request.formData();
  try {
    await requireCsrf(request, form);
  } catch {
    return json<Reply>({ formErrors: ["errors.CSRF"] }, { status: 403 });
  }
  const number = String(form.get("number") ?? "");
  try {
    const r = await lookupNumber(ctx, number);
    return redirectWithToast(request, `/lookup?result=${r.id}`, { type: "success", title: "lookup:single.done" });
  } catch (e) {
    if (!isAppError(e)) throw e;
    if (e.fields?.number) return json<Reply>({ fieldErrors: e.fields.number, number }, { status: e.status });
    return json<Reply>({ formErrors: [`errors.${e.code}`], number }, { status: e.status });
  }
}

export default function LookupSingle() {
  const { recent, price, result } = useLoaderData<typeof loader>();
  const reply = useActionData<Reply>();
  const lng = useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR";
  const { t } = useTranslation("lookup");
  const errorText = useErrorText();
  const busy = useNavigation().state === "submitting";
  const fieldError = reply?.fieldErrors?.map((e) => errorText(e));
  return (
    <div className="space-y-6">
      <PageHeader
        description={t("lookup:single.description")}
        actions={
          <div className="flex flex-wrap gap-2">
            <Button asChild variant="outline">
              <Link to="/lookup/list">{t("lookup:nav.list")}</Link>
            </Button>
            <Button asChild variant="outline">
              <Link to="/lookup/usage">{t("lookup:nav.usage")}</Link>
            </Button>
          </div>
        }
      />
      <Card className="max-w-2xl">
        <CardHeader>
          <h2 className="leading-none font-semibold">{t("lookup:single.title")}</h2>
          {price ? <CardDescription>{t("lookup:single.price", { price: formatMoney(price.price, price.currency, lng) })}</CardDescription> : null}
        </CardHeader>
        <CardContent>
          <Form method="post" className="space-y-4" aria-busy={busy || undefined}>
            <CsrfInput />
            <FormErrors errors={reply?.formErrors} />
            <FormField label={t("lookup:single.number")} htmlFor="lookup-number" description={t("lookup:single.numberHint")} error={fieldError}>
              <Input
                id="lookup-number"
                name="number"
                type="tel"
                inputMode="tel"
                autoComplete="off"
                required
                defaultValue={reply?.number ?? ""}
                aria-invalid={fieldError ? true : undefined}
                aria-describedby={fieldError ? "lookup-number-description lookup-number-error" : "lookup-number-description"}
              />
            </FormField>
            <Button type="submit" disabled={busy}>
              {t("lookup:single.submit")}
            </Button>
          </Form>
        </CardContent>
      </Card>
      {result ? (
        <Card className="max-w-2xl" data-testid="lookup-result">
          <CardHeader>
            <h2 className="leading-none font-semibold">{t("lookup:single.result", { number: result.number })}</h2>
          </CardHeader>
          <CardContent>
            <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-3">
              <div>
                <dt className="text-muted-foreground">{t("lookup:columns.valid")}</dt>
                <dd>
                  <ValidityBadge r={result} />
                </dd>
              </div>
              <div>
                <dt className="text-muted-foreground">{t("lookup:columns.type")}</dt>
                <dd>{result.type ? t(`lookup:types.${result.type}`) : "—"}</dd>
              </div>
              <div>
                <dt className="text-muted-foreground">{t("lookup:columns.country")}</dt>
                <dd>{result.country ?? "—"}</dd>
              </div>
              <div>
                <dt className="text-muted-foreground">{t("lookup:columns.carrier")}</dt>
                <dd>{result.carrier ?? "—"}</dd>
              </div>
              <div>
                <dt className="text-muted-foreground">{t("lookup:columns.ported")}</dt>
                <dd>{result.ported === null ? "—" : result.ported ? t("lookup:ported.yes", { from: result.originalCarrier ?? "—" }) : t("lookup:ported.no")}</dd>
              </div>
              <div>
                <dt className="text-muted-foreground">{t("lookup:columns.price")}</dt>
                <dd>{formatMoney(result.price, result.currency, lng)}</dd>
              </div>
            </dl>
          </CardContent>
        </Card>
      ) : null}
      <Card>
        <CardHeader>
          <h2 className="leading-none font-semibold">{t("lookup:single.recent")}</h2>
          <CardDescription>
            {recent.length ? (
              <a className="underline" href="/lookup/export" download>
                {t("lookup:export")}
              </a>
            ) : null}
          </CardDescription>
        </CardHeader>
        <CardContent>
          {recent.length === 0 ? (
            <p className="py-6 text-center text-sm text-muted-foreground">{t("lookup:single.empty")}</p>
          ) : (
            <ResultsTable rows={recent} lng={lng} region={t("lookup:single.recent")} />
          )}
        </CardContent>
      </Card>
    </div>
  );
}
