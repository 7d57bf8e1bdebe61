/**
 * /rcs/agents: the account's RCS agents (spec section 2) — name and color, status, Google's agent
 * id once launched, the launch state at each carrier (Vivo, Claro, TIM) — each opening its page.
 * An empty list says how to ask for one (/rcs/request).
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { listAgents } from "~api/rcs/agents";
import { can } from "~api/policy/policy";
import { AgentStatusBadge, LaunchBadges } from "~/components/rcs-agents/badges";
import { PageHeader } from "~/components/shell/page-header";
import { Card, CardContent } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { useTranslation } from "~/lib/react-i18n";

export const handle = { crumb: "rcs:agents.list.title" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const { data } = await orHttpError(listAgents(ctx));
  return json({ agents: data, canRequest: can(ctx.actor, "/rcs/request") }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function RcsAgents() {
  const { agents, canRequest } = useLoaderData<typeof loader>();
  const { t } = useTranslation("rcs");
  return (
    <div className="space-y-6">
      <PageHeader
        description={t("agents.list.description")}
        actions={
          canRequest ? (
            <Link to="/rcs/request" className="text-sm underline">
              {t("agents.list.request")}
            </Link>
          ) : null
        }
      />
      <Card>
        <CardContent className="pt-6">
          {agents.length === 0 ? (
            <p className="py-6 text-center text-sm text-muted-foreground" data-empty>
              {t("agents.list.empty")}
            </p>
          ) : (
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>{t("agents.fields.name")}</TableHead>
                  <TableHead>{t("agents.fields.status")}</TableHead>
                  <TableHead>{t("agents.fields.carriers")}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {agents.map((a) => (
                  <TableRow key={a.id} data-agent-id={a.id}>
                    <TableCell className="align-top">
                      <Link to={`/rcs/agents/${a.id}`} className="flex items-center gap-2 font-medium underline-offset-2 hover:underline">
                        <span aria-hidden className="inline-block size-3 shrink-0 rounded-full border" style={{ backgroundColor: a.color }} />
                        {a.name}
                      </Link>
                      {a.rbm_agent_id ? <div className="text-xs break-all text-muted-foreground">{a.rbm_agent_id}</div> : null}
                    </TableCell>
                    <TableCell className="align-top">
                      <AgentStatusBadge status={a.status} />
                    </TableCell>
                    <TableCell className="align-top whitespace-normal">
                      <LaunchBadges launches={a.launches} />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
