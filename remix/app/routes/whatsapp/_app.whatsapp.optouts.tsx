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
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { addOptoutSchema } from "~api/optouts/schemas";
import { addOptout, listOptouts, removeOptout } from "~api/optouts/services";
import { CsrfInput, FormErrors, TextField } from "~/components/forms/fields";
import { listQuery } from "~/components/optouts/number-list-card";
import { OptoutsListCard } from "~/components/optouts/optouts-list-card";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { deleteIntentSchema, handleForm, type FormReply } from "~/lib/forms.server";
import { redirectWithToast } from "~/lib/toast.server";

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
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <OptoutsListCard path={PATH} idPrefix="wa-optout" q={q} list={list} showChannel={false} last={last} />
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
