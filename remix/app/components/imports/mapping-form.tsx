import { Form, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import type { ImportFileView } from "~api/imports/services";
import { CONTACT_FIELDS } from "../../../../models/constants";
import { formatBytes } from "./numbers";
import { CsrfInput, FormErrors, useErrorText } from "~/components/forms/fields";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { FormField, fieldDescriptionId, fieldErrorId } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { NativeSelect, NativeSelectOptGroup, NativeSelectOption } from "~/components/ui/native-select";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import type { Lng } from "~/lib/i18n";

export type MappingOptions = { groups: Array<{ id: string; name: string }>; customFields: Array<{ key: string; label: string }> };

export type MappingReply = {
  formErrors?: string[];
  fieldErrors?: Record<string, string[]>;
  params?: Record<string, unknown>;
  values?: { mapping: Record<string, string>; groupId: string; newGroupName: string };
};

/** Column headers of every file, each once, in order: the mapping posts `col.<index>` per header. */
export function mappingColumns(files: Array<Pick<ImportFileView, "columns">>): string[] {
  return [...new Set(files.flatMap((f) => f.columns))];
}

/**
 * Column mapping (works without JavaScript): for each file, its header and first rows, and per
 * column the contact field it fills; then the group the contacts join.
 */
export function MappingForm({
  files,
  selected,
  options,
  reply,
  lng,
}: {
  files: ImportFileView[];
  /** Preselected target per header (the last submission, else the suggestions). */
  selected: Record<string, string>;
  options: MappingOptions;
  reply?: MappingReply;
  lng: Lng;
}) {
  const { t } = useTranslation("imports");
  const errorText = useErrorText();
  const busy = useNavigation().state === "submitting";
  const columns = mappingColumns(files);
  const seen = new Set<string>();
  const groupErrors = reply?.fieldErrors?.groupId?.map((e) => errorText(e));
  const newGroupErrors = reply?.fieldErrors?.newGroupName?.map((e) => errorText(e));

  const targetOptions = (
    <>
      <NativeSelectOption value="">{t("mapping.ignore")}</NativeSelectOption>
      <NativeSelectOptGroup label={t("mapping.standard")}>
        <NativeSelectOption value="name">{t("mapping.fullName")}</NativeSelectOption>
        {CONTACT_FIELDS.map((f) => (
          <NativeSelectOption key={f} value={f}>
            {f === "mobile_number" ? t("mapping.mobileRequired") : t(`fields.${f}`)}
          </NativeSelectOption>
        ))}
      </NativeSelectOptGroup>
      {options.customFields.length ? (
        <NativeSelectOptGroup label={t("mapping.custom")}>
          {options.customFields.map((f) => (
            <NativeSelectOption key={f.key} value={`custom:${f.key}`}>
              {f.label}
            </NativeSelectOption>
          ))}
        </NativeSelectOptGroup>
      ) : null}
    </>
  );

  return (
    <Form method="post" className="space-y-6">
      <CsrfInput />
      <input type="hidden" name="intent" value="start" />
      <FormErrors errors={reply?.formErrors} params={reply?.params} />
      {files.map((file, fi) => (
        <Card key={fi} data-file={file.name}>
          <CardHeader>
            <h2 className="leading-none font-semibold break-all">{file.name}</h2>
            <CardDescription>{t("mapping.fileInfo", { count: file.columns.length, size: formatBytes(file.size, lng), delimiter: file.delimiter })}</CardDescription>
          </CardHeader>
          <CardContent>
            <Table>
              <TableCaption>{file.preview.length ? t("mapping.previewCaption", { name: file.name }) : t("mapping.noRows")}</TableCaption>
              <TableHeader>
                <TableRow className="hover:bg-transparent">
                  {file.columns.map((c, ci) => (
                    <TableHead key={ci} scope="col" className="align-top">
                      {c}
                    </TableHead>
                  ))}
                </TableRow>
                <TableRow className="hover:bg-transparent">
                  {file.columns.map((c, ci) => {
                    const first = !seen.has(c);
                    seen.add(c);
                    if (!first) {
                      return (
                        <TableCell key={ci} className="min-w-44 align-top text-xs whitespace-normal text-muted-foreground">
                          {t("mapping.sameAs", { column: c })}
                        </TableCell>
                      );
                    }
                    const index = columns.indexOf(c);
                    const id = `map-${index}`;
                    return (
                      <TableCell key={ci} className="min-w-48 align-top">
                        <label htmlFor={id} className="sr-only">
                          {t("mapping.target", { column: c })}
                        </label>
                        <NativeSelect id={id} name={`col.${index}`} defaultValue={selected[c] ?? ""} data-column={c}>
                          {targetOptions}
                        </NativeSelect>
                      </TableCell>
                    );
                  })}
                </TableRow>
              </TableHeader>
              <TableBody>
                {file.preview.map((row, ri) => (
                  <TableRow key={ri}>
                    {file.columns.map((_, ci) => (
                      <TableCell key={ci} className="max-w-56 truncate" title={row[ci] ?? ""}>
                        {row[ci] ?? ""}
                      </TableCell>
                    ))}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </CardContent>
        </Card>
      ))}
      <Card className="max-w-2xl">
        <CardHeader>
          <h2 className="leading-none font-semibold">{t("mapping.destination")}</h2>
          <CardDescription>{t("mapping.duplicates")}</CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          <FormField label={t("mapping.group")} htmlFor="import-group" error={groupErrors}>
            <NativeSelect
              id="import-group"
              name="groupId"
              defaultValue={reply?.values?.groupId ?? ""}
              aria-invalid={groupErrors?.length ? true : undefined}
              aria-describedby={groupErrors?.length ? fieldErrorId("import-group") : undefined}
            >
              <NativeSelectOption value="">{t("mapping.noGroup")}</NativeSelectOption>
              {options.groups.map((g) => (
                <NativeSelectOption key={g.id} value={g.id}>
                  {g.name}
                </NativeSelectOption>
              ))}
            </NativeSelect>
          </FormField>
          <FormField label={t("mapping.newGroup")} htmlFor="import-new-group" description={t("mapping.newGroupHint")} error={newGroupErrors}>
            <Input
              id="import-new-group"
              name="newGroupName"
              maxLength={80}
              autoComplete="off"
              defaultValue={reply?.values?.newGroupName ?? ""}
              aria-invalid={newGroupErrors?.length ? true : undefined}
              aria-describedby={[fieldDescriptionId("import-new-group"), newGroupErrors?.length ? fieldErrorId("import-new-group") : null].filter(Boolean).join(" ")}
            />
          </FormField>
          <Button type="submit" disabled={busy}>
            {t("mapping.submit")}
          </Button>
        </CardContent>
      </Card>
    </Form>
  );
}
