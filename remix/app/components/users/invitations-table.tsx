import { Form } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { RoleBadge } from "./role-badge";
import { CsrfInput } from "~/components/forms/fields";
import { Button } from "~/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { formatDate } from "~/lib/format";
import type { Lng } from "~/lib/i18n";

export type InvitationRow = { id: string; email: string; role: string; createdAt: string; expiresAt: string };

/** Open invitations, each with its own plain revoke form (works without JavaScript). */
export function InvitationsTable({ rows, lng, canManage }: { rows: InvitationRow[]; lng: Lng; canManage: boolean }) {
  const { t } = useTranslation("users");
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>{t("invitations.email")}</TableHead>
          <TableHead>{t("invitations.role")}</TableHead>
          <TableHead>{t("invitations.sentAt")}</TableHead>
          <TableHead>{t("invitations.expiresAt")}</TableHead>
          {canManage ? <TableHead className="text-right">{t("columns.actions")}</TableHead> : null}
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((i) => (
          <TableRow key={i.id} data-invitation-id={i.id}>
            <TableCell className="font-medium">{i.email}</TableCell>
            <TableCell>
              <RoleBadge role={i.role} />
            </TableCell>
            <TableCell>
              <time dateTime={i.createdAt}>{formatDate(i.createdAt, lng, true)}</time>
            </TableCell>
            <TableCell>
              <time dateTime={i.expiresAt}>{formatDate(i.expiresAt, lng, true)}</time>
            </TableCell>
            {canManage ? (
              <TableCell className="text-right">
                <Form method="post" className="inline">
                  <CsrfInput />
                  <input type="hidden" name="intent" value="revoke" />
                  <input type="hidden" name="invitationId" value={i.id} />
                  <Button type="submit" variant="outline" size="sm" aria-label={t("invitations.revokeLabel", { email: i.email })}>
                    {t("invitations.revoke")}
                  </Button>
                </Form>
              </TableCell>
            ) : null}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
