import { ConfirmDelete } from "~/components/forms/confirm-delete";
import { Link } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";

export type DepartmentRow = { id: string; name: string; description: string; status: string; members: number };

/** Departments with edit links and a delete confirmation that needs no JavaScript (<details>). */
export function DepartmentsTable({ rows }: { rows: DepartmentRow[] }) {
  const { t } = useTranslation(["users", "common"]);
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>{t("departments.columns.name")}</TableHead>
          <TableHead>{t("departments.columns.description")}</TableHead>
          <TableHead>{t("departments.columns.status")}</TableHead>
          <TableHead>{t("departments.columns.members")}</TableHead>
          <TableHead className="text-right">{t("departments.columns.actions")}</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((d) => (
          <TableRow key={d.id} data-department-id={d.id}>
            <TableCell className="font-medium">{d.name}</TableCell>
            <TableCell className="max-w-xs truncate text-muted-foreground" title={d.description}>
              {d.description}
            </TableCell>
            <TableCell>
              <Badge variant={d.status === "active" ? "success" : "outline"}>{t(`common:status.${d.status}`)}</Badge>
            </TableCell>
            <TableCell>{t("departments.members", { count: d.members })}</TableCell>
            <TableCell className="text-right align-top">
              <div className="flex flex-wrap items-start justify-end gap-2">
                <Button asChild variant="outline" size="sm">
                  <Link to={`/departments/${d.id}/edit`} aria-label={t("departments.editLabel", { name: d.name })}>
                    {t("departments.editButton")}
                  </Link>
                </Button>
                <ConfirmDelete
                  id={d.id}
                  summary={t("departments.delete.summary")}
                  label={t("departments.delete.label", { name: d.name })}
                  body={t("departments.delete.body", { name: d.name })}
                  confirm={t("departments.delete.confirm")}
                />
              </div>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
