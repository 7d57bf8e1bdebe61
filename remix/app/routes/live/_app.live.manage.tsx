/**
 * /live/manage: the supervisor (agent-manager) view. Every agent sorted by status order
 * (AVAILABLE, UNAVAILABLE, SHORT_BREAK, BREAK, LONG_BREAK, OFFLINE) then name, with the rooms they
 * attend now and today's statistics. The policy limits the route to the supervisors (owner, admin,
 * manager: the spec's profiles ADMINISTRATOR and MANAGER) with the plan permission 'spie'.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { agentsOverview } from "~api/live/supervision";
import { duration, useRefresh } from "~/components/live/use-refresh";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { orHttpError, requireRoute } from "~/lib/auth.server";

export const handle = { crumb: "liveDesk:manage.title" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  return json({ agents: await orHttpError(agentsOverview(ctx)) });
}

const STATUS_VARIANT: Record<string, "success" | "warning" | "secondary" | "outline"> = {
  AVAILABLE: "success",
  UNAVAILABLE: "outline",
  SHORT_BREAK: "warning",
  BREAK: "warning",
  LONG_BREAK: "warning",
  OFFLINE: "secondary",
};

export default function LiveManage() {
  const { agents } = useLoaderData<typeof loader>();
  const { t } = useTranslation("liveDesk");
  useRefresh();
  return (
    <div className="space-y-6">
      <PageHeader
        description={t("manage.description")}
        actions={
          <a href="/live/manage" className="text-sm underline">
            {t("common.refresh")}
          </a>
        }
      />
      <Card>
        <CardContent className="pt-6">
          {agents.length === 0 ? (
            <p className="py-8 text-center text-sm text-muted-foreground">{t("manage.empty")}</p>
          ) : (
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>{t("manage.columns.agent")}</TableHead>
                  <TableHead>{t("manage.columns.status")}</TableHead>
                  <TableHead>{t("manage.columns.rooms")}</TableHead>
                  <TableHead className="text-right">{t("manage.columns.active")}</TableHead>
                  <TableHead className="text-right">{t("manage.columns.today")}</TableHead>
                  <TableHead className="text-right">{t("manage.columns.average")}</TableHead>
                  <TableHead className="text-right">{t("manage.columns.total")}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {agents.map((a) => (
                  <TableRow key={a.id} data-agent={a.email}>
                    <TableCell>
                      <p className="font-medium">{a.name || a.email}</p>
                      <p className="text-xs text-muted-foreground">{a.email}</p>
                    </TableCell>
                    <TableCell>
                      <Badge variant={STATUS_VARIANT[a.status] ?? "outline"}>{t(`agentStatus.${a.status}`)}</Badge>
                    </TableCell>
                    <TableCell>
                      {a.rooms.length === 0 ? (
                        <span className="text-muted-foreground">—</span>
                      ) : (
                        <ul className="space-y-0.5">
                          {a.rooms.map((r) => (
                            <li key={r.id}>
                              <Link className="underline" to={`/live?tab=me&room=${r.id}`}>{`#${r.protocol}`}</Link> {r.username}
                              {r.unread_count > 0 ? <Badge className="ml-1">{r.unread_count}</Badge> : null}
                              {r.locked ? (
                                <Badge variant="outline" className="ml-1">
                                  {t("details.locked")}
                                </Badge>
                              ) : null}
                            </li>
                          ))}
                        </ul>
                      )}
                    </TableCell>
                    <TableCell className="text-right">{t("manage.load", { open: a.statistics.active_calls, capacity: a.capacity })}</TableCell>
                    <TableCell className="text-right">{a.statistics.today_calls}</TableCell>
                    <TableCell className="text-right">{duration(a.statistics.average_service_time)}</TableCell>
                    <TableCell className="text-right">{a.statistics.total_calls}</TableCell>
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
