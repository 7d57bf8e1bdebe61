import { Link } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { RoleBadge } from "./role-badge";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { formatDate } from "~/lib/format";
import type { Lng } from "~/lib/i18n";

export type UserListRow = {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  role: string;
  isAgent: boolean;
  twoFactor: boolean;
  lastLoginAt: string | null;
};

/** The people of the account; the table scrolls sideways on narrow screens. */
export function UsersTable({ rows, lng, canManage, meId }: { rows: UserListRow[]; lng: Lng; canManage: boolean; meId: string }) {
  const { t } = useTranslation(["users", "common"]);
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>{t("columns.name")}</TableHead>
          <TableHead>{t("columns.email")}</TableHead>
          <TableHead>{t("columns.role")}</TableHead>
          <TableHead>{t("columns.agent")}</TableHead>
          <TableHead>{t("columns.twoFactor")}</TableHead>
          <TableHead>{t("columns.lastLogin")}</TableHead>
          {canManage ? <TableHead className="text-right">{t("columns.actions")}</TableHead> : null}
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((u) => {
          const name = `${u.firstName} ${u.lastName}`.trim();
          return (
            <TableRow key={u.id} data-user-id={u.id}>
              <TableCell className="font-medium">
                {name}
                {u.id === meId ? <span className="ml-1 text-xs text-muted-foreground">({t("you")})</span> : null}
              </TableCell>
              <TableCell>{u.email}</TableCell>
              <TableCell>
                <RoleBadge role={u.role} />
              </TableCell>
              <TableCell>{u.isAgent ? t("common:yes") : t("common:no")}</TableCell>
              <TableCell>
                <Badge variant={u.twoFactor ? "success" : "outline"}>{u.twoFactor ? t("twoFactor.on") : t("twoFactor.off")}</Badge>
              </TableCell>
              <TableCell>
                {u.lastLoginAt ? <time dateTime={u.lastLoginAt}>{formatDate(u.lastLoginAt, lng, true)}</time> : <span className="text-muted-foreground">{t("never")}</span>}
              </TableCell>
              {canManage ? (
                <TableCell className="text-right">
                  <Button asChild variant="outline" size="sm">
                    <Link to={`/users/edit/${u.id}`} aria-label={t("editLabel", { name })}>
                      {t("editButton")}
                    </Link>
                  </Button>
                </TableCell>
              ) : null}
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}
