/** /sms/short-codes: the account's short codes with nickname, deliverability (carriers) and status. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { listShortCodes } from "~api/shortcodes/services";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { orHttpError, requireRoute } from "~/lib/auth.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  return json({ codes: await orHttpError(listShortCodes(ctx)) });
}

export default function ShortCodes() {
  const { codes } = useLoaderData<typeof loader>();
  const { t } = useTranslation(["shortCodes", "common"]);
  return (
    <div className="space-y-6">
      <PageHeader description={t("description")} />
      <Card>
        <CardContent>
          {codes.length === 0 ? (
            <p className="py-8 text-center text-sm text-muted-foreground" data-testid="short-codes-empty">
              {t("empty")}
            </p>
          ) : (
            <Table data-testid="short-codes">
              <TableHeader>
                <TableRow>
                  <TableHead>{t("columns.number")}</TableHead>
                  <TableHead>{t("columns.nickname")}</TableHead>
                  <TableHead>{t("columns.deliverability")}</TableHead>
                  <TableHead>{t("columns.status")}</TableHead>
                  <TableHead className="text-right">{t("columns.actions")}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {codes.map((c) => (
                  <TableRow key={c.id} data-short-code={c.number}>
                    <TableCell className="font-mono font-medium">{c.number}</TableCell>
                    <TableCell>{c.nickname || <span className="text-muted-foreground">{t("noNickname")}</span>}</TableCell>
                    <TableCell>
                      <div className="flex flex-wrap gap-1">
                        {c.deliverability.length === 0 ? (
                          <span className="text-muted-foreground">{t("noCarrier")}</span>
                        ) : (
                          c.deliverability.map((carrier) => (
                            <Badge key={carrier} variant="outline">
                              {carrier}
                            </Badge>
                          ))
                        )}
                      </div>
                    </TableCell>
                    <TableCell>
                      <Badge variant={c.status === "active" ? "success" : "outline"}>{t(`status.${c.status}`)}</Badge>
                    </TableCell>
                    <TableCell className="text-right">
                      <Button asChild variant="outline" size="sm">
                        <Link to={`/sms/short-codes/${c.id}`} aria-label={t("editLabel", { number: c.number })}>
                          {t("edit")}
                        </Link>
                      </Button>
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
