/**
 * /pipelines/{id}: one workflow board (issue 22; spec sections 2 and 5) — its ordered columns
 * and their cards (lead name, value in the account's currency, priority, owner, due date).
 * Columns: add, rename, move left/right, delete (its cards go to another column); a board holds
 * at most 30, names unique and required (the use-case's errors, translated). Cards: add one to a
 * column; move one by drag and drop (components/pipelines/board.tsx: mouse, touch or keyboard) or,
 * without JavaScript, with the move form on the card. A move is optimistic and carries the card's
 * version: when it changed meanwhile the server answers with the current state, the board shows
 * it and says why. Everyone looking at the board sees changes as they happen (the account's board
 * stream on the realtime service, components/pipelines/board-live.ts).
 */
import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useFetcher, useLoaderData, useNavigation, useRevalidator } from "@remix-run/react";
import { type ReactNode, useCallback, useEffect, useRef, useState } from "react";
import { MAX_COLUMNS, PRIORITIES } from "~api/pipelines/schemas";
import { createColumn, createDeal, deleteBoard, deleteColumn, getBoard, moveDeal, renameBoard, renameColumn, reorderColumns } from "~api/pipelines/services";
import { issueStreamTicket } from "~api/realtime/tickets";
import { SelectField, TextareaField } from "~/components/forms/controls";
import { ConfirmDelete } from "~/components/forms/confirm-delete";
import { CsrfInput, FormErrors, TextField, useCsrf } from "~/components/forms/fields";
import { IntentForm } from "~/components/forms/intent-form";
import { Board, type BoardColumn, type BoardDeal, type MoveRequest } from "~/components/pipelines/board";
import { useBoardEvents } from "~/components/pipelines/board-live";
import { asText, PRIORITY_VARIANT, usePipelineFormat } from "~/components/pipelines/format";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { boardForms } from "~/lib/pipeline-forms.server";
import { useLazyValidate } from "~/lib/lazy-validate";
import { useTranslation } from "~/lib/react-i18n";
import { redirectWithToast } from "~/lib/toast.server";

export const handle = {
  crumb: (data: unknown) => {
    const name = (data as { board?: { name?: string } } | undefined)?.board?.name;
    return name ? { key: "pipelines:board.title", params: { name } } : "pipelines:boards.title";
  },
};

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const { data: board } = await orHttpError(getBoard(ctx, params.id ?? ""));
  const columns: BoardColumn[] = board.columns.map((c) => ({
    id: c.id,
    name: c.name,
    deals: c.deals.map(
      (d): BoardDeal => ({
        id: d.id,
        lead_name: d.lead_name,
        value_cents: Number(d.value_cents),
        priority: d.priority,
        owner_name: d.owner_name ?? null,
        due_date: String(d.due_date).slice(0, 10),
        version: d.version,
        outcome: d.outcome ?? null,
      }),
    ),
  }));
  // A ticket for the board's live updates, on the page's first load only (single use: the page asks
  // for a new one when it reconnects; a revalidation, `_data`, needs none).
  const boardTicket = new URL(request.url).searchParams.has("_data") ? null : await issueStreamTicket(ctx.actor, ctx.sessionId);
  // The forms' choices and limits come with the data: the schemas' module stays out of the first load.
  const options = { maxColumns: MAX_COLUMNS, priorities: [...PRIORITIES] };
  return json({ board: { id: board.id, name: board.name }, columns, boardTicket, options }, { headers: { "Cache-Control": "private, no-store" } });
}

export type MoveReply = { ok: true; version: number } | { ok: false; conflict: true };

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const boardId = params.id ?? "";
  const path = `/pipelines/${boardId}`;
  const form = await request.clone().formData();
  const intent = form.get("intent");
  switch (intent) {
    case "board-rename":
      return handleForm(request, boardForms.boardRename, async ({ name }) => {
        const { data } = await renameBoard(ctx, boardId, { name });
        return redirectWithToast(request, path, { type: "success", title: "pipelines:board.renamed", params: { name: data.name } });
      });
    case "board-delete":
      return handleForm(request, boardForms.boardDelete, async () => {
        await deleteBoard(ctx, boardId);
        return redirectWithToast(request, "/pipelines", { type: "success", title: "pipelines:board.deleted" });
      });
    case "column-add":
      return handleForm(request, boardForms.columnAdd, async ({ name }) => {
        const { data } = await createColumn(ctx, boardId, { name });
        return redirectWithToast(request, path, { type: "success", title: "pipelines:columns.added", params: { name: data.name } });
      });
    case "column-rename":
      return handleForm(request, boardForms.columnRename, async ({ column_id, name }) => {
        const { data } = await renameColumn(ctx, column_id, { name });
        return redirectWithToast(request, path, { type: "success", title: "pipelines:columns.renamed", params: { name: data.name } });
      });
    case "column-move":
      return handleForm(request, boardForms.columnMove, async ({ column_id, direction }) => {
        const { data: board } = await getBoard(ctx, boardId);
        const ids = board.columns.map((c) => c.id);
        const at = ids.indexOf(column_id);
        const to = direction === "left" ? at - 1 : at + 1;
        if (at < 0) throw new Response("Not Found", { status: 404 });
        if (to >= 0 && to < ids.length) {
          [ids[at], ids[to]] = [ids[to], ids[at]];
          await reorderColumns(ctx, boardId, { column_ids: ids });
        }
        return redirect(`${path}#column-${column_id}`);
      });
    case "column-delete":
      return handleForm(request, boardForms.columnDelete, async ({ column_id, move_cards_to }) => {
        await deleteColumn(ctx, column_id, { move_cards_to });
        return redirectWithToast(request, path, { type: "success", title: "pipelines:columns.deleted" });
      });
    case "deal-add":
      return handleForm(request, boardForms.dealAdd, async ({ intent: _intent, ...input }) => {
        const { data } = await createDeal(ctx, boardId, input);
        return redirectWithToast(request, `${path}#deal-${data.id}`, { type: "success", title: "pipelines:deal.created", params: { name: data.lead_name } });
      });
    case "deal-move":
      return handleForm(request, boardForms.dealMove, async ({ id, to_column_id, before_deal_id, position, expected_version, reply }) => {
        const result = await moveDeal(ctx, id, { to_column_id, before_deal_id, position, expected_version });
        // From the board's script: the answer only (it shows the move, or goes back to the current state).
        if (reply === "json") return json<MoveReply>(result.ok ? { ok: true, version: result.deal.version } : { ok: false, conflict: true }, { status: result.ok ? 200 : 409 });
        if (!result.ok) return redirectWithToast(request, `${path}#deal-${id}`, { type: "error", title: "pipelines:board.conflict" });
        return redirectWithToast(request, `${path}#deal-${id}`, { type: "success", title: "pipelines:board.moved", params: { name: result.deal.lead_name } });
      });
    default:
      throw new Response("Bad Request", { status: 400 });
  }
}

/** What the last refused form was (its intent and the row it was for), to show its errors in the right place. */
function useSent() {
  const last = useActionData<FormReply>();
  const sent = last?.result?.initialValue as { intent?: string; column_id?: string; id?: string } | undefined;
  return {
    last,
    sent,
    is: (intent: string, key?: string, value?: string) => sent?.intent === intent && (key === undefined || (sent as Record<string, string | undefined>)[key] === value),
  };
}

function ColumnAddForm({ full, max }: { full: boolean; max: number }) {
  const { t } = useTranslation("pipelines");
  const { last, is } = useSent();
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm({
    id: "pipeline-column-add",
    lastResult: is("column-add") ? last?.result : undefined,
    onValidate: useLazyValidate(() => import("~api/pipelines/schemas").then((m) => m.columnSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-wrap items-start gap-2" data-form="column-add">
      <CsrfInput />
      <input type="hidden" name="intent" value="column-add" />
      <div className="w-full">
        <FormErrors errors={form.errors} />
      </div>
      <TextField field={fields.name} label={t("columns.fields.name")} autoComplete="off" className="min-w-48 flex-1" />
      <Button type="submit" disabled={busy} className="mt-6">
        {t("columns.add")}
      </Button>
      {full ? <p className="w-full text-sm text-muted-foreground">{t("columns.full", { max })}</p> : null}
    </Form>
  );
}

function ColumnRenameForm({ column }: { column: BoardColumn }) {
  const { t } = useTranslation("pipelines");
  const { last, is } = useSent();
  const [form, fields] = useForm({
    id: `pipeline-column-rename-${column.id}`,
    lastResult: is("column-rename", "column_id", column.id) ? last?.result : undefined,
    defaultValue: { name: column.name },
    onValidate: useLazyValidate(() => import("~api/pipelines/schemas").then((m) => m.columnSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-2">
      <CsrfInput />
      <input type="hidden" name="intent" value="column-rename" />
      <input type="hidden" name="column_id" value={column.id} />
      <FormErrors errors={form.errors} />
      <TextField field={fields.name} label={t("columns.fields.newName")} autoComplete="off" />
      <Button type="submit" size="sm" variant="outline">
        {t("columns.rename")}
      </Button>
    </Form>
  );
}

function ColumnActions({ column, columns, index }: { column: BoardColumn; columns: BoardColumn[]; index: number }) {
  const { t } = useTranslation("pipelines");
  const { last, is } = useSent();
  const others = columns.filter((c) => c.id !== column.id);
  const open = is("column-rename", "column_id", column.id) || is("column-delete", "column_id", column.id);
  return (
    <details className="text-sm" open={open}>
      <summary
        className="cursor-pointer rounded px-1 text-xs text-muted-foreground underline-offset-2 hover:underline"
        aria-label={t("columns.actionsLabel", { column: column.name })}
      >
        {t("columns.actions")}
      </summary>
      <div className="mt-2 space-y-3 rounded-md border bg-card p-2">
        <ColumnRenameForm column={column} />
        <div className="flex gap-2">
          <IntentForm intent="column-move" values={{ column_id: column.id, direction: "left" }}>
            <Button type="submit" size="sm" variant="outline" disabled={index === 0} aria-label={t("columns.moveLeftLabel", { column: column.name })}>
              {t("columns.moveLeft")}
            </Button>
          </IntentForm>
          <IntentForm intent="column-move" values={{ column_id: column.id, direction: "right" }}>
            <Button type="submit" size="sm" variant="outline" disabled={index === columns.length - 1} aria-label={t("columns.moveRightLabel", { column: column.name })}>
              {t("columns.moveRight")}
            </Button>
          </IntentForm>
        </div>
        <IntentForm intent="column-delete" values={{ column_id: column.id }} className="space-y-2">
          <FormErrors errors={is("column-delete", "column_id", column.id) ? last?.result.error?.[""] : undefined} />
          {column.deals.length > 0 ? (
            <div className="space-y-1">
              <Label htmlFor={`move-cards-${column.id}`}>{t("columns.moveCardsTo")}</Label>
              <NativeSelect id={`move-cards-${column.id}`} name="move_cards_to" defaultValue={others[0]?.id ?? ""}>
                {others.map((c) => (
                  <NativeSelectOption key={c.id} value={c.id}>
                    {c.name}
                  </NativeSelectOption>
                ))}
              </NativeSelect>
            </div>
          ) : null}
          <Button type="submit" size="sm" variant="destructive" aria-label={t("columns.deleteLabel", { column: column.name })}>
            {t("columns.delete")}
          </Button>
        </IntentForm>
      </div>
    </details>
  );
}

function DealAddForm({ column }: { column: BoardColumn }) {
  const { t } = useTranslation("pipelines");
  const { options } = useLoaderData<typeof loader>();
  const { last, is } = useSent();
  const mine = is("deal-add", "column_id", column.id);
  const [form, fields] = useForm({
    id: `pipeline-deal-add-${column.id}`,
    lastResult: mine ? last?.result : undefined,
    defaultValue: { priority: "normal", column_id: column.id },
    onValidate: useLazyValidate(() => import("~api/pipelines/schemas").then((m) => m.dealSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <details className="mt-2 text-sm" open={mine}>
      <summary className="cursor-pointer rounded px-1 py-1 font-medium underline-offset-2 hover:underline" aria-label={t("deal.addLabel", { column: column.name })}>
        {t("deal.add")}
      </summary>
      <Form method="post" {...getFormProps(form)} className="mt-2 space-y-3 rounded-md border bg-card p-2">
        <CsrfInput />
        <input type="hidden" name="intent" value="deal-add" />
        <input type="hidden" name="column_id" value={column.id} />
        <FormErrors errors={form.errors} />
        <TextField field={fields.lead_name} label={t("deal.fields.lead_name")} autoComplete="off" />
        <TextareaField field={fields.description} label={t("deal.fields.description")} />
        <TextField field={fields.due_date} type="date" label={t("deal.fields.due_date")} />
        <SelectField field={asText(fields.priority)} label={t("deal.fields.priority")} options={options.priorities.map((p) => ({ value: p, label: t(`priority.${p}`) }))} />
        <TextField field={asText(fields.value)} label={t("deal.fields.value")} description={t("deal.form.valueHint")} autoComplete="off" />
        <Button type="submit" size="sm">
          {t("deal.form.create")}
        </Button>
      </Form>
    </details>
  );
}

/** The card's move without JavaScript: pick the column, submit (the card goes to its end). */
function MoveForm({ deal, columnId, columns }: { deal: BoardDeal; columnId: string; columns: BoardColumn[] }) {
  const { t } = useTranslation("pipelines");
  return (
    <details className="text-xs">
      <summary className="cursor-pointer text-muted-foreground underline-offset-2 hover:underline" aria-label={t("board.moveLabel", { name: deal.lead_name })}>
        {t("board.move")}
      </summary>
      <IntentForm intent="deal-move" rowId={deal.id} values={{ expected_version: String(deal.version) }} className="mt-1 flex items-end gap-1" data-move-form={deal.id}>
        <div className="min-w-0 flex-1 space-y-1">
          <Label htmlFor={`move-${deal.id}`} className="text-xs">
            {t("board.moveTo")}
          </Label>
          <NativeSelect id={`move-${deal.id}`} name="to_column_id" defaultValue={columnId} className="h-8">
            {columns.map((c) => (
              <NativeSelectOption key={c.id} value={c.id}>
                {c.name}
              </NativeSelectOption>
            ))}
          </NativeSelect>
        </div>
        <Button type="submit" size="sm" variant="outline">
          {t("board.moveSubmit")}
        </Button>
      </IntentForm>
    </details>
  );
}

function DealCard({ deal, boardId, columnId, columns, handle }: { deal: BoardDeal; boardId: string; columnId: string; columns: BoardColumn[]; handle: ReactNode }) {
  const { t } = useTranslation("pipelines");
  const f = usePipelineFormat();
  return (
    <article id={`deal-${deal.id}`} className="space-y-2 rounded-md border bg-card p-2 text-sm shadow-xs" aria-labelledby={`deal-${deal.id}-name`}>
      <div className="flex items-start gap-1">
        {handle}
        <div className="min-w-0 flex-1">
          <h3 id={`deal-${deal.id}-name`} className="font-medium break-words">
            <Link to={`/pipelines/${boardId}/deals/${deal.id}`} className="underline-offset-2 hover:underline">
              {deal.lead_name}
            </Link>
          </h3>
          <p className="tabular-nums" data-deal-value>
            {f.money(deal.value_cents)}
          </p>
        </div>
      </div>
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-2 gap-y-1 text-xs">
        <dt className="text-muted-foreground">{t("deal.fields.priority")}</dt>
        <dd>
          <Badge variant={PRIORITY_VARIANT[deal.priority as keyof typeof PRIORITY_VARIANT] ?? "outline"}>{t(`priority.${deal.priority}`)}</Badge>
          {deal.outcome ? (
            <Badge variant={deal.outcome === "sold" ? "success" : "secondary"} className="ml-1">
              {t(`outcome.${deal.outcome}`)}
            </Badge>
          ) : null}
        </dd>
        <dt className="text-muted-foreground">{t("deal.fields.owner")}</dt>
        <dd className="truncate">{deal.owner_name || t("deal.noOwner")}</dd>
        <dt className="text-muted-foreground">{t("deal.fields.due_date")}</dt>
        <dd>{f.day(deal.due_date)}</dd>
      </dl>
      <MoveForm deal={deal} columnId={columnId} columns={columns} />
    </article>
  );
}

export default function PipelineBoard() {
  const { board, columns, boardTicket, options } = useLoaderData<typeof loader>();
  const { t } = useTranslation("pipelines");
  const { last, is } = useSent();
  const csrf = useCsrf();
  const revalidator = useRevalidator();
  const mover = useFetcher<MoveReply>();
  const settle = useRef<((ok: boolean) => void) | null>(null);
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  const [notice, setNotice] = useState<string | null>(null);

  const onMove = useCallback(
    (m: MoveRequest) =>
      new Promise<boolean>((resolve) => {
        settle.current?.(true);
        settle.current = resolve;
        setNotice(null);
        const fd = new FormData();
        fd.set("csrf", csrf);
        fd.set("intent", "deal-move");
        fd.set("reply", "json");
        fd.set("id", m.deal.id);
        fd.set("to_column_id", m.toColumnId);
        fd.set("position", String(m.position));
        if (m.beforeDealId) fd.set("before_deal_id", m.beforeDealId);
        fd.set("expected_version", String(m.deal.version));
        mover.submit(fd, { method: "post" });
      }),
    [csrf, mover.submit],
  );
  useEffect(() => {
    if (mover.state !== "idle" || !settle.current) return;
    const ok = mover.data?.ok === true;
    if (!ok) {
      setNotice(mover.data && "conflict" in mover.data ? "board.conflict" : "board.moveFailed");
      // The current state (and the cards' versions), whatever the router does after a refused action.
      revalidate.current();
    }
    settle.current(ok);
    settle.current = null;
  }, [mover.state, mover.data]);

  // Someone changed this board (here or elsewhere): read it again, a burst of changes once.
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useBoardEvents(board.id, boardTicket, () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => revalidate.current(), 100);
  });
  useEffect(() => () => clearTimeout(timer.current), []);

  return (
    <div className="space-y-4">
      <PageHeader
        description={t("board.description")}
        actions={
          <div className="flex flex-wrap items-center gap-3 text-sm">
            <Link to="/pipelines" className="underline">
              {t("boards.all")}
            </Link>
            <Link to={`/pipelines/reports?board_id=${board.id}`} className="underline">
              {t("reports.title")}
            </Link>
          </div>
        }
      />
      <p role="status" aria-live="polite" className={notice ? "rounded-md border border-warning/60 bg-warning/10 px-3 py-2 text-sm" : "sr-only"} data-board-notice>
        {notice ? t(notice) : ""}
      </p>
      {columns.length === 0 ? (
        <p className="rounded-md border p-6 text-center text-sm text-muted-foreground" data-empty>
          {t("columns.empty")}
        </p>
      ) : (
        <Board
          columns={columns}
          onMove={onMove}
          renderColumnHead={(column, count) => (
            <header className="mb-2 space-y-1 px-1" id={`column-${column.id}`}>
              <div className="flex items-baseline justify-between gap-2">
                <h2 id={`column-${column.id}-name`} className="truncate font-semibold">
                  {column.name}
                </h2>
                <span className="text-xs text-muted-foreground tabular-nums" data-column-count>
                  {t("columns.count", { count })}
                </span>
              </div>
              <ColumnActions column={column} columns={columns} index={columns.findIndex((c) => c.id === column.id)} />
            </header>
          )}
          renderCard={(deal, columnId, dragHandle) => <DealCard deal={deal} boardId={board.id} columnId={columnId} columns={columns} handle={dragHandle} />}
          renderColumnFoot={(column) => <DealAddForm column={column} />}
        />
      )}
      <div className="grid gap-4 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>
              <h2>{t("columns.addTitle")}</h2>
            </CardTitle>
            <CardDescription>{t("columns.addDescription", { max: options.maxColumns })}</CardDescription>
          </CardHeader>
          <CardContent>
            <ColumnAddForm full={columns.length >= options.maxColumns} max={options.maxColumns} />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>
              <h2>{t("board.settings")}</h2>
            </CardTitle>
          </CardHeader>
          <CardContent className="space-y-4">
            <BoardRenameForm name={board.name} last={is("board-rename") ? last : undefined} />
            <ConfirmDelete
              id={board.id}
              intent="board-delete"
              errors={is("board-delete") ? last?.result.error?.[""] : undefined}
              summary={t("board.delete.summary")}
              label={t("board.delete.label", { name: board.name })}
              body={t("board.delete.body", { name: board.name })}
              confirm={t("board.delete.confirm")}
            />
          </CardContent>
        </Card>
      </div>
    </div>
  );
}

function BoardRenameForm({ name, last }: { name: string; last?: FormReply }) {
  const { t } = useTranslation("pipelines");
  const [form, fields] = useForm({
    id: "pipeline-board-rename",
    lastResult: last?.result,
    defaultValue: { name },
    onValidate: useLazyValidate(() => import("~api/pipelines/schemas").then((m) => m.renameSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-wrap items-start gap-2">
      <CsrfInput />
      <input type="hidden" name="intent" value="board-rename" />
      <div className="w-full">
        <FormErrors errors={form.errors} />
      </div>
      <TextField field={fields.name} label={t("boards.fields.name")} autoComplete="off" className="min-w-48 flex-1" />
      <Button type="submit" variant="outline" className="mt-6">
        {t("board.rename")}
      </Button>
    </Form>
  );
}
