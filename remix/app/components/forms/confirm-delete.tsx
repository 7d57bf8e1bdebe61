import { Form } from "@remix-run/react";
import { Button } from "~/components/ui/button";
import { CsrfInput, FormErrors } from "./fields";

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
        <Form method="post" action={action}>
          <CsrfInput />
          <input type="hidden" name="intent" value={intent} />
          <input type="hidden" name="id" value={id} />
          <Button type="submit" variant="destructive" size="sm">{confirm}</Button>
        </Form>
      </div>
    </details>
  );
}
