import { Form, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { IMPORT_MAX_FILES } from "../../../../models/constants";
import { CsrfInput, FormErrors } from "~/components/forms/fields";
import { Button } from "~/components/ui/button";
import { FormField, fieldDescriptionId, fieldErrorId } from "~/components/ui/form-field";

export type UploadReply = { formErrors?: string[]; params?: Record<string, unknown>; noFile?: boolean };

/**
 * A plain multipart form (works without JavaScript). The CSRF field comes before the file input,
 * so the server reads the token before any file arrives.
 */
export function UploadForm({ reply }: { reply?: UploadReply }) {
  const { t } = useTranslation(["imports", "errors"]);
  const busy = useNavigation().state === "submitting";
  const id = "import-files";
  const fileError = reply?.noFile ? t("imports:upload.noFile") : undefined;
  // With JavaScript, the browser says at once what the server would refuse (too many files, not .csv).
  const check = (input: HTMLInputElement) => {
    const files = [...(input.files ?? [])];
    const message = files.length > IMPORT_MAX_FILES ? t("errors:IMPORT_TOO_MANY_FILES") : files.some((f) => !/\.csv$/i.test(f.name)) ? t("errors:IMPORT_NOT_CSV") : "";
    input.setCustomValidity(message);
    if (message) input.reportValidity();
  };
  return (
    <Form method="post" encType="multipart/form-data" className="space-y-4" aria-busy={busy || undefined}>
      <CsrfInput />
      <FormErrors errors={reply?.formErrors} params={reply?.params} />
      <FormField label={t("imports:upload.files")} htmlFor={id} description={t("imports:upload.hint")} error={fileError}>
        <input
          id={id}
          name="files"
          type="file"
          accept=".csv,text/csv"
          multiple
          required
          onChange={(e) => check(e.currentTarget)}
          aria-invalid={fileError ? true : undefined}
          aria-describedby={[fieldDescriptionId(id), fileError ? fieldErrorId(id) : null].filter(Boolean).join(" ")}
          className="block w-full cursor-pointer rounded-md border border-input bg-transparent text-sm shadow-xs file:mr-3 file:cursor-pointer file:border-0 file:border-r file:border-input file:bg-muted file:px-3 file:py-2 file:text-sm file:font-medium focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none aria-invalid:border-destructive"
        />
      </FormField>
      <Button type="submit" disabled={busy}>
        {busy ? t("imports:upload.sending") : t("imports:upload.submit")}
      </Button>
    </Form>
  );
}
