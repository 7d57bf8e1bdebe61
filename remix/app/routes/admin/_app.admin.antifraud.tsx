/**
 * /admin/antifraud (platform staff): the words and URL domains under review (add, remove) and
 * every account's reviews with their held messages, to approve (they are sent) or reject with a
 * reason (they are rejected and refunded). Plain POST forms with CSRF: works without JavaScript.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { CsrfInput, FormErrors } from "~/components/forms/fields";
import { replyErrors, ReviewGroups, StatusFilter, type ReviewGroup } from "~/components/moderation/reviews";
import { loadReviews, reviewAction } from "~/components/moderation/reviews.server";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { requireRoute } from "~/lib/auth.server";
import type { FormReply } from "~/lib/forms.server";
import type { RootData } from "~/root";

export const handle = { crumb: "moderation:adminTitle" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  return json(await loadReviews(ctx, new URL(request.url), { terms: true }));
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  return reviewAction(request, ctx, "/admin/antifraud");
}

export default function AdminAntifraud() {
  const { groups, staff, status, terms } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const lng = useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR";
  const { t } = useTranslation("moderation");
  return (
    <div className="space-y-6">
      <PageHeader description={t("adminDescription")} />
      <FormErrors errors={replyErrors(last)} />
      {terms ? (
        <div className="grid gap-6 lg:grid-cols-2">
          {(["word", "url"] as const).map((kind) => (
            <Card key={kind}>
              <CardHeader>
                <h2 className="leading-none font-semibold">{t(`terms.${kind}Title`)}</h2>
                <CardDescription>{t(`kinds.${kind}Help`)}</CardDescription>
              </CardHeader>
              <CardContent className="space-y-4">
                <Form method="post" className="flex flex-wrap items-end gap-2">
                  <CsrfInput />
                  <input type="hidden" name="intent" value="add-term" />
                  <input type="hidden" name="kind" value={kind} />
                  <label className="grid gap-1 text-sm">
                    <span>{t(`terms.${kind}Value`)}</span>
                    <Input name="value" required maxLength={255} className="w-56" />
                  </label>
                  <label className="grid gap-1 text-sm">
                    <span>{t("terms.note")}</span>
                    <Input name="note" maxLength={255} className="w-56" />
                  </label>
                  <Button type="submit" disabled={busy}>
                    {t("terms.add")}
                  </Button>
                </Form>
                {terms[kind].length === 0 ? <p className="text-sm text-muted-foreground">{t("terms.empty")}</p> : null}
                <ul className="divide-y">
                  {terms[kind].map((term) => (
                    <li key={term.id} className="flex items-center justify-between gap-2 py-2" data-testid={`term-${kind}`}>
                      <span>
                        <code className="font-semibold">{term.value}</code>
                        {term.note ? <span className="ml-2 text-sm text-muted-foreground">{term.note}</span> : null}
                      </span>
                      <Form method="post">
                        <CsrfInput />
                        <input type="hidden" name="intent" value="remove-term" />
                        <input type="hidden" name="kind" value={kind} />
                        <input type="hidden" name="id" value={term.id} />
                        <Button type="submit" size="sm" variant="outline" disabled={busy} aria-label={t("terms.removeLabel", { value: term.value })}>
                          {t("terms.remove")}
                        </Button>
                      </Form>
                    </li>
                  ))}
                </ul>
              </CardContent>
            </Card>
          ))}
        </div>
      ) : null}
      <StatusFilter status={status} base="/admin/antifraud" />
      <ReviewGroups groups={groups as unknown as ReviewGroup[]} staff={staff} status={status} lng={lng} busy={busy} />
    </div>
  );
}
