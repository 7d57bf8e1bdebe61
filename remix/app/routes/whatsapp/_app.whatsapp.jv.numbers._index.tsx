/**
 * /whatsapp/jv/numbers: the account's numbers of the older integration (a BSP's On-Premises API
 * client, ADR 035) — the number, the origin of its client's base URL, its status (connected: a
 * number is kept only while its client answered connected at connect), its quality when known and
 * the webhook URL the client posts to — with a disconnect per number (confirmation disclosure).
 * Plain forms: works without JavaScript.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { z } from "~api/lib/zod";
import { disconnectWhatsappNumber } from "~api/whatsapp/numbers";
import { ConfirmDelete } from "~/components/forms/confirm-delete";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { QualityBadge } from "~/components/whatsapp/badges";
import { requireRoute } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { redirectWithToast } from "~/lib/toast.server";
import { type WhatsappJvNumbersData, whatsappJvNumbersLoader } from "~/lib/whatsapp.server";

const disconnectSchema = z.object({ intent: z.literal("disconnect"), id: z.string().min(1, "validation.required") });

export const loader = ({ request }: LoaderFunctionArgs) => whatsappJvNumbersLoader(request);

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  return handleForm(request, disconnectSchema, async ({ id }) => {
    await disconnectWhatsappNumber(ctx, id);
    return redirectWithToast(request, "/whatsapp/jv/numbers", { type: "success", title: "whatsapp:numbers.disconnected" });
  });
}

export default function WhatsappJvNumbers() {
  const data = useLoaderData<WhatsappJvNumbersData>();
  const last = useActionData<FormReply>();
  const { t } = useTranslation(["whatsapp", "common"]);
  const disconnectReply = (last?.result.initialValue as { id?: string } | undefined)?.id;
  return (
    <div className="space-y-6">
      <PageHeader
        description={t("jv.numbers.description")}
        actions={
          <>
            {data.can.connect ? (
              <Button asChild>
                <Link to="/whatsapp/jv/numbers/new">{t("jv.numbers.connect")}</Link>
              </Button>
            ) : null}
            {data.can.send ? (
              <Button asChild variant="outline">
                <Link to="/whatsapp/jv/send">{t("overview.send")}</Link>
              </Button>
            ) : null}
          </>
        }
      />
      <Card>
        <CardHeader>
          <CardTitle>
            <h2>{t("jv.numbers.title")}</h2>
          </CardTitle>
          <CardDescription>{t("jv.numbers.webhookHint")}</CardDescription>
        </CardHeader>
        <CardContent>
          {data.numbers.length === 0 ? (
            <p className="py-6 text-center text-sm text-muted-foreground">{t("jv.numbers.empty")}</p>
          ) : (
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>{t("numbers.columns.number")}</TableHead>
                  <TableHead>{t("jv.numbers.columns.baseUrl")}</TableHead>
                  <TableHead>{t("jv.numbers.columns.status")}</TableHead>
                  <TableHead>{t("numbers.columns.quality")}</TableHead>
                  <TableHead>{t("numbers.columns.webhook")}</TableHead>
                  {data.can.connect ? (
                    <TableHead className="text-right">
                      <span className="sr-only">{t("numbers.columns.actions")}</span>
                    </TableHead>
                  ) : null}
                </TableRow>
              </TableHeader>
              <TableBody>
                {data.numbers.map((n) => (
                  <TableRow key={n.id} data-number-id={n.id} data-phone={n.display_phone_number || n.phone_number_id}>
                    <TableCell className="align-top font-medium whitespace-nowrap">{n.display_phone_number || n.phone_number_id}</TableCell>
                    <TableCell className="align-top">
                      <code className="break-all text-xs">{n.base_url_origin || "—"}</code>
                    </TableCell>
                    <TableCell className="align-top">
                      <Badge variant="outline">{t("jv.numbers.connected")}</Badge>
                    </TableCell>
                    <TableCell className="align-top">{n.quality_rating ? <QualityBadge rating={n.quality_rating} /> : "—"}</TableCell>
                    <TableCell className="max-w-xs align-top whitespace-normal">
                      <code className="break-all text-xs" data-webhook-url>
                        {n.webhook_url}
                      </code>
                    </TableCell>
                    {data.can.connect ? (
                      <TableCell className="text-right align-top">
                        <ConfirmDelete
                          id={n.id}
                          intent="disconnect"
                          errors={disconnectReply === n.id ? last?.result.error?.[""] : undefined}
                          summary={t("numbers.disconnect.summary")}
                          label={t("numbers.disconnect.label", { number: n.display_phone_number })}
                          body={t("numbers.disconnect.body", { number: n.display_phone_number })}
                          confirm={t("numbers.disconnect.confirm")}
                        />
                      </TableCell>
                    ) : null}
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
