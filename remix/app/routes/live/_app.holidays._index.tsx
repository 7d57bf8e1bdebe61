/** /holidays: days without attendance (São Paulo calendar days); delete with confirmation. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { isLiveWriter } from "~api/live/access";
import { deleteHoliday, listHolidays } from "~api/live/calendar";
import { ConfirmDeleteRow } from "~/components/forms/confirm-delete";
import { EmptyRow, useReplyFor } from "~/components/live/parts";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { deleteIntentSchema, handleForm } from "~/lib/forms.server";
import { intlLocale, type Lng } from "~/lib/i18n";
import { redirectWithToast } from "~/lib/toast.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  return json({ holidays: await orHttpError(listHolidays(ctx)), canEdit: isLiveWriter(ctx) });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  return handleForm(request, deleteIntentSchema, async ({ id }) => {
    const h = await deleteHoliday(ctx, id);
    return redirectWithToast(request, "/holidays", { type: "success", title: "live:holidays.delete.deleted", params: { name: h.name } });
  });
}

/** A calendar day as the reader writes it (the day is a date, not an instant: formatted in UTC). */
function formatDay(day: string, lng: string) {
  return new Intl.DateTimeFormat(intlLocale[lng as Lng] ?? "pt-BR", { dateStyle: "full", timeZone: "UTC" }).format(new Date(`${day}T00:00:00Z`));
}

export default function Holidays() {
  const { holidays, canEdit } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation(["live", "common"]);
  const reply = useReplyFor();
  return (
    <div className="space-y-6">
      <PageHeader
        description={t("holidays.description")}
        actions={
          canEdit ? (
            <Button asChild>
              <Link to="/holidays/create">{t("holidays.create.link")}</Link>
            </Button>
          ) : null
        }
      />
      <Card>
        <CardContent>
          {holidays.length === 0 ? (
            <EmptyRow>{t("holidays.empty")}</EmptyRow>
          ) : (
            <Table data-testid="holidays">
              <TableHeader>
                <TableRow>
                  <TableHead>{t("holidays.day")}</TableHead>
                  <TableHead>{t("holidays.name")}</TableHead>
                  {canEdit ? <TableHead className="text-right">{t("holidays.actions")}</TableHead> : null}
                </TableRow>
              </TableHeader>
              <TableBody>
                {holidays.map((h) => (
                  <TableRow key={h.id} data-holiday-id={h.id}>
                    <TableCell>
                      <time dateTime={h.day}>{formatDay(h.day, i18n.language)}</time>
                    </TableCell>
                    <TableCell className="font-medium">{h.name}</TableCell>
                    {canEdit ? (
                      <TableCell className="text-right">
                        <ConfirmDeleteRow t={t} prefix="holidays" params={{ name: h.name }} id={h.id} errors={reply.errorsOf("delete", h.id)} />
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
