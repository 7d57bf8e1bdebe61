import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CsrfInput } from "~/components/forms/fields";
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
            <TableCell className="max-w-xs truncate text-muted-foreground" title={d.description}>{d.description}</TableCell>
            <TableCell>
              <Badge variant={d.status === "active" ? "success" : "outline"}>{t(`common:status.${d.status}`)}</Badge>
            </TableCell>
            <TableCell>{t("departments.members", { count: d.members })}</TableCell>
            <TableCell className="text-right align-top">
              <div className="flex flex-wrap items-start justify-end gap-2">
                <Button asChild variant="outline" size="sm">
                  <Link to={`/departments/${d.id}/edit`} aria-label={t("departments.editLabel", { name: d.name })}>{t("departments.editButton")}</Link>
                </Button>
                <details className="text-left">
                  <summary
                    aria-label={t("departments.delete.label", { name: d.name })}
                    className="inline-flex h-8 cursor-pointer list-none items-center rounded-md border border-destructive/40 px-3 text-sm font-medium text-destructive hover:bg-destructive/10"
                  >
                    {t("departments.delete.summary")}
                  </summary>
                  <div className="mt-2 max-w-64 space-y-2 rounded-md border bg-popover p-3 text-sm whitespace-normal shadow-sm">
                    <p>{t("departments.delete.body", { name: d.name })}</p>
                    <Form method="post">
                      <CsrfInput />
                      <input type="hidden" name="intent" value="delete" />
                      <input type="hidden" name="id" value={d.id} />
                      <Button type="submit" variant="destructive" size="sm">{t("departments.delete.confirm")}</Button>
                    </Form>
                  </div>
                </details>
              </div>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
