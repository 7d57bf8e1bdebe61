/** /chat/macros: the account's macros (steps: message, tags, tabulation, close); create and delete without JavaScript. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { isLiveWriter } from "~api/live/access";
import { createMacro, deleteMacro, listMacros } from "~api/live/macros";
import { macroSchema } from "~api/live/schemas";
import { tabulationOptions } from "~api/live/tabulations";
import { ConfirmDeleteRow } from "~/components/forms/confirm-delete";
import { MacroForm } from "~/components/live/macro-form";
import { EmptyRow, useReplyFor } from "~/components/live/parts";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { deleteIntentSchema, handleForm } from "~/lib/forms.server";
import { redirectWithToast } from "~/lib/toast.server";

export const handle = { crumb: "live:macros.title" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  return json({ macros: await orHttpError(listMacros(ctx)), tabulations: await tabulationOptions(ctx), canEdit: isLiveWriter(ctx) });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const intent = (await request.clone().formData()).get("intent");
  if (intent === "delete") {
    return handleForm(request, deleteIntentSchema, async ({ id }) => {
      const m = await deleteMacro(ctx, id);
      return redirectWithToast(request, "/chat/macros", { type: "success", title: "live:macros.delete.deleted", params: { name: m.name } });
    });
  }
  return handleForm(request, macroSchema, async (v) => {
    const m = await createMacro(ctx, v);
    return redirectWithToast(request, "/chat/macros", { type: "success", title: "live:macros.create.created", params: { name: m.name } });
  });
}

export default function Macros() {
  const { macros, tabulations, canEdit } = useLoaderData<typeof loader>();
  const { t } = useTranslation(["live", "common"]);
  const busy = useNavigation().state === "submitting";
  const reply = useReplyFor();
  return (
    <div className="space-y-6">
      <PageHeader description={t("macros.description")} />
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,1fr)_24rem]">
        <Card>
          <CardContent>
            {macros.length === 0 ? (
              <EmptyRow>{t("macros.empty")}</EmptyRow>
            ) : (
              <Table data-testid="macros">
                <TableHeader>
                  <TableRow>
                    <TableHead>{t("macros.name")}</TableHead>
                    <TableHead>{t("macros.steps")}</TableHead>
                    {canEdit ? <TableHead className="text-right">{t("macros.actions")}</TableHead> : null}
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {macros.map((m) => (
                    <TableRow key={m.id} data-macro-id={m.id}>
                      <TableCell className="align-top font-medium">{m.name}</TableCell>
                      <TableCell className="max-w-md space-y-1 align-top">
                        {m.message ? <p className="whitespace-pre-wrap break-words text-muted-foreground">{m.message}</p> : null}
                        <div className="flex flex-wrap gap-1">
                          {m.tags.map((tag) => (
                            <Badge key={tag} variant="outline">
                              {tag}
                            </Badge>
                          ))}
                          {m.tabulation_name ? <Badge variant="secondary">{m.tabulation_name}</Badge> : null}
                          {m.close ? <Badge>{t("macros.closes")}</Badge> : null}
                        </div>
                      </TableCell>
                      {canEdit ? (
                        <TableCell className="text-right align-top">
                          <div className="flex flex-wrap items-start justify-end gap-2">
                            <Button asChild size="sm" variant="outline">
                              <Link to={`/chat/macros/${m.id}/edit`} aria-label={t("macros.edit.label", { name: m.name })}>
                                {t("macros.edit.link")}
                              </Link>
                            </Button>
                            <ConfirmDeleteRow t={t} prefix="macros" params={{ name: m.name }} id={m.id} errors={reply.errorsOf("delete", m.id)} />
                          </div>
                        </TableCell>
                      ) : null}
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
          </CardContent>
        </Card>
        {canEdit ? (
          <Card>
            <CardHeader>
              <h2 className="leading-none font-semibold">{t("macros.create.title")}</h2>
            </CardHeader>
            <CardContent>
              <MacroForm id="macro-create" lastResult={reply.of("save")} tabulations={tabulations} busy={busy} submit={t("macros.create.submit")} />
            </CardContent>
          </Card>
        ) : null}
      </div>
    </div>
  );
}
