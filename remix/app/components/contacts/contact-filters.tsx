import { Form, Link } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";

export type ContactFilterValues = { q: string; group: string; tag: string; field: string; value: string };

/** Search and filters as a GET form (bookmarkable, no JavaScript needed). */
export function ContactFilters({
  action,
  values,
  groups,
  fields,
}: {
  action: string;
  values: ContactFilterValues;
  groups?: Array<{ id: string; name: string }>;
  fields: Array<{ key: string; label: string }>;
}) {
  const { t } = useTranslation("contacts");
  const active = Object.values(values).some(Boolean);
  return (
    <Form
      method="get"
      action={action}
      role="search"
      aria-label={t("filters.label")}
      className="grid gap-3 sm:grid-cols-2 sm:items-end lg:grid-cols-[minmax(12rem,2fr)_minmax(10rem,1fr)_minmax(7rem,1fr)_minmax(10rem,1fr)_minmax(7rem,1fr)_auto]"
    >
      <div className="grid gap-1.5">
        <Label htmlFor="contacts-q">{t("filters.q")}</Label>
        <Input id="contacts-q" type="search" name="q" defaultValue={values.q} placeholder={t("filters.qPlaceholder")} maxLength={100} />
      </div>
      {groups ? (
        <div className="grid gap-1.5">
          <Label htmlFor="contacts-group">{t("filters.group")}</Label>
          <NativeSelect id="contacts-group" name="group" defaultValue={values.group}>
            <NativeSelectOption value="">{t("filters.anyGroup")}</NativeSelectOption>
            {groups.map((g) => (
              <NativeSelectOption key={g.id} value={g.id}>
                {g.name}
              </NativeSelectOption>
            ))}
          </NativeSelect>
        </div>
      ) : null}
      <div className="grid gap-1.5">
        <Label htmlFor="contacts-tag">{t("filters.tag")}</Label>
        <Input id="contacts-tag" name="tag" defaultValue={values.tag} maxLength={40} />
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="contacts-field">{t("filters.field")}</Label>
        <NativeSelect id="contacts-field" name="field" defaultValue={values.field}>
          <NativeSelectOption value="">{t("filters.anyField")}</NativeSelectOption>
          {fields.map((f) => (
            <NativeSelectOption key={f.key} value={f.key}>
              {f.label}
            </NativeSelectOption>
          ))}
        </NativeSelect>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="contacts-value">{t("filters.value")}</Label>
        <Input id="contacts-value" name="value" defaultValue={values.value} maxLength={500} />
      </div>
      <div className="flex gap-2">
        <Button type="submit" variant="secondary">
          {t("filters.submit")}
        </Button>
        {active ? (
          <Button asChild variant="ghost">
            <Link to={action}>{t("filters.clear")}</Link>
          </Button>
        ) : null}
      </div>
    </Form>
  );
}
