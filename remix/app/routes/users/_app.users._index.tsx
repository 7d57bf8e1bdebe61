/** /users: the account's people (search, pages of 20) and its open invitations (revoke). */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { z } from "~api/lib/zod";
import { canWrite } from "~api/policy/policy";
import { PAGE_SIZE, listUsers, revokeInvitation } from "~api/users/services";
import { FormErrors } from "~/components/forms/fields";
import { InvitationsTable } from "~/components/users/invitations-table";
import { UsersTable } from "~/components/users/users-table";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Pager } from "~/components/ui/pager";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { redirectWithToast } from "~/lib/toast.server";
import type { RootData } from "~/root";

const revokeSchema = z.object({ intent: z.literal("revoke"), invitationId: z.string().min(1, "validation.required") });

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const url = new URL(request.url);
  const q = url.searchParams.get("q")?.trim() || undefined;
  const page = url.searchParams.get("page") ?? undefined;
  const list = await orHttpError(listUsers(ctx, { q, page, limit: PAGE_SIZE }));
  return json({ ...list, q: q ?? "", canManage: canWrite(ctx.actor, "users"), meId: ctx.actor.userId });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const url = new URL(request.url);
  url.searchParams.delete("index");
  const back = `/users${url.search}`;
  return handleForm(request, revokeSchema, async ({ invitationId }) => {
    await revokeInvitation(ctx, invitationId);
    return redirectWithToast(request, back, { type: "success", title: "users:invitations.revoked" });
  });
}

export default function Users() {
  const { data, page, lastPage, total, invitations, q, canManage, meId } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const root = useRouteLoaderData<RootData>("root");
  const lng = root?.lng ?? "pt-BR";
  const { t } = useTranslation(["users", "common"]);
  const hrefFor = (p: number) => {
    const params = new URLSearchParams();
    if (q) params.set("q", q);
    if (p > 1) params.set("page", String(p));
    const s = params.toString();
    return s ? `/users?${s}` : "/users";
  };
  const formErrors = last?.result.error?.[""] ?? last?.result.error?.invitationId;
  return (
    <div className="space-y-6">
      <PageHeader
        description={t("description")}
        actions={
          canManage ? (
            <Button asChild>
              <Link to="/users/invite">{t("inviteButton")}</Link>
            </Button>
          ) : null
        }
      />
      <FormErrors errors={formErrors} />
      {!canManage ? <p className="rounded-md border bg-muted/40 px-3 py-2 text-sm text-muted-foreground">{t("readOnly")}</p> : null}
      <Card>
        <CardHeader className="gap-4">
          <Form method="get" action="/users" role="search" className="flex flex-wrap items-end gap-2">
            <label htmlFor="users-q" className="sr-only">
              {t("search.label")}
            </label>
            <Input id="users-q" type="search" name="q" defaultValue={q} placeholder={t("search.placeholder")} className="max-w-xs" maxLength={100} />
            <Button type="submit" variant="secondary">
              {t("search.submit")}
            </Button>
            {q ? (
              <Button asChild variant="ghost">
                <Link to="/users">{t("search.clear")}</Link>
              </Button>
            ) : null}
          </Form>
          <CardDescription>{t("total", { count: total })}</CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          {data.length === 0 ? (
            <p className="py-8 text-center text-sm text-muted-foreground">{q ? t("emptySearch", { q }) : t("empty")}</p>
          ) : (
            <UsersTable rows={data} lng={lng} canManage={canManage} meId={meId} />
          )}
          <Pager
            page={page ?? 1}
            pageCount={lastPage}
            hrefFor={hrefFor}
            aria-label={t("common:pager.label")}
            labels={{ previous: t("common:pager.previous"), next: t("common:pager.next"), page: (n) => t("common:pager.page", { n }), more: t("common:pager.more") }}
          />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <h2 className="leading-none font-semibold">{t("invitations.title")}</h2>
          <CardDescription>{t("invitations.description")}</CardDescription>
        </CardHeader>
        <CardContent>
          {invitations.length === 0 ? (
            <p className="py-4 text-center text-sm text-muted-foreground">{t("invitations.empty")}</p>
          ) : (
            <InvitationsTable rows={invitations} lng={lng} canManage={canManage} />
          )}
        </CardContent>
      </Card>
    </div>
  );
}
