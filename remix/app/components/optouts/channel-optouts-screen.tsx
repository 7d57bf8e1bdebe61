/**
 * The opt-outs screen of one channel (/whatsapp/optouts, /rcs/optouts): the numbers that asked not
 * to receive that channel's messages — list with search and pages, the keyword and source of
 * each, add, remove (the SMS screen's list card). `description` and `addDescription` are the
 * channel's own texts. Plain forms: no JavaScript needed.
 */
import { getFormProps, useForm } from "@conform-to/react";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { CsrfInput, FormErrors, TextField } from "~/components/forms/fields";
import { OptoutsListCard } from "~/components/optouts/optouts-list-card";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import type { FormReply } from "~/lib/forms.server";
import { useLazyValidate } from "~/lib/lazy-validate";
import { useTranslation } from "~/lib/react-i18n";
import type { ChannelOptoutsData } from "./channel-optouts.server";

export function ChannelOptoutsScreen({ description, addDescription, idPrefix }: { description: string; addDescription: string; idPrefix: string }) {
  const { path, channel, list, q } = useLoaderData<ChannelOptoutsData>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation(["smpp", "common"]);
  const sent = last?.result.initialValue as { intent?: string; id?: string } | undefined;
  const [form, fields] = useForm({
    id: `${idPrefix}-add`,
    lastResult: sent?.intent === "add" ? last?.result : undefined,
    defaultValue: { channel },
    onValidate: useLazyValidate(() => import("~api/optouts/schemas").then((m) => m.addOptoutSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <div className="space-y-6">
      <PageHeader description={description} />
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <OptoutsListCard path={path} idPrefix={idPrefix} q={q} list={list} showChannel={false} last={last} />
        <Card>
          <CardHeader>
            <h2 className="leading-none font-semibold">{t("optouts.add.title")}</h2>
            <CardDescription>{addDescription}</CardDescription>
          </CardHeader>
          <CardContent>
            <Form method="post" {...getFormProps(form)} className="space-y-4">
              <CsrfInput />
              <input type="hidden" name="intent" value="add" />
              <input type="hidden" name="channel" value={channel} />
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
