/**
 * /whatsapp/optouts: the numbers that asked not to receive WhatsApp messages (the account's
 * opt-outs of channel "whatsapp": by keyword reply, by hand, API or import) — list with search and
 * pages, the keyword and source of each, add, remove. The use-cases and the list card are the SMS
 * screen's (api/optouts/services.ts, components/optouts/number-list-card.tsx); a send to an opted-out
 * contact ends `optout`, not charged. Plain forms: no JavaScript needed.
 */
import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { addOptoutSchema } from "~api/optouts/schemas";
import { addOptout, listOptouts, removeOptout } from "~api/optouts/services";
import { ConfirmDelete } from "~/components/forms/confirm-delete";
import { CsrfInput, FormErrors, TextField } from "~/components/forms/fields";
import { NumberListCard, listQuery } from "~/components/optouts/number-list-card";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { TableCell, TableRow } from "~/components/ui/table";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { formatDate } from "~/lib/format";
import { deleteIntentSchema, handleForm, type FormReply } from "~/lib/forms.server";
import { redirectWithToast } from "~/lib/toast.server";
import type { RootData } from "~/root";

export const handle = { crumb: "smpp:optouts.title" };
const PATH = "/whatsapp/optouts";

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const query = listQuery(request);
  return json({ list: await orHttpError(listOptouts(ctx, query, { channel: "whatsapp" })), q: query.q });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const intent = (await request.clone().formData()).get("intent");
  if (intent === "delete") {
    return handleForm(request, deleteIntentSchema, async ({ id }) => {
      await removeOptout(ctx, id);
      return redirectWithToast(request, PATH, { type: "success", title: "smpp:optouts.delete.deleted" });
    });
  }
  return handleForm(request, addOptoutSchema, async (value) => {
    const r = await addOptout(ctx, { ...value, channel: "whatsapp" }, { source: "manual" });
    return redirectWithToast(request, PATH, {
      type: "success",
      title: r.created ? "smpp:optouts.add.added" : "smpp:optouts.add.existing",
      params: { number: r.data.recipient_formatted },
    });
  });
}

export default function WhatsappOptouts() {
  const { list, q } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const lng = useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR";
  const { t } = useTranslation(["smpp", "whatsapp", "common"]);
  const sent = last?.result.initialValue as { intent?: string; id?: string } | undefined;
  const [form, fields] = useForm({
    id: "wa-optout-add",
    lastResult: sent?.intent === "add" ? last?.result : undefined,
    defaultValue: { channel: "whatsapp" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: addOptoutSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <div className="space-y-6">
      <PageHeader description={t("whatsapp:optouts.description")} />
      <div className="grid items-start gap-6 lg:grid-cols-[1fr_20rem]">
        <NumberListCard
          path={PATH}
          idPrefix="wa-optout"
          q={q}
          list={{ ...list, page: list.page ?? 1, last_page: list.last_page ?? 1 }}
          texts={{ search: t("optouts.search"), searchSubmit: t("optouts.searchSubmit"), empty: t("optouts.empty") }}
          columns={[t("optouts.columns.number"), t("optouts.columns.source"), t("optouts.columns.keyword"), t("optouts.columns.createdAt"), t("optouts.columns.actions")]}
          row={(o) => (
            <TableRow key={o.id} data-optout={o.recipient}>
              <TableCell className="font-medium">{o.recipient_formatted}</TableCell>
              <TableCell>{t(`optouts.sources.${o.source}`)}</TableCell>
              <TableCell>{o.keyword ?? "—"}</TableCell>
              <TableCell>{formatDate(o.created_at, lng, true)}</TableCell>
              <TableCell className="text-right">
                <div className="flex justify-end">
                  <ConfirmDelete
                    id={o.id}
                    errors={sent?.intent === "delete" && sent.id === o.id ? last?.result.error?.[""] : undefined}
                    summary={t("optouts.delete.summary")}
                    label={t("optouts.delete.label", { number: o.recipient_formatted })}
                    body={t("optouts.delete.body", { number: o.recipient_formatted })}
                    confirm={t("optouts.delete.confirm")}
                  />
                </div>
              </TableCell>
            </TableRow>
          )}
        />
        <Card>
          <CardHeader>
            <h2 className="leading-none font-semibold">{t("optouts.add.title")}</h2>
            <CardDescription>{t("whatsapp:optouts.addDescription")}</CardDescription>
          </CardHeader>
          <CardContent>
            <Form method="post" {...getFormProps(form)} className="space-y-4">
              <CsrfInput />
              <input type="hidden" name="intent" value="add" />
              <input type="hidden" name="channel" value="whatsapp" />
              <FormErrors errors={form.errors} />
              <TextField field={fields.recipient} label={t("optouts.columns.number")} type="tel" autoComplete="off" />
              <Button type="submit" className="w-full" disabled={busy}>
                {t("optouts.add.submit")}
              </Button>
            </Form>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
