/**
 * One sending domain of /mail/domains: its status, when it was last checked and validated, the
 * four DNS records to publish (type, host, value — selectable to copy — and what the last check
 * found), "Check now" and remove (confirmation disclosure). Plain forms posting intent=validate or
 * intent=delete with the domain's id.
 */
import { Form } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import type { EmailDomain } from "~api/email/domains";
import { ConfirmDelete } from "~/components/forms/confirm-delete";
import { CsrfInput, FormErrors } from "~/components/forms/fields";
import { formatDateTime } from "~/components/sms-reports/format";
import { Badge, type BadgeProps } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import type { Lng } from "~/lib/i18n";

type Domain = Omit<EmailDomain, "checked_at" | "validated_at" | "created_at"> & { checked_at: string | null; validated_at: string | null; created_at: string };

const DOMAIN_VARIANT: Record<string, BadgeProps["variant"]> = { validated: "success", pending: "outline", failed: "destructive" };
const RECORD_VARIANT: Record<string, BadgeProps["variant"]> = { ok: "success", unchecked: "outline", missing: "destructive", mismatch: "destructive", unreachable: "warning" };

export function DomainCard({ domain: d, lng, errors }: { domain: Domain; lng: Lng; errors?: string[] | null }) {
  const { t } = useTranslation("email");
  return (
    <Card id={`domain-${d.id}`} data-domain={d.domain}>
      <CardHeader>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <CardTitle>
            <h2 className="flex items-center gap-2">
              <span className="break-all">{d.domain}</span>
              <Badge variant={DOMAIN_VARIANT[d.status] ?? "outline"} data-domain-status={d.status}>
                {t(`domains.status.${d.status}`)}
              </Badge>
            </h2>
          </CardTitle>
          <div className="flex items-center gap-2">
            <Form method="post">
              <CsrfInput />
              <input type="hidden" name="intent" value="validate" />
              <input type="hidden" name="id" value={d.id} />
              <Button type="submit" variant="outline" size="sm">
                {t("domains.check")}
              </Button>
            </Form>
            <ConfirmDelete
              id={d.id}
              errors={errors ?? undefined}
              summary={t("domains.delete.summary")}
              label={t("domains.delete.label", { domain: d.domain })}
              body={t("domains.delete.body", { domain: d.domain })}
              confirm={t("domains.delete.confirm")}
            />
          </div>
        </div>
        <CardDescription>
          {d.checked_at ? t("domains.checkedAt", { when: formatDateTime(d.checked_at, lng) }) : t("domains.neverChecked")}
          {d.validated_at ? ` · ${t("domains.validatedAt", { when: formatDateTime(d.validated_at, lng) })}` : ""}
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        <FormErrors errors={errors ?? undefined} />
        <p className="text-sm text-muted-foreground">{t(d.status === "validated" ? "domains.readyHint" : "domains.publishHint")}</p>
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>{t("domains.columns.record")}</TableHead>
              <TableHead>{t("domains.columns.host")}</TableHead>
              <TableHead>{t("domains.columns.value")}</TableHead>
              <TableHead>{t("domains.columns.status")}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {d.records.map((r) => (
              <TableRow key={r.purpose} data-record={r.purpose} data-record-status={r.status}>
                <TableCell className="align-top whitespace-nowrap">
                  <div className="font-medium">{t(`domains.purpose.${r.purpose}`)}</div>
                  <div className="text-xs text-muted-foreground">{r.type}</div>
                </TableCell>
                <TableCell className="max-w-[14rem] align-top whitespace-normal">
                  <code className="break-all text-xs select-all">{r.host}</code>
                </TableCell>
                <TableCell className="max-w-[22rem] align-top whitespace-normal">
                  <code className="block max-h-24 overflow-auto break-all text-xs select-all">{r.value}</code>
                  {r.found.length && r.status !== "ok" ? (
                    <div className="mt-1 text-xs text-muted-foreground" data-found>
                      {t("domains.found")} <code className="break-all">{r.found.join(" | ")}</code>
                    </div>
                  ) : null}
                </TableCell>
                <TableCell className="align-top">
                  <Badge variant={RECORD_VARIANT[r.status] ?? "outline"}>{t(`domains.recordStatus.${r.status}`)}</Badge>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </CardContent>
    </Card>
  );
}
