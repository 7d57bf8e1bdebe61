/** The person's latest sign-in events (audit log, auth.*): when, what, from which IP and browser. */
import { useTranslation } from "~/lib/react-i18n";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { formatDate } from "~/lib/format";
import type { Lng } from "~/lib/i18n";

export type SignInEvent = { id: number; action: string; ip: string | null; userAgent: string | null; createdAt: string };

const FAILURES = new Set(["auth.login_failed", "auth.2fa_failed"]);

export function SignInEvents({ events, lng }: { events: SignInEvent[]; lng: Lng }) {
  const { t } = useTranslation(["settings", "common"]);
  return (
    <Card id="sign-ins" className="scroll-mt-6" data-testid="sign-in-events">
      <CardHeader>
        <CardTitle>{t("signIns.title")}</CardTitle>
        <CardDescription>{t("signIns.description")}</CardDescription>
      </CardHeader>
      <CardContent>
        {events.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t("signIns.empty")}</p>
        ) : (
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>{t("signIns.date")}</TableHead>
                <TableHead>{t("signIns.event")}</TableHead>
                <TableHead>{t("signIns.ip")}</TableHead>
                <TableHead>{t("signIns.userAgent")}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {events.map((e) => (
                <TableRow key={e.id}>
                  <TableCell>
                    <time dateTime={e.createdAt}>{formatDate(e.createdAt, lng, true)}</time>
                  </TableCell>
                  <TableCell>
                    {FAILURES.has(e.action) ? (
                      <Badge variant="destructive">{t(`common:audit.${e.action}`, { defaultValue: e.action })}</Badge>
                    ) : (
                      t(`common:audit.${e.action}`, { defaultValue: e.action })
                    )}
                  </TableCell>
                  <TableCell className="font-mono text-xs">{e.ip ?? t("signIns.unknown")}</TableCell>
                  <TableCell className="max-w-72 truncate text-xs text-muted-foreground" title={e.userAgent ?? undefined}>
                    {e.userAgent ?? t("signIns.unknown")}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
