import { ConfirmDelete } from "~/components/forms/confirm-delete";
import { Link } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";

export type CustomFieldRow = {
  id: string;
  key: string;
  label: string;
  type: string;
  options: string[];
  required: boolean;
  sensitive: boolean;
  visible_in_attendance: boolean;
  position: number;
};

/** Custom field definitions; owner and admin get edit links and a delete confirmation (<details>). */
export function CustomFieldsTable({ rows, canManage, deleteError }: { rows: CustomFieldRow[]; canManage: boolean; deleteError?: { id?: string; errors?: string[] } }) {
  const { t } = useTranslation("contacts");
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>{t("customFields.columns.label")}</TableHead>
          <TableHead>{t("customFields.columns.key")}</TableHead>
          <TableHead>{t("customFields.columns.type")}</TableHead>
          <TableHead>{t("customFields.columns.flags")}</TableHead>
          <TableHead>{t("customFields.columns.position")}</TableHead>
          {canManage ? <TableHead className="text-right">{t("customFields.columns.actions")}</TableHead> : null}
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((f) => {
          const errors = deleteError?.id === f.id ? deleteError.errors : undefined;
          return (
            <TableRow key={f.id} data-field-id={f.id}>
              <TableCell className="font-medium">{f.label}</TableCell>
              <TableCell>
                <code className="text-xs">{f.key}</code>
              </TableCell>
              <TableCell>
                {t(`customFields.types.${f.type}`)}
                {f.type === "list" ? (
                  <span className="block max-w-56 truncate text-xs text-muted-foreground" title={f.options.join(", ")}>
                    {f.options.join(", ")}
                  </span>
                ) : null}
              </TableCell>
              <TableCell>
                <div className="flex flex-wrap gap-1">
                  {f.required ? <Badge variant="outline">{t("customFields.flags.required")}</Badge> : null}
                  {f.sensitive ? <Badge variant="warning">{t("customFields.flags.sensitive")}</Badge> : null}
                  {f.visible_in_attendance ? <Badge variant="secondary">{t("customFields.flags.visibleInAttendance")}</Badge> : null}
                </div>
              </TableCell>
              <TableCell className="tabular-nums">{f.position}</TableCell>
              {canManage ? (
                <TableCell className="text-right align-top">
                  <div className="flex flex-wrap items-start justify-end gap-2">
                    <Button asChild variant="outline" size="sm">
                      <Link to={`/contacts/fields/${f.id}`} aria-label={t("customFields.editLabel", { label: f.label })}>
                        {t("customFields.edit")}
                      </Link>
                    </Button>
                    <ConfirmDelete
                      id={f.id}
                      action="/contacts/fields?index"
                      errors={errors}
                      summary={t("customFields.delete.summary")}
                      label={t("customFields.delete.label", { label: f.label })}
                      body={t("customFields.delete.body", { label: f.label })}
                      confirm={t("customFields.delete.confirm")}
                    />
                  </div>
                </TableCell>
              ) : null}
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}
