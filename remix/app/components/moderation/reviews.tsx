/**
 * The anti-fraud review list: held messages grouped by their word/URL approval, with the status
 * filter; platform staff get approve/reject forms, the account a justification form. Plain POST
 * forms with the CSRF field: everything works without JavaScript.
 */
import { Form } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { CsrfInput } from "~/components/forms/fields";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { formatDate, formatMoney } from "~/lib/format";
import type { Lng } from "~/lib/i18n";

type Message = { id: string; from: string; to: string; body: string; price: number; status: string; created_at: string; hold_state: string };
type Approval = {
  id: string;
  account_name: string;
  kind: "word" | "url";
  value: string;
  status: "pending" | "approved" | "rejected";
  note: string;
  reason: string;
  decided_at: string | null;
  created_at: string;
  held: number;
  total: number;
  messages: Message[];
};
export type ReviewGroup = { kind: "word" | "url"; approvals: Approval[]; cursor: string | null; nextCursor: string | null };

/** Every error of a form reply (form-level and per field), for the one error box at the top. */
export function replyErrors(last: { result: { error?: Record<string, string[] | null> | null } } | undefined): string[] | null {
  if (!last?.result.error) return null;
  const list = Object.values(last.result.error)
    .flat()
    .filter((e): e is string => typeof e === "string");
  return list.length ? list : null;
}

const VARIANT = { pending: "warning", approved: "success", rejected: "destructive" } as const;

export function StatusFilter({ status, base }: { status: string; base: string }) {
  const { t } = useTranslation("moderation");
  return (
    <nav aria-label={t("filter.label")} className="flex flex-wrap gap-2">
      {["pending", "approved", "rejected", "all"].map((s) => (
        <a
          key={s}
          href={`${base}?status=${s}`}
          aria-current={s === status ? "page" : undefined}
          className={`rounded-md border px-3 py-1 text-sm ${s === status ? "bg-primary text-primary-foreground" : "hover:bg-accent"}`}
        >
          {t(`filter.${s}`)}
        </a>
      ))}
    </nav>
  );
}

/** Keyset pages of one kind: back to its first page, on to its next (the other kind's page stays). */
function Pager({ groups, kind, status }: { groups: ReviewGroup[]; kind: ReviewGroup["kind"]; status: string }) {
  const { t } = useTranslation("moderation");
  const g = groups.find((x) => x.kind === kind);
  if (!g || (!g.cursor && !g.nextCursor)) return null;
  const href = (cursor: string | null) => {
    const q = new URLSearchParams({ status });
    for (const o of groups) {
      const c = o.kind === kind ? cursor : o.cursor;
      if (c) q.set(`${o.kind}_cursor`, c);
    }
    return `?${q}`;
  };
  return (
    <nav aria-label={t("pager.label")} className="flex flex-wrap justify-end gap-2">
      {g.cursor ? (
        <Button asChild variant="outline" size="sm">
          <a href={href(null)}>{t("pager.first")}</a>
        </Button>
      ) : null}
      {g.nextCursor ? (
        <Button asChild variant="outline" size="sm">
          <a href={href(g.nextCursor)} rel="next">
            {t("pager.next")}
          </a>
        </Button>
      ) : null}
    </nav>
  );
}

export function ReviewGroups({ groups, staff, status, lng, busy }: { groups: ReviewGroup[]; staff: boolean; status: string; lng: Lng; busy?: boolean }) {
  const { t } = useTranslation("moderation");
  return (
    <>
      {groups.map((g) => (
        <Card key={g.kind}>
          <CardHeader>
            <h2 className="leading-none font-semibold">{t(`kinds.${g.kind}`)}</h2>
            <CardDescription>{t(`kinds.${g.kind}Help`)}</CardDescription>
          </CardHeader>
          <CardContent className="space-y-6">
            {g.approvals.length === 0 ? <p className="py-4 text-center text-sm text-muted-foreground">{t("empty")}</p> : null}
            {g.approvals.map((a) => (
              <section key={a.id} data-testid="approval" className="space-y-3 rounded-md border p-4" aria-label={a.value}>
                <div className="flex flex-wrap items-center gap-3">
                  <code className="rounded bg-muted px-2 py-0.5 font-semibold">{a.value}</code>
                  <Badge variant={VARIANT[a.status]}>{t(`status.${a.status}`)}</Badge>
                  {staff ? <span className="text-sm text-muted-foreground">{a.account_name}</span> : null}
                  <span className="text-sm text-muted-foreground">{t("counts", { held: a.held, count: a.total })}</span>
                  <span className="text-xs text-muted-foreground">{formatDate(a.created_at, lng, true)}</span>
                </div>
                {a.note ? (
                  <p className="text-sm">
                    <span className="font-medium">{t("note")}:</span> {a.note}
                  </p>
                ) : null}
                {a.reason ? (
                  <p className="text-sm text-destructive">
                    <span className="font-medium">{t("reason")}:</span> {a.reason}
                  </p>
                ) : null}
                {a.messages.length > 0 ? (
                  <Table>
                    <TableHeader>
                      <TableRow>
                        <TableHead>{t("messages.to")}</TableHead>
                        <TableHead>{t("messages.body")}</TableHead>
                        <TableHead>{t("messages.status")}</TableHead>
                        <TableHead className="text-right">{t("messages.price")}</TableHead>
                        <TableHead>{t("messages.at")}</TableHead>
                      </TableRow>
                    </TableHeader>
                    <TableBody>
                      {a.messages.map((m) => (
                        <TableRow key={m.id} data-testid="held-message">
                          <TableCell>{m.to}</TableCell>
                          <TableCell className="max-w-96 text-sm whitespace-normal">{m.body}</TableCell>
                          <TableCell>
                            {t(`holdState.${m.hold_state}`)} · {m.status}
                          </TableCell>
                          <TableCell className="text-right">{formatMoney(m.price, "BRL", lng)}</TableCell>
                          <TableCell className="text-xs">{formatDate(m.created_at, lng, true)}</TableCell>
                        </TableRow>
                      ))}
                    </TableBody>
                  </Table>
                ) : null}
                {a.status === "pending" && staff ? (
                  <div className="flex flex-wrap items-end gap-4">
                    <Form method="post">
                      <CsrfInput />
                      <input type="hidden" name="intent" value="approve" />
                      <input type="hidden" name="kind" value={a.kind} />
                      <input type="hidden" name="id" value={a.id} />
                      <Button type="submit" disabled={busy}>
                        {t("approve")}
                      </Button>
                    </Form>
                    <Form method="post" className="flex flex-wrap items-end gap-2">
                      <CsrfInput />
                      <input type="hidden" name="intent" value="reject" />
                      <input type="hidden" name="kind" value={a.kind} />
                      <input type="hidden" name="id" value={a.id} />
                      <label className="grid gap-1 text-sm">
                        <span>{t("reason")}</span>
                        <Input name="reason" required maxLength={500} className="w-72" />
                      </label>
                      <Button type="submit" variant="destructive" disabled={busy}>
                        {t("reject")}
                      </Button>
                    </Form>
                  </div>
                ) : null}
                {a.status === "pending" && !staff ? (
                  <Form method="post" className="flex flex-wrap items-end gap-2">
                    <CsrfInput />
                    <input type="hidden" name="intent" value="note" />
                    <input type="hidden" name="kind" value={a.kind} />
                    <input type="hidden" name="id" value={a.id} />
                    <label className="grid gap-1 text-sm">
                      <span>{t("noteLabel")}</span>
                      <Input name="note" defaultValue={a.note} maxLength={500} className="w-96" />
                    </label>
                    <Button type="submit" variant="outline" disabled={busy}>
                      {t("saveNote")}
                    </Button>
                  </Form>
                ) : null}
              </section>
            ))}
            <Pager groups={groups} kind={g.kind} status={status} />
          </CardContent>
        </Card>
      ))}
    </>
  );
}
