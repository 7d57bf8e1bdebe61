/** /opening-hours: weekly intervals (São Paulo time), account-wide or per department; whether it is open now. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { isLiveWriter } from "~api/live/access";
import { deleteOpeningHour, listOpeningHours } from "~api/live/calendar";
import { isOpen } from "~api/live/hours";
import { ConfirmDeleteRow } from "~/components/forms/confirm-delete";
import { EmptyRow, useReplyFor } from "~/components/live/parts";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { deleteIntentSchema, handleForm } from "~/lib/forms.server";
import { redirectWithToast } from "~/lib/toast.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const hours = await orHttpError(listOpeningHours(ctx));
  return json({ hours, openNow: await isOpen(ctx.actor.accountId, new Date()), canEdit: isLiveWriter(ctx) });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  return handleForm(request, deleteIntentSchema, async ({ id }) => {
    await deleteOpeningHour(ctx, id);
    return redirectWithToast(request, "/opening-hours", { type: "success", title: "live:hours.delete.deleted" });
  });
}

export default function OpeningHours() {
  const { hours, openNow, canEdit } = useLoaderData<typeof loader>();
  const { t } = useTranslation(["live", "common"]);
  const reply = useReplyFor();
  return (
    <div className="space-y-6">
      <PageHeader
        description={t("hours.description")}
        actions={
          <div className="flex items-center gap-3">
            <Badge variant={openNow ? "default" : "secondary"} data-testid="open-now">
              {openNow ? t("hours.now.open") : t("hours.now.closed")}
            </Badge>
            {canEdit ? (
              <Button asChild>
                <Link to="/opening-hours/create">{t("hours.create.link")}</Link>
              </Button>
            ) : null}
          </div>
        }
      />
      <Card>
        <CardContent>
          {hours.length === 0 ? (
            <EmptyRow>{t("hours.empty")}</EmptyRow>
          ) : (
            <Table data-testid="opening-hours">
              <TableHeader>
                <TableRow>
                  <TableHead>{t("hours.department")}</TableHead>
                  <TableHead>{t("hours.weekday")}</TableHead>
                  <TableHead>{t("hours.opens")}</TableHead>
                  <TableHead>{t("hours.closes")}</TableHead>
                  {canEdit ? <TableHead className="text-right">{t("hours.actions")}</TableHead> : null}
                </TableRow>
              </TableHeader>
              <TableBody>
                {hours.map((h) => {
                  const day = t(`hours.days.${h.weekday}`);
                  return (
                    <TableRow key={h.id} data-hours-id={h.id}>
                      <TableCell>{h.department_name ?? t("hours.allDepartments")}</TableCell>
                      <TableCell className="font-medium">{day}</TableCell>
                      <TableCell>{h.opens}</TableCell>
                      <TableCell>{h.closes}</TableCell>
                      {canEdit ? (
                        <TableCell className="text-right">
                          <ConfirmDeleteRow t={t} prefix="hours" params={{ day, opens: h.opens, closes: h.closes }} id={h.id} errors={reply.errorsOf("delete", h.id)} />
                        </TableCell>
                      ) : null}
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
