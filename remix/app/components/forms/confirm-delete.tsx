import { Button } from "~/components/ui/button";
import { FormErrors } from "./fields";
import { IntentForm } from "./intent-form";

/**
 * A destructive action behind a <details> disclosure: works without JavaScript, asks once,
 * posts `intent=delete` and the row's `id` (plus any extra hidden fields).
 */
export function ConfirmDelete({
  id,
  summary,
  label,
  body,
  confirm,
  action,
  errors,
  intent = "delete",
}: {
  id: string;
  summary: string;
  label: string;
  body: string;
  confirm: string;
  action?: string;
  errors?: string[] | null;
  intent?: string;
}) {
  return (
    <details className="text-left" open={Boolean(errors?.length)}>
      <summary
        aria-label={label}
        className="inline-flex h-8 cursor-pointer list-none items-center rounded-md border border-destructive/40 px-3 text-sm font-medium text-destructive hover:bg-destructive/10"
      >
        {summary}
      </summary>
      <div className="mt-2 max-w-64 space-y-2 rounded-md border bg-popover p-3 text-sm whitespace-normal shadow-sm">
        <FormErrors errors={errors} />
        <p>{body}</p>
        <IntentForm action={action} intent={intent} rowId={id}>
          <Button type="submit" variant="destructive" size="sm">
            {confirm}
          </Button>
        </IntentForm>
      </div>
    </details>
  );
}

/**
 * ConfirmDelete for a row of a list whose texts follow `{prefix}.delete.summary|label|body|confirm`
 * (label and body interpolate `params`, e.g. the row's name).
 */
export function ConfirmDeleteRow({
  t,
  prefix,
  params,
  id,
  errors,
}: {
  t: (key: string, params?: Record<string, unknown>) => string;
  prefix: string;
  params: Record<string, unknown>;
  id: string;
  errors?: string[] | null;
}) {
  return (
    <ConfirmDelete
      id={id}
      errors={errors}
      summary={t(`${prefix}.delete.summary`)}
      label={t(`${prefix}.delete.label`, params)}
      body={t(`${prefix}.delete.body`, params)}
      confirm={t(`${prefix}.delete.confirm`)}
    />
  );
}
