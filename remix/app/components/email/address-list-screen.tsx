/**
 * /mail/optouts and /mail/denylist: the account's e-mail opt-outs (addresses that asked not to
 * receive its e-mail: by hand, or by a spam complaint) and the deny list's e-mail addresses
 * (refused at accept: the message ends rejected, not charged). A search (GET ?q=), pages, a
 * remove per address (a confirmation disclosure) and an add form: plain forms, no JavaScript
 * needed; with JavaScript the add form checks the address as it is typed (the same schema).
 * The list card and the remove are the SMS lists' (components/optouts/number-list-card.tsx).
 */
import { getFormProps, useForm } from "@conform-to/react";
import { Form, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { useLazyValidate } from "~/lib/lazy-validate";
import { ConfirmDelete } from "~/components/forms/confirm-delete";
import { CsrfInput, FormErrors, TextField } from "~/components/forms/fields";
import { NumberListCard } from "~/components/optouts/number-list-card";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { TableCell, TableRow } from "~/components/ui/table";
import type { EmailListData } from "~/lib/email-lists.server";
import { formatDate } from "~/lib/format";
import type { FormReply } from "~/lib/forms.server";
import type { RootData } from "~/root";

export function EmailAddressListScreen() {
  const { kind, path, q, list } = useLoaderData<EmailListData>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const lng = useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR";
  const { t } = useTranslation(["emailReports", "smpp", "common"]);
  const sent = last?.result.initialValue as { intent?: string; id?: string } | undefined;
  const [form, fields] = useForm({
    id: `mail-${kind}-add`,
    lastResult: sent?.intent === "add" ? last?.result : undefined,
    onValidate: useLazyValidate(() => import("~api/optouts/schemas").then((m) => (kind === "optouts" ? m.addEmailOptoutSchema : m.addEmailDenySchema))),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const denylist = kind === "denylist";
  return (
    <div className="space-y-6">
      <PageHeader description={t(`${kind}.description`)} />
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <NumberListCard
          path={path}
          idPrefix={`mail-${kind}`}
          q={q}
          searchMode="email"
          list={{ ...list, page: list.page ?? 1, last_page: list.last_page ?? 1 }}
          texts={{ search: t("lists.search"), searchSubmit: t("lists.searchSubmit"), empty: t(`${kind}.empty`) }}
          columns={[t("lists.address"), denylist ? t("lists.reason") : t("lists.source"), t("lists.createdAt"), t("lists.actions")]}
          row={(r) => (
            <TableRow key={r.id} data-address={r.recipient}>
              <TableCell className="font-medium">{r.recipient}</TableCell>
              <TableCell className="max-w-xs truncate">{denylist ? r.reason || "—" : String(t(`lists.sources.${r.source}`, { defaultValue: r.source }))}</TableCell>
              <TableCell>{formatDate(r.created_at, lng, true)}</TableCell>
              <TableCell className="text-right">
                <div className="flex justify-end">
                  <ConfirmDelete
                    id={r.id}
                    errors={sent?.intent === "delete" && sent.id === r.id ? last?.result.error?.[""] : undefined}
                    summary={t("lists.remove")}
                    label={t("lists.removeLabel", { address: r.recipient })}
                    body={t(`${kind}.removeBody`, { address: r.recipient })}
                    confirm={t("lists.removeConfirm")}
                  />
                </div>
              </TableCell>
            </TableRow>
          )}
        />
        <Card>
          <CardHeader>
            <h2 className="leading-none font-semibold">{t(`${kind}.addTitle`)}</h2>
            <CardDescription>{t(`${kind}.addDescription`)}</CardDescription>
          </CardHeader>
          <CardContent>
            <Form method="post" {...getFormProps(form)} className="space-y-4">
              <CsrfInput />
              <input type="hidden" name="intent" value="add" />
              <FormErrors errors={form.errors} />
              <TextField field={fields.recipient} label={t("lists.address")} type="email" autoComplete="off" />
              {denylist ? <TextField field={(fields as Record<string, typeof fields.recipient>).reason} label={t("lists.reason")} autoComplete="off" /> : null}
              <Button type="submit" className="w-full" disabled={busy}>
                {t(`${kind}.addSubmit`)}
              </Button>
            </Form>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
