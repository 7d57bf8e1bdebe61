/**
 * The list card of /sms/optouts and /sms/denylist (and the other channels' lists, /mail/* holding addresses): a search form (GET ?q=), the numbers as a
 * table (the caller draws each row) or the empty message, and the pages. Plain links and a GET
 * form: no JavaScript needed.
 */
import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "~/lib/react-i18n";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Pager } from "~/components/ui/pager";
import { Table, TableBody, TableHead, TableHeader, TableRow } from "~/components/ui/table";

/** ?page= and ?q= of a list screen, as the list use-cases take them. */
export function listQuery(request: Request) {
  const url = new URL(request.url);
  return { page: url.searchParams.get("page") ?? "", q: url.searchParams.get("q") ?? "" };
}

export function NumberListCard<T>({
  path,
  idPrefix,
  q,
  list,
  texts,
  columns,
  row,
  searchMode = "tel",
}: {
  /** The screen's path (search and page links go there). */
  path: string;
  /** Prefix of the search input's id. */
  idPrefix: string;
  q: string;
  list: { data: T[]; page: number; last_page: number };
  texts: { search: string; searchSubmit: string; empty: string };
  /** Column headings; the last one is right-aligned (the actions). */
  columns: string[];
  row: (item: T) => ReactNode;
  /** The search field's keyboard: digits of a number, or part of an e-mail address (/mail/optouts, /mail/denylist). */
  searchMode?: "tel" | "email";
}) {
  const { t } = useTranslation("common");
  const hrefFor = (page: number) => `${path}?${new URLSearchParams({ ...(q ? { q } : {}), page: String(page) })}`;
  return (
    <Card>
      <CardHeader>
        <Form method="get" action={path} className="flex gap-2" role="search">
          <label htmlFor={`${idPrefix}-q`} className="sr-only">
            {texts.search}
          </label>
          <Input id={`${idPrefix}-q`} name="q" defaultValue={q} placeholder={texts.search} inputMode={searchMode} />
          <Button type="submit" variant="outline">
            {texts.searchSubmit}
          </Button>
        </Form>
      </CardHeader>
      <CardContent className="space-y-4">
        {list.data.length === 0 ? (
          <p className="py-8 text-center text-sm text-muted-foreground">{texts.empty}</p>
        ) : (
          <Table>
            <TableHeader>
              <TableRow>
                {columns.map((c, i) => (
                  <TableHead key={c} className={i === columns.length - 1 ? "text-right" : undefined}>
                    {c}
                  </TableHead>
                ))}
              </TableRow>
            </TableHeader>
            <TableBody>{list.data.map(row)}</TableBody>
          </Table>
        )}
        <Pager
          page={list.page}
          pageCount={list.last_page}
          hrefFor={hrefFor}
          aria-label={t("pager.label")}
          labels={{ previous: t("pager.previous"), next: t("pager.next"), page: (n) => t("pager.page", { n }), more: t("pager.more") }}
        />
      </CardContent>
    </Card>
  );
}
