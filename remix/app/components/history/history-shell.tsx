/**
 * The frame every channel's message history shares (/sms/history and /sms/reports/history,
 * /mail/history, /whatsapp/history, /whatsapp/jv/history): the page header with the Export button (a POST of the filters shown to
 * the screen's own action, CSRF, no JavaScript needed) and the exports link, the export's errors,
 * the screen's GET filter form, the range shown, the rows (or "none"), and the keyset pager whose
 * links keep the filters. The screen brings its filters and its table; the texts `history.*` come
 * from its namespace.
 */
import { Form, Link, useActionData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "~/lib/react-i18n";
import { CsrfInput, FormErrors } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { formatDay } from "~/components/sms-reports/format";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { CursorPager } from "~/components/whatsapp/cursor-pager";
import type { FormReply } from "~/lib/forms.server";
import type { Lng } from "~/lib/i18n";
import type { RootData } from "~/root";

type Props<K extends string> = {
  /** The screen's path (its GET form's action, the pager's links; the export posts to `${path}?index`). */
  path: string;
  exportsPath: string;
  /** The i18n namespace of the screen's `history.*` texts. */
  ns: string;
  filterKeys: readonly K[];
  values: Record<K, string> & { start?: string; end?: string };
  /** The page's keyset cursor, for the default pager. */
  cursor?: string;
  page: { data: unknown[]; next_cursor: string | null } | null;
  canExport: boolean;
  formErrors: string[];
  filters: ReactNode;
  /** The rows, shown when the page has any. */
  table: ReactNode;
  /** Instead of "the range shown": the screen's own line about the page (SMS: its total too). */
  summary?: ReactNode;
  /** Instead of the keyset pager: the screen's own (SMS: numbered pages). */
  pager?: ReactNode;
};

export function HistoryShell<K extends string>({ path, exportsPath, ns, filterKeys, values, cursor = "", page, canExport, formErrors, filters, table, summary, pager }: Props<K>) {
  const reply = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const exportErrors = reply?.result?.error
    ? Object.values(reply.result.error)
        .flat()
        .filter((e): e is string => typeof e === "string")
    : [];
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation([ns, "smsReports", "common"]);
  const hrefWith = (extra: Record<string, string>) => {
    const p = new URLSearchParams();
    for (const k of filterKeys) if (values[k]) p.set(k, values[k]);
    for (const [k, v] of Object.entries(extra)) p.set(k, v);
    return `${path}?${p.toString()}`;
  };
  return (
    <div className="space-y-6">
      <PageHeader
        description={t("history.description")}
        actions={
          canExport ? (
            <>
              <Form method="post" action={`${path}?index`}>
                <CsrfInput />
                {filterKeys.map((k) => (
                  <input key={k} type="hidden" name={k} value={values[k]} />
                ))}
                <Button type="submit" disabled={busy || !page}>
                  {t("smsReports:history.export")}
                </Button>
              </Form>
              <Button asChild variant="outline">
                <Link to={exportsPath}>{t("smsReports:history.exportsLink")}</Link>
              </Button>
            </>
          ) : null
        }
      />
      <FormErrors errors={exportErrors} />
      <Card>
        <CardHeader className="gap-4">
          {filters}
          <FormErrors errors={formErrors} />
          {page ? (
            <CardDescription>{summary ?? t("history.range", { from: formatDay(values.start ?? "", lng, true), to: formatDay(values.end ?? "", lng, true) })}</CardDescription>
          ) : null}
        </CardHeader>
        <CardContent className="space-y-4">
          {!page ? null : page.data.length === 0 ? <p className="py-8 text-center text-sm text-muted-foreground">{t("history.empty")}</p> : table}
          {page ? (pager ?? <CursorPager cursor={cursor} next={page.next_cursor} href={(c) => hrefWith(c ? { cursor: c } : {})} />) : null}
        </CardContent>
      </Card>
    </div>
  );
}
