/**
 * /sms/antifraude (admin and sales of the account, per the policy): the account's messages held
 * because they contain a word or URL under review, grouped by review, with the account's
 * justification. Platform staff (who decide) get approve/reject here too; see /admin/antifraud.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { FormErrors } from "~/components/forms/fields";
import { replyErrors, ReviewGroups, StatusFilter, type ReviewGroup } from "~/components/moderation/reviews";
import { loadReviews, reviewAction } from "~/components/moderation/reviews.server";
import { PageHeader } from "~/components/shell/page-header";
import { requireRoute } from "~/lib/auth.server";
import type { FormReply } from "~/lib/forms.server";
import type { RootData } from "~/root";

export const handle = { crumb: "moderation:title" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  return json(await loadReviews(ctx, new URL(request.url), { terms: false }));
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  return reviewAction(request, ctx, "/sms/antifraude");
}

export default function SmsAntifraud() {
  const { groups, staff, status } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const lng = useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR";
  const { t } = useTranslation("moderation");
  return (
    <div className="space-y-6">
      <PageHeader description={t("description")} />
      <FormErrors errors={replyErrors(last)} />
      <StatusFilter status={status} base="/sms/antifraude" />
      <ReviewGroups groups={groups as unknown as ReviewGroup[]} staff={staff} status={status} lng={lng} busy={busy} />
    </div>
  );
}
