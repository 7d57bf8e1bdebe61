/**
 * /live/history: transcript search (protocol, name, e-mail, phone; agent for owners and admins),
 * 20 a page, newest first. Owners and admins see every conversation; others only their own.
 * A plain GET form: works without JavaScript.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { transcriptPages, transcriptAgents } from "~api/live/transcripts";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { Pager } from "~/components/ui/pager";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { formatDate } from "~/lib/format";
import type { RootData } from "~/root";

const FIELDS = ["search", "email", "phone", "agent"] as const;

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const url = new URL(request.url);
  const q = Object.fromEntries(FIELDS.map((f) => [f, url.searchParams.get(f) ?? ""])) as Record<(typeof FIELDS)[number], string>;
  const page = url.searchParams.get("page");
  const [result, agents] = await Promise.all([orHttpError(transcriptPages(ctx, { ...q, page })), orHttpError(transcriptAgents(ctx))]);
  return json({ result, agents, q });
}

export default function LiveHistory() {
  const { result, agents, q } = useLoaderData<typeof loader>();
  const { t } = useTranslation(["liveDesk", "common"]);
  const lng = useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR";
  const hrefFor = (page: number) => `/live/history?${new URLSearchParams({ ...Object.fromEntries(Object.entries(q).filter(([, v]) => v)), page: String(page) })}`;
  return (
    <div className="space-y-6">
      <PageHeader description={result.all ? t("history.descriptionAll") : t("history.descriptionMine")} />
      <Card>
        <CardHeader>
          <Form method="get" role="search" className="grid gap-3 md:grid-cols-[2fr_1fr_1fr_1fr_auto] md:items-end">
            <div className="space-y-1">
              <Label htmlFor="h-search">{t("history.search")}</Label>
              <Input id="h-search" name="search" defaultValue={q.search} placeholder={t("history.searchPlaceholder")} />
            </div>
            <div className="space-y-1">
              <Label htmlFor="h-email">{t("details.email")}</Label>
              <Input id="h-email" name="email" type="email" defaultValue={q.email} />
            </div>
            <div className="space-y-1">
              <Label htmlFor="h-phone">{t("details.phone")}</Label>
              <Input id="h-phone" name="phone" type="tel" defaultValue={q.phone} />
            </div>
            {agents.length ? (
              <div className="space-y-1">
                <Label htmlFor="h-agent">{t("details.agent")}</Label>
                <NativeSelect id="h-agent" name="agent" defaultValue={q.agent}>
                  <NativeSelectOption value="">{t("history.anyAgent")}</NativeSelectOption>
                  {agents.map((a) => (
                    <NativeSelectOption key={a.id} value={a.id}>
                      {a.name}
                    </NativeSelectOption>
                  ))}
                </NativeSelect>
              </div>
            ) : (
              <div />
            )}
            <Button type="submit" variant="outline">
              {t("history.submit")}
            </Button>
          </Form>
        </CardHeader>
        <CardContent className="space-y-4">
          {result.data.length === 0 ? (
            <p className="py-8 text-center text-sm text-muted-foreground">{t("history.empty")}</p>
          ) : (
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>{t("details.protocol")}</TableHead>
                  <TableHead>{t("details.contact")}</TableHead>
                  <TableHead>{t("details.channel")}</TableHead>
                  <TableHead>{t("details.agent")}</TableHead>
                  <TableHead>{t("details.status")}</TableHead>
                  <TableHead>{t("details.createdAt")}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {result.data.map((r) => (
                  <TableRow key={r.id} data-transcript={r.protocol}>
                    <TableCell>
                      <Link className="font-medium underline" to={`/live/history/${r.id}`}>
                        {r.protocol}
                      </Link>
                    </TableCell>
                    <TableCell>
                      <p>{r.username || t("list.anonymous")}</p>
                      <p className="text-xs text-muted-foreground">{[r.email, r.phone].filter(Boolean).join(" · ")}</p>
                    </TableCell>
                    <TableCell>{t(`channels.${r.channel}`, { defaultValue: r.channel })}</TableCell>
                    <TableCell>{r.agent_name ?? "—"}</TableCell>
                    <TableCell>
                      <Badge variant="outline">{t(`roomStatus.${r.status}`)}</Badge>
                    </TableCell>
                    <TableCell>{formatDate(r.created_at, lng, true)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
          <Pager
            page={result.page}
            pageCount={result.last_page}
            hrefFor={hrefFor}
            aria-label={t("common:pager.label")}
            labels={{ previous: t("common:pager.previous"), next: t("common:pager.next"), page: (n) => t("common:pager.page", { n }), more: t("common:pager.more") }}
          />
        </CardContent>
      </Card>
    </div>
  );
}
