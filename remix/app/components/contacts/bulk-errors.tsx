import type { SubmissionResult } from "@conform-to/react";
import { useTranslation } from "~/lib/react-i18n";
import { FormErrors } from "~/components/forms/fields";

/** Errors of a bulk form: nothing selected, no group chosen, or the use-case's error. */
export function BulkErrors({ result }: { result?: SubmissionResult<string[]> }) {
  const { t } = useTranslation("contacts");
  const error = result?.error;
  if (!error) return null;
  const messages: string[] = [];
  if (error.ids?.length) messages.push(t("bulk.noneSelected"));
  if (error.group_id?.length) messages.push(t("bulk.chooseGroup"));
  if (messages.length) {
    return (
      <div role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive">
        {messages.map((m) => (
          <p key={m}>{m}</p>
        ))}
      </div>
    );
  }
  return <FormErrors errors={error[""] ?? []} />;
}
