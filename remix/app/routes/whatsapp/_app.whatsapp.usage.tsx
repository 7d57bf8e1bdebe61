/** /whatsapp/usage: a period's (default this month, at most 31 days; a GET form) WhatsApp messages and cost per Meta pricing category, in the account's currency. */
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { isAppError } from "~api/lib/errors";
import { whatsappUsage } from "~api/whatsapp/reports";
import { FiguresTable } from "~/components/charts/figures-table";
import { Figures } from "~/components/sms-reports/figures";
import { formatCount } from "~/components/sms-reports/format";
import { RangeForm } from "~/components/sms-reports/range-form";
import { PageHeader } from "~/components/shell/page-header";
import { Card, CardContent, CardHeader } from "~/components/ui/card";
import { requireRoute } from "~/lib/auth.server";
import { formatMoney } from "~/lib/format";
import type { RootData } from "~/root";

export const handle = { crumb: "whatsapp:crumbs.usage" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const params = new URL(request.url).searchParams;
  const values = { from: params.get("from")?.trim() ?? "", to: params.get("to")?.trim() ?? "" };
  try {
    return json({ usage: await whatsappUsage(ctx, values), values, errors: {} as Record<string, string[]> }, { headers: { "Cache-Control": "private, no-store" } });
  } catch (e) {
    if (!isAppError(e) || e.code !== "VALIDATION") throw e;
    return json({ usage: null, values, errors: (e.fields ?? {}) as Record<string, string[]> });
  }
}

export default function WhatsappUsage() {
  const { usage, values, errors } = useLoaderData<typeof loader>();
  const lng = useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR";
  const { t } = useTranslation("whatsapp");
  return (
    <div className="space-y-6">
      <PageHeader description={t("reports.usageDescription")} />
      <Card>
        <CardHeader>
          <RangeForm action="/whatsapp/usage" values={{ from: values.from || usage?.from || "", to: values.to || usage?.to || "" }} errors={errors} />
        </CardHeader>
      </Card>
      {usage ? (
        <>
          <Figures
            items={[
              { key: "messages", label: t("reports.messages"), value: formatCount(usage.totals.messages, lng) },
              { key: "cost", label: t("reports.cost"), value: formatMoney(usage.totals.cost, usage.currency, lng) },
            ]}
          />
          <Card>
            <CardContent className="pt-6">
              <FiguresTable
                head={t("reports.category")}
                rows={usage.data}
                rowKey={(r) => r.category}
                rowLabel={(r) => t(`category.${r.category}`)}
                rowAttr="category"
                columns={[
                  { key: "messages", label: t("reports.messages"), value: (r) => formatCount(r.messages, lng) },
                  { key: "cost", label: t("reports.cost"), value: (r) => formatMoney(r.cost, usage.currency, lng) },
                ]}
                totals={{ label: t("reports.total"), row: { category: "total" as never, ...usage.totals } }}
              />
            </CardContent>
          </Card>
        </>
      ) : null}
    </div>
  );
}
