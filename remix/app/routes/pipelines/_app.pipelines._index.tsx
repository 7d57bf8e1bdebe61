/**
 * /pipelines: the account's workflow boards (issue 22; spec sections 2 and 5) — each with its
 * columns, open deals and their value in the account's currency — and the form that creates one
 * (a name and its first columns, one a line). The same action takes the "create deal" of a
 * live-chat room (/live) and of a contact's page (/contacts/{id}): the deal is made linked to the
 * room or the contact and its page opens. Everything is the use-cases' (api/pipelines/services);
 * plain forms: works without JavaScript.
 */
import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { createBoard, createDealFromContact, createDealFromRoom, listBoards } from "~api/pipelines/services";
import { TextareaField } from "~/components/forms/controls";
import { CsrfInput, FormErrors, TextField } from "~/components/forms/fields";
import { asText, usePipelineFormat } from "~/components/pipelines/format";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { indexForms } from "~/lib/pipeline-forms.server";
import { useLazyValidate } from "~/lib/lazy-validate";
import { useTranslation } from "~/lib/react-i18n";
import { redirectWithToast } from "~/lib/toast.server";

export const handle = { crumb: "pipelines:boards.title" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const { data } = await orHttpError(listBoards(ctx));
  return json({ boards: data }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const intent = (await request.clone().formData()).get("intent");
  if (intent === "deal-from-room") {
    return handleForm(request, indexForms.fromRoom, async ({ room_id, board_id }) => {
      const { data } = await createDealFromRoom(ctx, room_id, { board_id });
      return redirectWithToast(request, `/pipelines/${data.board_id}/deals/${data.id}`, { type: "success", title: "pipelines:deal.created", params: { name: data.lead_name } });
    });
  }
  if (intent === "deal-from-contact") {
    return handleForm(request, indexForms.fromContact, async ({ contact_id, board_id }) => {
      const { data } = await createDealFromContact(ctx, contact_id, { board_id });
      return redirectWithToast(request, `/pipelines/${data.board_id}/deals/${data.id}`, { type: "success", title: "pipelines:deal.created", params: { name: data.lead_name } });
    });
  }
  return handleForm(request, indexForms.boardCreate, async (input) => {
    const { data } = await createBoard(ctx, input);
    return redirectWithToast(request, `/pipelines/${data.id}`, { type: "success", title: "pipelines:boards.created", params: { name: data.name } });
  });
}

function CreateBoard({ last, busy }: { last?: FormReply; busy: boolean }) {
  const { t } = useTranslation("pipelines");
  const sent = last?.result?.initialValue as { intent?: string } | undefined;
  const [form, fields] = useForm({
    id: "pipeline-board-new",
    lastResult: sent?.intent === "board-create" ? last?.result : undefined,
    defaultValue: { columns: t("boards.form.defaultColumns") },
    onValidate: useLazyValidate(() => import("~api/pipelines/schemas").then((m) => m.boardSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <Form method="post" {...getFormProps(form)} className="max-w-xl space-y-4">
      <CsrfInput />
      <input type="hidden" name="intent" value="board-create" />
      <FormErrors errors={form.errors} />
      <TextField field={fields.name} label={t("boards.fields.name")} autoComplete="off" />
      <TextareaField field={asText(fields.columns)} label={t("boards.fields.columns")} description={t("boards.form.columnsHint")} />
      <Button type="submit" disabled={busy}>
        {t("boards.form.submit")}
      </Button>
    </Form>
  );
}

export default function PipelinesIndex() {
  const { boards } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation("pipelines");
  const { money } = usePipelineFormat();
  const sent = last?.result?.initialValue as { intent?: string } | undefined;
  // A "create deal" refused (sent from a room or a contact): why, here.
  const linkErrors = sent?.intent === "deal-from-room" || sent?.intent === "deal-from-contact" ? Object.values(last?.result.error ?? {}).flatMap((e) => e ?? []) : null;
  return (
    <div className="space-y-6">
      <PageHeader
        description={t("boards.description")}
        actions={
          <Link to="/pipelines/reports" className="text-sm underline">
            {t("reports.title")}
          </Link>
        }
      />
      <FormErrors errors={linkErrors} />
      <Card>
        <CardContent className="pt-6">
          {boards.length === 0 ? (
            <p className="py-6 text-center text-sm text-muted-foreground" data-empty>
              {t("boards.empty")}
            </p>
          ) : (
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>{t("boards.fields.name")}</TableHead>
                  <TableHead className="text-right">{t("boards.fields.columnCount")}</TableHead>
                  <TableHead className="text-right">{t("boards.fields.dealCount")}</TableHead>
                  <TableHead className="text-right">{t("boards.fields.value")}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {boards.map((b) => (
                  <TableRow key={b.id} data-board-id={b.id}>
                    <TableCell className="font-medium">
                      <Link to={`/pipelines/${b.id}`} className="underline-offset-2 hover:underline">
                        {b.name}
                      </Link>
                    </TableCell>
                    <TableCell className="text-right tabular-nums">{b.columns}</TableCell>
                    <TableCell className="text-right tabular-nums">{b.deals}</TableCell>
                    <TableCell className="text-right tabular-nums">{money(b.value_cents)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>
            <h2>{t("boards.form.title")}</h2>
          </CardTitle>
          <CardDescription>{t("boards.form.description")}</CardDescription>
        </CardHeader>
        <CardContent>
          <CreateBoard last={last} busy={busy} />
        </CardContent>
      </Card>
    </div>
  );
}
