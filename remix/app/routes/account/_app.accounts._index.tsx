/** /accounts: the person's accounts with their role and balance; switch to another or create one. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { listAccounts } from "~api/accounts/services";
import { AccountsTable } from "~/components/accounts/accounts-table";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { requireRoute } from "~/lib/auth.server";
import type { RootData } from "~/root";

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const accounts = await listAccounts(ctx.actor.userId);
  return json({
    accounts: accounts.map((a) => ({ id: a.id, name: a.name, type: a.type, role: a.role, balance: a.balance, currency: a.currency })),
    currentId: ctx.actor.accountId,
  });
}

export default function Accounts() {
  const { accounts, currentId } = useLoaderData<typeof loader>();
  const root = useRouteLoaderData<RootData>("root");
  const { t } = useTranslation("accounts");
  return (
    <div className="space-y-6">
      <PageHeader
        description={t("description")}
        actions={
          <Button asChild>
            <Link to="/accounts/create">{t("createButton")}</Link>
          </Button>
        }
      />
      <Card>
        <CardContent>
          {accounts.length === 0 ? (
            <p className="py-8 text-center text-sm text-muted-foreground">{t("empty")}</p>
          ) : (
            <AccountsTable rows={accounts} currentId={currentId} lng={root?.lng ?? "pt-BR"} />
          )}
        </CardContent>
      </Card>
    </div>
  );
}
