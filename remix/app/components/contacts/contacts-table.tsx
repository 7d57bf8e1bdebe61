import { Link } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "~/lib/react-i18n";
import { Badge } from "~/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { formatDate } from "~/lib/format";
import type { Lng } from "~/lib/i18n";

export type ContactListRow = {
  id: string;
  name: string;
  mobile_number: string | null;
  mobile_formatted: string;
  email: string | null;
  company: string | null;
  city: string | null;
  tags: string[];
  groups: string[];
  created_at: string;
};

/**
 * Contacts with a checkbox per row (name "ids", for the surrounding bulk form). The "select all"
 * box needs JavaScript, so it only appears once the page is hydrated.
 */
export function ContactsTable({ rows, lng, formId }: { rows: ContactListRow[]; lng: Lng; formId: string }) {
  const { t } = useTranslation("contacts");
  const [hydrated, setHydrated] = useState(false);
  const boxRef = useRef<HTMLDivElement>(null);
  useEffect(() => setHydrated(true), []);
  const toggleAll = (checked: boolean) => {
    boxRef.current?.querySelectorAll<HTMLInputElement>('input[name="ids"]').forEach((box) => {
      box.checked = checked;
    });
  };
  return (
    <div ref={boxRef}>
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead className="w-8">
              {hydrated ? (
                <input
                  type="checkbox"
                  aria-label={t("list.selectAll")}
                  className="size-4 rounded border border-input accent-primary"
                  onChange={(e) => toggleAll(e.currentTarget.checked)}
                />
              ) : (
                <span className="sr-only">{t("list.select")}</span>
              )}
            </TableHead>
            <TableHead>{t("columns.name")}</TableHead>
            <TableHead>{t("columns.mobile")}</TableHead>
            <TableHead>{t("columns.email")}</TableHead>
            <TableHead>{t("columns.company")}</TableHead>
            <TableHead>{t("columns.city")}</TableHead>
            <TableHead>{t("columns.tags")}</TableHead>
            <TableHead>{t("columns.groups")}</TableHead>
            <TableHead>{t("columns.createdAt")}</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.map((c) => (
            <TableRow key={c.id} data-contact-id={c.id}>
              <TableCell>
                <input
                  type="checkbox"
                  name="ids"
                  value={c.id}
                  form={formId}
                  aria-label={t("list.selectOne", { name: c.name || c.mobile_formatted })}
                  className="size-4 rounded border border-input accent-primary"
                />
              </TableCell>
              <TableCell className="font-medium">
                <Link to={`/contacts/${c.id}`} className="hover:underline">
                  {c.name || t("list.noName")}
                </Link>
              </TableCell>
              <TableCell className="whitespace-nowrap tabular-nums">{c.mobile_number ? <span title={c.mobile_number}>{c.mobile_formatted}</span> : null}</TableCell>
              <TableCell>{c.email}</TableCell>
              <TableCell>{c.company}</TableCell>
              <TableCell>{c.city}</TableCell>
              <TableCell>
                <div className="flex max-w-48 flex-wrap gap-1">
                  {c.tags.map((tag) => (
                    <Badge key={tag} variant="secondary">
                      {tag}
                    </Badge>
                  ))}
                </div>
              </TableCell>
              <TableCell className="max-w-48 text-muted-foreground">{c.groups.join(", ")}</TableCell>
              <TableCell className="whitespace-nowrap">
                <time dateTime={c.created_at}>{formatDate(c.created_at, lng)}</time>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
