/** Small pieces the live chat configuration screens share. No domain rules here. */
import { useActionData } from "@remix-run/react";
import type { FormReply } from "~/lib/forms.server";

/** The last reply of the action, split by which form (intent, and row id) posted it. */
export function useReplyFor() {
  const last = useActionData<FormReply>();
  const sent = last?.result.initialValue as { intent?: string; id?: string } | undefined;
  return {
    last,
    /** The reply when the form with this intent (and row id) posted; undefined otherwise. */
    of: (intent: string, id?: string) => (sent?.intent === intent && (id === undefined || sent?.id === id) ? last?.result : undefined),
    errorsOf: (intent: string, id?: string) => {
      if (sent?.intent !== intent || (id !== undefined && sent?.id !== id)) return undefined;
      const e = last?.result.error ?? {};
      return Object.values(e)
        .flat()
        .filter((x): x is string => typeof x === "string");
    },
  };
}

export function EmptyRow({ children }: { children: React.ReactNode }) {
  return <p className="py-8 text-center text-sm text-muted-foreground">{children}</p>;
}
