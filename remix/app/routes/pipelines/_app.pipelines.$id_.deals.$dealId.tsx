/**
 * /pipelines/{id}/deals/{id}: one deal (card) of a board (issue 22; spec sections 2, 4 and 5) —
 * every field (lead name up to 25, description up to 200, owner, due date, channel, value in the
 * account's currency, priority low/normal/high/urgent, outcome sold/lost), its linked contact and
 * live-chat conversation, its tasks (done/undone, priority, due time, owner), comments, and
 * catalogue products with quantity, discount and the total; archive (or restore) and duplicate.
 * Everything is the use-cases' (api/pipelines/services); the owner, product and contact choices
 * come from lib/pipeline-options.server. Plain forms: works without JavaScript.
 */
import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { DEAL_CHANNELS, OUTCOMES, PRIORITIES } from "~api/pipelines/schemas";
import {
  addComment,
  addDealProduct,
  addTask,
  archiveDeal,
  deleteComment,
  deleteTask,
  duplicateDeal,
  getDeal,
  removeDealProduct,
  toggleTask,
  updateDeal,
  updateDealProduct,
} from "~api/pipelines/services";
import { SelectField, TextareaField } from "~/components/forms/controls";
import { CsrfInput, FormErrors, TextField } from "~/components/forms/fields";
import { IntentForm } from "~/components/forms/intent-form";
import { asText, PRIORITY_VARIANT, usePipelineFormat } from "~/components/pipelines/format";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { Table, TableBody, TableCell, TableFooter, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { dealForms } from "~/lib/pipeline-forms.server";
import { useLazyValidate } from "~/lib/lazy-validate";
import { findContacts, ownerOptions, productOptions } from "~/lib/pipeline-options.server";
import { useTranslation } from "~/lib/react-i18n";
import { redirectWithToast } from "~/lib/toast.server";

export const handle = {
  crumb: (data: unknown) => {
    const name = (data as { deal?: { lead_name?: string } } | undefined)?.deal?.lead_name;
    return name ? { key: "pipelines:deal.title", params: { name } } : "pipelines:deal.titleEmpty";
  },
};

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const { data: deal } = await orHttpError(getDeal(ctx, params.dealId ?? ""));
  // The deal's own board in the address: another board's id names nothing.
  if (deal.board_id !== params.id) throw new Response("Not Found", { status: 404 });
  const q = new URL(request.url).searchParams.get("contact_q") ?? "";
  const [owners, products, contacts] = await Promise.all([ownerOptions(ctx), productOptions(ctx), findContacts(ctx, q)]);
  // The forms' choices come with the data: the schemas' module stays out of the first load.
  const options = { priorities: [...PRIORITIES], channels: [...DEAL_CHANNELS], outcomes: [...OUTCOMES] };
  return json({ deal, owners, products, contactQuery: q, contacts, options }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const boardId = params.id ?? "";
  const dealId = params.dealId ?? "";
  const path = `/pipelines/${boardId}/deals/${dealId}`;
  // The deal must be this board's (and the account's: getDeal answers 404 otherwise).
  const { data: deal } = await orHttpError(getDeal(ctx, dealId));
  if (deal.board_id !== boardId) throw new Response("Not Found", { status: 404 });
  const done = (title: string, hash = "", extra: Record<string, string | number> = {}) =>
    redirectWithToast(request, `${path}${hash}`, { type: "success", title: `pipelines:${title}`, params: { name: deal.lead_name, ...extra } });
  const form = await request.clone().formData();
  switch (form.get("intent")) {
    case "deal-update":
      return handleForm(request, dealForms.edit, async ({ intent: _i, ...input }) => {
        await updateDeal(ctx, dealId, input);
        return done("deal.saved");
      });
    case "contact-link":
      return handleForm(request, dealForms.link, async ({ contact_id }) => {
        await updateDeal(ctx, dealId, { contact_id });
        return done(contact_id ? "deal.contactLinked" : "deal.contactUnlinked", "#contact");
      });
    case "archive":
      return handleForm(request, dealForms.archive, async () => {
        await archiveDeal(ctx, dealId, !deal.archived_at);
        return done(deal.archived_at ? "deal.restored" : "deal.archived");
      });
    case "duplicate":
      return handleForm(request, dealForms.duplicate, async () => {
        const { data } = await duplicateDeal(ctx, dealId);
        return redirectWithToast(request, `/pipelines/${boardId}/deals/${data.id}`, { type: "success", title: "pipelines:deal.duplicated", params: { name: data.lead_name } });
      });
    case "task-add":
      return handleForm(request, dealForms.taskAdd, async ({ intent: _i, ...input }) => {
        // The use-case checks again: the due time as the instant the form's local time was read as.
        const { data } = await addTask(ctx, dealId, { ...input, due_at: input.due_at.toISOString() });
        return done("tasks.added", "#tasks", { title: data.title });
      });
    case "task-toggle":
      return handleForm(request, dealForms.taskToggle, async ({ id }) => {
        const { data } = await toggleTask(ctx, id);
        return done(data.done ? "tasks.doneToast" : "tasks.undoneToast", "#tasks", { title: data.title });
      });
    case "task-delete":
      return handleForm(request, dealForms.taskDelete, async ({ id }) => {
        await deleteTask(ctx, id);
        return done("tasks.deleted", "#tasks");
      });
    case "comment-add":
      return handleForm(request, dealForms.commentAdd, async ({ body }) => {
        await addComment(ctx, dealId, { body });
        return done("comments.added", "#comments");
      });
    case "comment-delete":
      return handleForm(request, dealForms.commentDelete, async ({ id }) => {
        await deleteComment(ctx, id);
        return done("comments.deleted", "#comments");
      });
    case "product-add":
      return handleForm(request, dealForms.productAdd, async ({ intent: _i, ...input }) => {
        await addDealProduct(ctx, dealId, input);
        return done("products.added", "#products");
      });
    case "product-update":
      return handleForm(request, dealForms.productUpdate, async ({ intent: _i, id, ...input }) => {
        await updateDealProduct(ctx, id, input);
        return done("products.updated", "#products");
      });
    case "product-remove":
      return handleForm(request, dealForms.productRemove, async ({ id }) => {
        await removeDealProduct(ctx, id);
        return done("products.removed", "#products");
      });
    default:
      throw new Response("Bad Request", { status: 400 });
  }
}

type Data = ReturnType<typeof useLoaderData<typeof loader>>;

function useSent() {
  const last = useActionData<FormReply>();
  const sent = last?.result?.initialValue as { intent?: string; id?: string } | undefined;
  return { last, is: (name: string, id?: string) => sent?.intent === name && (id === undefined || sent?.id === id) };
}

/** Minor units as the money field shows them ("1234.56"; the form reads both "1234.56" and "1.234,56"). */
const moneyField = (cents: number) => (Number(cents) / 100).toFixed(2);

function DealForm({ deal, owners, options }: { deal: Data["deal"]; owners: Data["owners"]; options: Data["options"] }) {
  const { t } = useTranslation("pipelines");
  const { last, is } = useSent();
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm({
    id: "pipeline-deal-edit",
    lastResult: is("deal-update") ? last?.result : undefined,
    defaultValue: {
      lead_name: deal.lead_name,
      description: deal.description,
      owner_id: deal.owner_id ?? "",
      due_date: deal.due_date,
      channel: deal.channel ?? "",
      value: moneyField(deal.value_cents),
      priority: deal.priority,
      outcome: deal.outcome ?? "",
    },
    onValidate: useLazyValidate(() => import("~api/pipelines/schemas").then((m) => m.dealUpdateSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4">
      <CsrfInput />
      <input type="hidden" name="intent" value="deal-update" />
      <FormErrors errors={form.errors} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField field={fields.lead_name} label={t("deal.fields.lead_name")} description={t("deal.form.leadHint")} autoComplete="off" />
        <SelectField field={asText(fields.owner_id)} label={t("deal.fields.owner")} placeholder={t("deal.noOwner")} options={owners.map((o) => ({ value: o.id, label: o.name }))} />
      </div>
      <TextareaField field={fields.description} label={t("deal.fields.description")} description={t("deal.form.descriptionHint")} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField field={fields.due_date} type="date" label={t("deal.fields.due_date")} />
        <SelectField
          field={asText(fields.channel)}
          label={t("deal.fields.channel")}
          placeholder={t("deal.noChannel")}
          options={options.channels.map((c) => ({ value: c, label: t(`channels.${c}`) }))}
        />
        <TextField field={asText(fields.value)} label={t("deal.fields.value")} description={t("deal.form.valueHint")} autoComplete="off" />
        <SelectField field={asText(fields.priority)} label={t("deal.fields.priority")} options={options.priorities.map((p) => ({ value: p, label: t(`priority.${p}`) }))} />
        <SelectField
          field={asText(fields.outcome)}
          label={t("deal.fields.outcome")}
          placeholder={t("outcome.open")}
          options={options.outcomes.map((o) => ({ value: o, label: t(`outcome.${o}`) }))}
        />
      </div>
      <Button type="submit" disabled={busy}>
        {t("deal.form.save")}
      </Button>
    </Form>
  );
}

function ContactSection({ data }: { data: Data }) {
  const { t } = useTranslation("pipelines");
  const { last, is } = useSent();
  const { deal, contacts, contactQuery } = data;
  return (
    <Card id="contact">
      <CardHeader>
        <CardTitle>
          <h2>{t("deal.contact.title")}</h2>
        </CardTitle>
        <CardDescription>{t("deal.contact.description")}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4 text-sm">
        {deal.contact ? (
          <div className="flex flex-wrap items-center justify-between gap-2" data-linked-contact={deal.contact.id}>
            <div>
              <Link to={`/contacts/${deal.contact.id}`} className="font-medium underline">
                {deal.contact.name || t("deal.contact.unnamed")}
              </Link>
              <div className="text-muted-foreground">{[deal.contact.mobile_number, deal.contact.email].filter(Boolean).join(" · ")}</div>
            </div>
            <IntentForm intent="contact-link" values={{ contact_id: "" }}>
              <Button type="submit" variant="outline" size="sm">
                {t("deal.contact.unlink")}
              </Button>
            </IntentForm>
          </div>
        ) : (
          <p className="text-muted-foreground">{t("deal.contact.none")}</p>
        )}
        <Form method="get" className="flex flex-wrap items-end gap-2" preventScrollReset>
          <div className="min-w-48 flex-1 space-y-1">
            <Label htmlFor="contact-q">{t("deal.contact.search")}</Label>
            <Input id="contact-q" name="contact_q" type="search" defaultValue={contactQuery} autoComplete="off" />
          </div>
          <Button type="submit" variant="outline">
            {t("deal.contact.find")}
          </Button>
        </Form>
        {contactQuery.trim().length >= 2 ? (
          contacts.length === 0 ? (
            <p className="text-muted-foreground">{t("deal.contact.noMatch")}</p>
          ) : (
            <IntentForm intent="contact-link" className="flex flex-wrap items-end gap-2">
              <div className="min-w-48 flex-1 space-y-1">
                <Label htmlFor="contact-pick">{t("deal.contact.pick")}</Label>
                <NativeSelect id="contact-pick" name="contact_id" defaultValue={contacts[0]?.id}>
                  {contacts.map((c) => (
                    <NativeSelectOption key={c.id} value={c.id}>
                      {c.reach && c.reach !== c.name ? `${c.name} (${c.reach})` : c.name}
                    </NativeSelectOption>
                  ))}
                </NativeSelect>
              </div>
              <Button type="submit">{t("deal.contact.link")}</Button>
            </IntentForm>
          )
        ) : null}
        {is("contact-link") ? <FormErrors errors={Object.values(last?.result.error ?? {}).flatMap((e) => e ?? [])} /> : null}
      </CardContent>
    </Card>
  );
}

function RoomSection({ room }: { room: NonNullable<Data["deal"]["room"]> }) {
  const { t } = useTranslation("pipelines");
  const open = room.status !== "CLOSED";
  return (
    <Card id="conversation">
      <CardHeader>
        <CardTitle>
          <h2>{t("deal.room.title")}</h2>
        </CardTitle>
        <CardDescription>{t("deal.room.description")}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-2 text-sm" data-linked-room={room.id}>
        <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1">
          <dt className="text-muted-foreground">{t("deal.room.protocol")}</dt>
          <dd>{room.protocol}</dd>
          <dt className="text-muted-foreground">{t("deal.room.visitor")}</dt>
          <dd>{room.username || "—"}</dd>
          <dt className="text-muted-foreground">{t("deal.fields.channel")}</dt>
          <dd>{t(`channels.${room.channel}`, { defaultValue: room.channel })}</dd>
          <dt className="text-muted-foreground">{t("deal.room.status")}</dt>
          <dd>
            <Badge variant={open ? "success" : "secondary"}>{t(`deal.room.statuses.${room.status}`, { defaultValue: room.status })}</Badge>
          </dd>
        </dl>
        <Link to={open ? `/live?room=${room.id}` : `/live/history/${room.id}`} className="inline-block underline">
          {open ? t("deal.room.openLive") : t("deal.room.openHistory")}
        </Link>
      </CardContent>
    </Card>
  );
}

function TaskAddForm({ owners, priorities }: { owners: Data["owners"]; priorities: string[] }) {
  const { t } = useTranslation("pipelines");
  const { last, is } = useSent();
  const [form, fields] = useForm({
    id: "pipeline-task-add",
    lastResult: is("task-add") ? last?.result : undefined,
    defaultValue: { priority: "normal" },
    onValidate: useLazyValidate(() => import("~api/pipelines/schemas").then((m) => m.taskSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-3">
      <CsrfInput />
      <input type="hidden" name="intent" value="task-add" />
      <FormErrors errors={form.errors} />
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField field={fields.title} label={t("tasks.fields.title")} autoComplete="off" />
        <SelectField
          field={asText(fields.owner_id)}
          label={t("tasks.fields.owner")}
          placeholder={t("tasks.ownerDefault")}
          options={owners.map((o) => ({ value: o.id, label: o.name }))}
        />
        <SelectField field={asText(fields.priority)} label={t("tasks.fields.priority")} options={priorities.map((p) => ({ value: p, label: t(`priority.${p}`) }))} />
        <TextField field={fields.due_at} type={"datetime-local" as "date"} label={t("tasks.fields.due_at")} description={t("tasks.dueHint")} />
      </div>
      <TextareaField field={fields.description} label={t("tasks.fields.description")} />
      <Button type="submit" size="sm">
        {t("tasks.add")}
      </Button>
    </Form>
  );
}

function TasksSection({ data }: { data: Data }) {
  const { t } = useTranslation("pipelines");
  const f = usePipelineFormat();
  const { last, is } = useSent();
  const tasks = data.deal.tasks;
  return (
    <Card id="tasks">
      <CardHeader>
        <CardTitle>
          <h2>{t("tasks.title")}</h2>
        </CardTitle>
        <CardDescription>{t("tasks.summary", { done: tasks.filter((k) => k.done).length, count: tasks.length })}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {tasks.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t("tasks.empty")}</p>
        ) : (
          <ul className="divide-y rounded-md border">
            {tasks.map((k) => (
              <li key={k.id} className="flex flex-wrap items-start gap-3 p-3 text-sm" data-task-id={k.id} data-done={String(k.done)}>
                <div className="min-w-0 flex-1 space-y-1">
                  <p className={k.done ? "font-medium text-muted-foreground line-through" : "font-medium"}>{k.title}</p>
                  {k.description ? <p className="text-muted-foreground">{k.description}</p> : null}
                  <div className="flex flex-wrap items-center gap-2 text-xs">
                    <Badge variant={PRIORITY_VARIANT[k.priority] ?? "outline"}>{t(`priority.${k.priority}`)}</Badge>
                    <span>{t("tasks.due", { when: f.when(k.due_at) })}</span>
                    {k.owner_name ? <span>{t("tasks.ownedBy", { name: k.owner_name })}</span> : null}
                    <span className="sr-only">{k.done ? t("tasks.isDone") : t("tasks.isOpen")}</span>
                  </div>
                  {is("task-toggle", k.id) || is("task-delete", k.id) ? <FormErrors errors={last?.result.error?.[""]} /> : null}
                </div>
                <div className="flex gap-2">
                  <IntentForm intent="task-toggle" rowId={k.id}>
                    <Button type="submit" size="sm" variant="outline" aria-label={t(k.done ? "tasks.undoLabel" : "tasks.doLabel", { title: k.title })}>
                      {k.done ? t("tasks.undo") : t("tasks.do")}
                    </Button>
                  </IntentForm>
                  <IntentForm intent="task-delete" rowId={k.id}>
                    <Button type="submit" size="sm" variant="ghost" aria-label={t("tasks.deleteLabel", { title: k.title })}>
                      {t("tasks.delete")}
                    </Button>
                  </IntentForm>
                </div>
              </li>
            ))}
          </ul>
        )}
        <div>
          <h3 className="mb-2 text-sm font-semibold">{t("tasks.addTitle")}</h3>
          <TaskAddForm owners={data.owners} priorities={data.options.priorities} />
        </div>
      </CardContent>
    </Card>
  );
}

function CommentsSection({ data }: { data: Data }) {
  const { t } = useTranslation("pipelines");
  const f = usePipelineFormat();
  const { last, is } = useSent();
  const [form, fields] = useForm({
    id: "pipeline-comment-add",
    lastResult: is("comment-add") ? last?.result : undefined,
    onValidate: useLazyValidate(() => import("~api/pipelines/schemas").then((m) => m.commentSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <Card id="comments">
      <CardHeader>
        <CardTitle>
          <h2>{t("comments.title")}</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        {data.deal.comments.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t("comments.empty")}</p>
        ) : (
          <ol className="space-y-3">
            {data.deal.comments.map((c) => (
              <li key={c.id} className="rounded-md border p-3 text-sm" data-comment-id={c.id}>
                <div className="mb-1 flex flex-wrap items-center justify-between gap-2 text-xs text-muted-foreground">
                  <span>
                    <span className="font-medium text-foreground">{c.author_name || t("comments.unknownAuthor")}</span> · {f.when(c.created_at)}
                  </span>
                  <IntentForm intent="comment-delete" rowId={c.id}>
                    <Button type="submit" size="sm" variant="ghost" aria-label={t("comments.deleteLabel")}>
                      {t("comments.delete")}
                    </Button>
                  </IntentForm>
                </div>
                <p className="break-words whitespace-pre-wrap">{c.body}</p>
                {is("comment-delete", c.id) ? <FormErrors errors={last?.result.error?.[""]} /> : null}
              </li>
            ))}
          </ol>
        )}
        <Form method="post" {...getFormProps(form)} className="space-y-2">
          <CsrfInput />
          <input type="hidden" name="intent" value="comment-add" />
          <FormErrors errors={form.errors} />
          <TextareaField field={fields.body} label={t("comments.fields.body")} />
          <Button type="submit" size="sm">
            {t("comments.add")}
          </Button>
        </Form>
      </CardContent>
    </Card>
  );
}

function ProductsSection({ data }: { data: Data }) {
  const { t } = useTranslation("pipelines");
  const f = usePipelineFormat();
  const { last, is } = useSent();
  const { deal, products } = data;
  const [form, fields] = useForm({
    id: "pipeline-product-add",
    lastResult: is("product-add") ? last?.result : undefined,
    defaultValue: { quantity: "1" },
    onValidate: useLazyValidate(() => import("~api/pipelines/schemas").then((m) => m.dealProductSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <Card id="products">
      <CardHeader>
        <CardTitle>
          <h2>{t("products.title")}</h2>
        </CardTitle>
        <CardDescription>{t("products.description")}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {deal.products.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t("products.empty")}</p>
        ) : (
          <div className="overflow-x-auto">
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>{t("products.fields.name")}</TableHead>
                  <TableHead className="text-right">{t("products.fields.unit")}</TableHead>
                  <TableHead>{t("products.fields.quantityDiscount")}</TableHead>
                  <TableHead className="text-right">{t("products.fields.lineTotal")}</TableHead>
                  <TableHead>
                    <span className="sr-only">{t("products.actions")}</span>
                  </TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {deal.products.map((l) => (
                  <TableRow key={l.id} data-line-id={l.id}>
                    <TableCell className="align-top font-medium whitespace-normal">{l.name}</TableCell>
                    <TableCell className="text-right align-top tabular-nums">{f.money(l.unit_price_cents)}</TableCell>
                    <TableCell className="align-top">
                      <IntentForm intent="product-update" rowId={l.id} className="flex items-end gap-2">
                        <div className="space-y-1">
                          <Label htmlFor={`qty-${l.id}`} className="text-xs">
                            {t("products.fields.quantity")}
                          </Label>
                          <Input id={`qty-${l.id}`} name="quantity" inputMode="numeric" defaultValue={String(l.quantity)} className="h-8 w-20" />
                        </div>
                        <div className="space-y-1">
                          <Label htmlFor={`disc-${l.id}`} className="text-xs">
                            {t("products.fields.discount")}
                          </Label>
                          <Input id={`disc-${l.id}`} name="discount" inputMode="decimal" defaultValue={moneyField(l.discount_cents)} className="h-8 w-24" />
                        </div>
                        <Button type="submit" size="sm" variant="outline" aria-label={t("products.updateLabel", { name: l.name })}>
                          {t("products.update")}
                        </Button>
                      </IntentForm>
                      {is("product-update", l.id) ? <FormErrors errors={Object.values(last?.result.error ?? {}).flatMap((e) => e ?? [])} /> : null}
                    </TableCell>
                    <TableCell className="text-right align-top tabular-nums">{f.money(l.total_cents)}</TableCell>
                    <TableCell className="align-top">
                      <IntentForm intent="product-remove" rowId={l.id}>
                        <Button type="submit" size="sm" variant="ghost" aria-label={t("products.removeLabel", { name: l.name })}>
                          {t("products.remove")}
                        </Button>
                      </IntentForm>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
              <TableFooter>
                <TableRow>
                  <TableCell colSpan={3} className="font-semibold">
                    {t("products.total")}
                  </TableCell>
                  <TableCell className="text-right font-semibold tabular-nums" data-products-total>
                    {f.money(deal.products_total_cents)}
                  </TableCell>
                  <TableCell />
                </TableRow>
              </TableFooter>
            </Table>
          </div>
        )}
        {products.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t("products.noCatalogue")}</p>
        ) : (
          <Form method="post" {...getFormProps(form)} className="space-y-3">
            <CsrfInput />
            <input type="hidden" name="intent" value="product-add" />
            <h3 className="text-sm font-semibold">{t("products.addTitle")}</h3>
            <FormErrors errors={form.errors} />
            <div className="grid gap-3 sm:grid-cols-3">
              <SelectField
                field={asText(fields.product_id)}
                label={t("products.fields.product")}
                placeholder={t("products.pick")}
                options={products.map((p) => ({ value: p.id, label: `${p.name} — ${f.money(p.unit_cents)}` }))}
              />
              <TextField field={asText(fields.quantity)} label={t("products.fields.quantity")} autoComplete="off" />
              <TextField field={asText(fields.discount)} label={t("products.fields.discount")} description={t("deal.form.valueHint")} autoComplete="off" />
            </div>
            <Button type="submit" size="sm">
              {t("products.add")}
            </Button>
          </Form>
        )}
      </CardContent>
    </Card>
  );
}

export default function PipelineDeal() {
  const data = useLoaderData<typeof loader>();
  const { deal } = data;
  const { t } = useTranslation("pipelines");
  const f = usePipelineFormat();
  const { last, is } = useSent();
  return (
    <div className="space-y-6">
      <PageHeader
        description={t("deal.where", { board: deal.board_name, column: deal.column_name })}
        actions={
          <div className="flex flex-wrap items-center gap-2">
            <Link to={`/pipelines/${deal.board_id}#deal-${deal.id}`} className="text-sm underline">
              {t("deal.backToBoard")}
            </Link>
            <IntentForm intent="duplicate">
              <Button type="submit" variant="outline" size="sm">
                {t("deal.duplicate")}
              </Button>
            </IntentForm>
            <IntentForm intent="archive">
              <Button type="submit" variant="outline" size="sm">
                {deal.archived_at ? t("deal.restore") : t("deal.archive")}
              </Button>
            </IntentForm>
          </div>
        }
      />
      {is("archive") || is("duplicate") ? <FormErrors errors={last?.result.error?.[""]} /> : null}
      <Card>
        <CardHeader>
          <CardTitle>
            <h2 className="flex flex-wrap items-center gap-2">
              <span data-deal-name>{deal.lead_name}</span>
              <Badge variant={PRIORITY_VARIANT[deal.priority] ?? "outline"}>{t(`priority.${deal.priority}`)}</Badge>
              {deal.outcome ? <Badge variant={deal.outcome === "sold" ? "success" : "secondary"}>{t(`outcome.${deal.outcome}`)}</Badge> : null}
              {deal.archived_at ? <Badge variant="secondary">{t("deal.archivedBadge")}</Badge> : null}
            </h2>
          </CardTitle>
          <CardDescription>{t("deal.summary", { value: f.money(deal.value_cents), due: f.day(deal.due_date), owner: deal.owner_name || t("deal.noOwner") })}</CardDescription>
        </CardHeader>
        <CardContent>
          <DealForm deal={deal} owners={data.owners} options={data.options} />
        </CardContent>
      </Card>
      <div className="grid gap-6 lg:grid-cols-2">
        <ContactSection data={data} />
        {deal.room ? <RoomSection room={deal.room} /> : null}
      </div>
      <TasksSection data={data} />
      <ProductsSection data={data} />
      <CommentsSection data={data} />
    </div>
  );
}
