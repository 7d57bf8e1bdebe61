/**
 * In-browser form checks without zod in the first load (issue 19, ADR 052). A form passes
 * `useLazyValidate(() => import("~api/…/schemas").then((m) => m.someSchema))` as conform's
 * `onValidate`. Nothing is downloaded until the user focuses a field of a form (or a field event
 * comes first): that starts loading zod and conform's zod adapter (one chunk shared by every form), then
 * the schema's module; from then on every check is the same schema the server runs.
 *
 * Until the chunk has arrived:
 * - a field event (conform's "validate" intent) keeps the errors already shown, and stays in the
 *   browser (no round trip); the field is checked as soon as the chunk arrives;
 * - list intents (insert, remove, reorder, update, reset) are applied in the browser as usual;
 * - a real submit goes to the server, which validates with the same schema and answers with the
 *   errors on their fields — exactly what happens without JavaScript.
 */
import type { Submission } from "@conform-to/react";
import { parse } from "@conform-to/react";
import { useCallback, useEffect, useRef } from "react";
import type { z } from "zod";
import type { Validate } from "./lazy-validate.zod";

/** What a form hands over: a schema, or a function choosing the schema from the form's data. */
type Source<S extends z.ZodType> = S | ((formData: FormData) => S);

/** conform's onValidate, typed by the schema as `parseWithZod` would be (the form's fields get the schema's types). */
type OnValidate<S extends z.ZodType> = (context: { form: HTMLFormElement; formData: FormData }) => Submission<z.input<S>, string[], z.output<S>>;

/** Errors already on the form stay: a null entry keeps the field's current error in conform. */
function keepErrors(formData: FormData): Record<string, null> {
  const keep: Record<string, null> = { "": null };
  for (const name of formData.keys()) keep[name] = null;
  return keep;
}

/** conform's own way to ask a form to check one field: a submit with its intent button (as conform's `form.validate`). */
function requestValidate(form: HTMLFormElement, name: string) {
  if (!form.isConnected) return;
  const button = document.createElement("button");
  button.type = "submit";
  button.name = "__intent__";
  button.value = JSON.stringify({ type: "validate", payload: { name } });
  button.hidden = true;
  button.formNoValidate = true;
  form.appendChild(button);
  form.requestSubmit(button);
  button.remove();
}

export function useLazyValidate<S extends z.ZodType>(load: () => Promise<Source<S>>): OnValidate<S> {
  const state = useRef<{ validate?: Validate; loading?: Promise<void>; pending: Map<string, HTMLFormElement> }>({ pending: new Map() });
  const loader = useRef(load);
  loader.current = load;
  const start = useCallback(() => {
    const s = state.current;
    // zod's settings first (no `new Function` under our CSP), then the schema's module, which builds its schemas as it loads.
    s.loading ??= import("./lazy-validate.zod").then(
      async (zod) => {
        s.validate = zod.validator(await loader.current());
        // The fields left while the checks were on their way are checked now.
        for (const [name, form] of s.pending) requestValidate(form, name);
        s.pending.clear();
      },
      () => {
        // A failed download (offline, a new deploy): the next event tries again; the server still checks.
        s.loading = undefined;
      },
    );
  }, []);
  // Focus on a form's field starts the download, so the checks are usually there before the field is left.
  useEffect(() => {
    const onFocus = (event: FocusEvent) => {
      if (event.target instanceof Element && event.target.closest("form")) start();
    };
    document.addEventListener("focusin", onFocus);
    return () => document.removeEventListener("focusin", onFocus);
  }, [start]);
  return useCallback(
    ({ form, formData }) => {
      const s = state.current;
      if (s.validate) return s.validate(formData) as ReturnType<OnValidate<S>>;
      start();
      return parse(formData, {
        resolve: (_payload, intent) => {
          if (intent?.type === "validate" && intent.payload.name) s.pending.set(intent.payload.name, form);
          return intent ? { error: keepErrors(formData) } : { value: {} };
        },
      }) as unknown as ReturnType<OnValidate<S>>;
    },
    [start],
  );
}
