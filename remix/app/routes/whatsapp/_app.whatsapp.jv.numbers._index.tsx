/**
 * /whatsapp/jv/numbers: the account's numbers of the older integration (a BSP's On-Premises API
 * client, ADR 035) — the number, the origin of its client's base URL, its status (connected: a
 * number is kept only while its client answered connected at connect), its quality when known and
 * the webhook URL the client posts to — with a disconnect per number (confirmation disclosure).
 * Plain forms: works without JavaScript.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { z } from "~api/lib/zod";
import { disconnectWhatsappNumber } from "~api/whatsapp/numbers";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { NumbersCard } from "~/components/whatsapp/numbers-card";
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
      <NumbersCard
        title={t("jv.numbers.title")}
        description={t("jv.numbers.webhookHint")}
        empty={t("jv.numbers.empty")}
        numbers={data.numbers}
        columns={[
          { header: t("jv.numbers.columns.baseUrl"), cell: (n) => <code className="break-all text-xs">{n.base_url_origin || "—"}</code> },
          { header: t("jv.numbers.columns.status"), cell: () => <Badge variant="outline">{t("jv.numbers.connected")}</Badge> },
        ]}
        canDisconnect={data.can.connect}
        refused={disconnectReply ? { id: disconnectReply, errors: last?.result.error?.[""] } : undefined}
      />
    </div>
  );
}
