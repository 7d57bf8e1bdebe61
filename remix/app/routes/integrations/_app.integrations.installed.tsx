/**
 * /integrations/installed (issue 23, ADR 066): the account's installed integrations with their
 * status and the last event received (what it was, what became of it, when).
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { listIntegrations } from "~/lib/integrations.server";
import { PageHeader } from "~/components/shell/page-header";
import { useLng } from "~/components/support/ticket-parts";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { requireRoute } from "~/lib/auth.server";
import { formatDate } from "~/lib/format";
import { useTranslation } from "~/lib/react-i18n";

export const handle = { crumb: "integrations:crumbInstalled" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const { data } = await listIntegrations(ctx);
  return json({ integrations: data }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function InstalledIntegrations() {
  const { integrations } = useLoaderData<typeof loader>();
  const { t } = useTranslation("integrations");
  const lng = useLng();
  return (
    <div className="space-y-6">
      <PageHeader
        description={t("installedDescription")}
        actions={
          <Button asChild variant="outline" size="sm">
            <Link to="/integrations">{t("title")}</Link>
          </Button>
        }
      />
      <Card>
        <CardContent className="pt-6">
          {integrations.length === 0 ? (
            <p className="text-sm text-muted-foreground">{t("list.empty")}</p>
          ) : (
            <Table region={t("installedTitle")}>
              <TableHeader>
                <TableRow>
                  <TableHead>{t("list.platform")}</TableHead>
                  <TableHead>{t("list.store")}</TableHead>
                  <TableHead>{t("list.status")}</TableHead>
                  <TableHead>{t("list.lastEvent")}</TableHead>
                  <TableHead />
                </TableRow>
              </TableHeader>
              <TableBody>
                {integrations.map((i) => (
                  <TableRow key={i.id} data-integration-id={i.id}>
                    <TableCell>{i.label}</TableCell>
                    <TableCell>
                      {i.name || i.store_id} <span className="text-xs text-muted-foreground">#{i.store_id}</span>
                    </TableCell>
                    <TableCell>
                      <Badge variant={i.status === "active" ? "success" : "destructive"}>{t(`status.${i.status}`)}</Badge>
                    </TableCell>
                    <TableCell>
                      {i.last_event ? (
                        <span>
                          {t(`events.${i.last_event.event}`)} · {t(`status.${i.last_event.status}`)} · {formatDate(i.last_event.received_at, lng, true)}
                        </span>
                      ) : (
                        <span className="text-muted-foreground">{t("list.never")}</span>
                      )}
                    </TableCell>
                    <TableCell>
                      <Link className="underline" to={`/integrations/${i.id}`}>
                        {t("list.open")}
                      </Link>
                    </TableCell>
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
