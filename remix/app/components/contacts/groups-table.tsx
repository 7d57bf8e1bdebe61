import { ConfirmDelete } from "~/components/forms/confirm-delete";
import type { SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { CsrfInput, ErrorText, FormErrors } from "~/components/forms/fields";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";

export type GroupRow = { id: string; name: string; description: string; members: number };

const summaryClass = "inline-flex h-8 cursor-pointer list-none items-center rounded-md border px-3 text-sm font-medium hover:bg-accent";

/**
 * Groups with their member counts; rename and delete open in <details> (no JavaScript needed).
 * `last` is the refused rename/delete of one row (its id), shown open with its errors.
 */
export function GroupsTable({ rows, last }: { rows: GroupRow[]; last?: { id?: string; intent?: string; result: SubmissionResult<string[]> } }) {
  const { t } = useTranslation("contacts");
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>{t("groups.columns.name")}</TableHead>
          <TableHead>{t("groups.columns.description")}</TableHead>
          <TableHead>{t("groups.columns.members")}</TableHead>
          <TableHead className="text-right">{t("groups.columns.actions")}</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((g) => {
          const mine = last?.id === g.id ? last : undefined;
          const renameErrors = mine?.intent === "rename" ? mine.result.error : undefined;
          const deleteErrors = mine?.intent === "delete" ? mine.result.error?.[""] : undefined;
          return (
            <TableRow key={g.id} data-group-id={g.id}>
              <TableCell className="font-medium">
                <Link to={`/contacts/groups/${g.id}`} className="hover:underline">
                  {g.name}
                </Link>
              </TableCell>
              <TableCell className="max-w-xs truncate text-muted-foreground" title={g.description}>
                {g.description}
              </TableCell>
              <TableCell>{t("groups.members", { count: g.members })}</TableCell>
              <TableCell className="text-right align-top">
                <div className="flex flex-wrap items-start justify-end gap-2">
                  <details className="text-left" open={Boolean(renameErrors)}>
                    <summary className={summaryClass} aria-label={t("groups.rename.label", { name: g.name })}>
                      {t("groups.rename.summary")}
                    </summary>
                    <Form method="post" className="mt-2 w-72 space-y-3 rounded-md border bg-popover p-3 text-sm whitespace-normal shadow-sm">
                      <CsrfInput />
                      <input type="hidden" name="intent" value="rename" />
                      <input type="hidden" name="id" value={g.id} />
                      <FormErrors errors={renameErrors?.[""]} />
                      <div className="grid gap-1.5">
                        <Label htmlFor={`group-name-${g.id}`}>{t("groups.name")}</Label>
                        <Input id={`group-name-${g.id}`} name="name" defaultValue={g.name} maxLength={80} required aria-invalid={renameErrors?.name ? true : undefined} />
                        <ErrorText errors={renameErrors?.name} />
                      </div>
                      <div className="grid gap-1.5">
                        <Label htmlFor={`group-description-${g.id}`}>{t("groups.descriptionLabel")}</Label>
                        <Input id={`group-description-${g.id}`} name="description" defaultValue={g.description} maxLength={200} />
                        <ErrorText errors={renameErrors?.description} />
                      </div>
                      <Button type="submit" size="sm">
                        {t("groups.rename.submit")}
                      </Button>
                    </Form>
                  </details>
                  <ConfirmDelete
                    id={g.id}
                    errors={deleteErrors}
                    summary={t("groups.delete.summary")}
                    label={t("groups.delete.label", { name: g.name })}
                    body={t("groups.delete.body", { name: g.name })}
                    confirm={t("groups.delete.confirm")}
                  />
                </div>
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}
