/** /live/dashboard: real time per department — waiting, in attendance, agents available, the longest wait, closed today. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { departmentDashboard } from "~api/live/supervision";
import { duration, useRefresh } from "~/components/live/use-refresh";
import { PageHeader } from "~/components/shell/page-header";
import { Card, CardContent, CardHeader } from "~/components/ui/card";
import { orHttpError, requireRoute } from "~/lib/auth.server";

export const handle = { crumb: "liveDesk:dashboard.title" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  return json({ departments: await orHttpError(departmentDashboard(ctx)) });
}

export default function LiveDashboard() {
  const { departments } = useLoaderData<typeof loader>();
  const { t } = useTranslation("liveDesk");
  useRefresh();
  const figures = ["queued", "open", "agents_available", "longest_wait_seconds", "closed_today"] as const;
  return (
    <div className="space-y-6">
      <PageHeader
        description={t("dashboard.description")}
        actions={
          <a href="/live/dashboard" className="text-sm underline">
            {t("common.refresh")}
          </a>
        }
      />
      <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
        {departments.map((d) => (
          <Card key={d.id ?? "none"} data-department={d.name ?? ""}>
            <CardHeader>
              <h2 className="font-semibold">{d.name ?? t("dashboard.noDepartment")}</h2>
            </CardHeader>
            <CardContent>
              <dl className="grid grid-cols-2 gap-3">
                {figures.map((f) => (
                  <div key={f} className="rounded-md border p-3">
                    <dt className="text-xs text-muted-foreground">{t(`dashboard.figures.${f}`)}</dt>
                    <dd className="text-2xl font-semibold tabular-nums" data-figure={f}>
                      {f === "longest_wait_seconds" ? duration(d[f]) : d[f]}
                    </dd>
                  </div>
                ))}
              </dl>
            </CardContent>
          </Card>
        ))}
      </div>
    </div>
  );
}
