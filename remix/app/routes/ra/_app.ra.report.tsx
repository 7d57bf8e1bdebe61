/**
 * /ra/report (issue 23, ADR 067): the account's reputation figures computed from its imported
 * complaints — total, answered %, mean answer time, evaluated, mean score, "would do business
 * again" %, solution index — overall and per month of the complaint (São Paulo time).
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { duration } from "~/components/ra/parts";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { requireRoute } from "~/lib/auth.server";
import { intlLocale } from "~/lib/i18n";
import { useTranslation } from "~/lib/react-i18n";
import type { RootData } from "~/root";
import { report } from "~api/ra/services";

export const handle = { crumb: "ra:report.crumb" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request, "/ra/report");
  return json(await report(ctx), { headers: { "Cache-Control": "private, no-store" } });
}

const FIGURES = ["total", "answered_pct", "avg_answer_seconds", "evaluated", "avg_score", "would_return_pct", "solution_pct"] as const;

export default function RaReport() {
  const { overall, months } = useLoaderData<typeof loader>();
  const lng = useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR";
  const { t } = useTranslation("ra");
  const num = (n: number, digits = 1) => new Intl.NumberFormat(intlLocale[lng], { maximumFractionDigits: digits }).format(n);
  const show = (f: (typeof FIGURES)[number], v: Record<(typeof FIGURES)[number], number | null>) => {
    const x = v[f];
    if (x === null || x === undefined) return "—";
    if (f === "avg_answer_seconds") return duration(x, t);
    if (f.endsWith("_pct")) return `${num(x)} %`;
    return num(x);
  };
  return (
    <div className="space-y-6">
      <PageHeader
        description={t("report.description")}
        actions={
          <Button asChild variant="outline">
            <Link to="/ra">{t("nav.overview")}</Link>
          </Button>
        }
      />
      <div className="grid grid-cols-2 gap-4 md:grid-cols-4">
        {FIGURES.map((f) => (
          <Card key={f}>
            <CardHeader>
              <CardDescription>{t(`report.figures.${f}`)}</CardDescription>
              <CardTitle className="text-2xl" data-figure={f}>
                {show(f, overall)}
              </CardTitle>
            </CardHeader>
          </Card>
        ))}
      </div>
      <Card>
        <CardHeader>
          <CardTitle>
            <h2>{t("report.perMonth")}</h2>
          </CardTitle>
        </CardHeader>
        <CardContent>
          {months.length === 0 ? (
            <p className="text-sm text-muted-foreground">{t("list.empty")}</p>
          ) : (
            <Table region={t("report.perMonth")}>
              <TableHeader>
                <TableRow>
                  <TableHead>{t("report.month")}</TableHead>
                  {FIGURES.map((f) => (
                    <TableHead key={f}>{t(`report.figures.${f}`)}</TableHead>
                  ))}
                </TableRow>
              </TableHeader>
              <TableBody>
                {months.map((m) => (
                  <TableRow key={m.month} data-month={m.month}>
                    <TableCell>{m.month}</TableCell>
                    {FIGURES.map((f) => (
                      <TableCell key={f}>{show(f, m)}</TableCell>
                    ))}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
