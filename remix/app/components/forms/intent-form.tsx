/**
 * A POST form for one action of a screen: the CSRF token, the `intent` the action switches on and,
 * for a row's action, its `id` (and any other hidden `values`). Works without JavaScript.
 */
import { Form, type FormProps } from "@remix-run/react";
import { forwardRef } from "react";
import { CsrfInput } from "./fields";

type Props = Omit<FormProps, "method"> & { intent: string; rowId?: string; values?: Record<string, string> };

export const IntentForm = forwardRef<HTMLFormElement, Props>(function IntentForm({ intent, rowId, values, children, ...props }, ref) {
  return (
    <Form method="post" ref={ref} {...props}>
      <CsrfInput />
      <input type="hidden" name="intent" value={intent} />
      {rowId !== undefined ? <input type="hidden" name="id" value={rowId} /> : null}
      {Object.entries(values ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {children}
    </Form>
  );
});
