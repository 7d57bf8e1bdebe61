/** /webhooks: the account's endpoints (URL, events, state, pending/failed deliveries) and the create form. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { createEndpoint, listEndpoints } from "~api/webhooks/endpoints";
import { EndpointForm } from "~/components/webhooks/endpoint-form";
import { webhookFormSchema } from "~/components/webhooks/form-schema";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { redirectWithToast } from "~/lib/toast.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  return json({ endpoints: (await orHttpError(listEndpoints(ctx))).data });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  return handleForm(request, webhookFormSchema, async (value) => {
    const { data } = await createEndpoint(ctx, value);
    return redirectWithToast(request, `/webhooks/${data.id}?reveal=1`, { type: "success", title: "webhooks:created" });
  });
}

export default function WebhooksIndex() {
  const { endpoints } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation(["webhooks", "common"]);
  return (
    <div className="space-y-6">
      <PageHeader description={t("description")} />
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,1fr)_24rem]">
        <Card>
          <CardContent>
            {endpoints.length === 0 ? (
              <p className="py-8 text-center text-sm text-muted-foreground">{t("empty")}</p>
            ) : (
              <Table>
                <TableHeader>
                  <TableRow>
                    <TableHead>{t("list.url")}</TableHead>
                    <TableHead>{t("list.events")}</TableHead>
                    <TableHead>{t("list.state")}</TableHead>
                    <TableHead className="text-right">{t("list.pending")}</TableHead>
                    <TableHead className="text-right">{t("list.failed")}</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {endpoints.map((e) => (
                    <TableRow key={e.id}>
                      <TableCell className="max-w-80">
                        <Link to={`/webhooks/${e.id}`} className="font-medium break-all text-primary hover:underline">
                          {e.url}
                        </Link>
                        {e.description ? <p className="text-xs text-muted-foreground">{e.description}</p> : null}
                      </TableCell>
                      <TableCell className="text-xs">{e.events.map((x) => (x === "*" ? t("events.all") : x)).join(", ")}</TableCell>
                      <TableCell>
                        <Badge variant={e.enabled ? "success" : "secondary"}>{e.enabled ? t("state.enabled") : t("state.disabled")}</Badge>
                      </TableCell>
                      <TableCell className="text-right">{e.pending ?? 0}</TableCell>
                      <TableCell className="text-right">{e.failed ?? 0}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <h2 className="leading-none font-semibold">{t("create.title")}</h2>
            <CardDescription>{t("create.description")}</CardDescription>
          </CardHeader>
          <CardContent>
            <EndpointForm id="webhook-create" intent="create" lastResult={last?.result} submit={t("create.submit")} busy={busy} />
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
