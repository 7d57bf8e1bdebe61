/** The customer select of the /admin catalogue lists' GET forms (ADR 064). */
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { useTranslation } from "~/lib/react-i18n";

export function CustomerFilter({ id, customers, value }: { id: string; customers: Array<{ id: string; name: string }>; value: string }) {
  const { t } = useTranslation("adminCatalogue");
  return (
    <div className="grid gap-1">
      <Label htmlFor={id}>{t("customer")}</Label>
      <NativeSelect id={id} name="customer_id" defaultValue={value}>
        <NativeSelectOption value="">{t("filters.allCustomers")}</NativeSelectOption>
        {customers.map((c) => (
          <NativeSelectOption key={c.id} value={c.id}>
            {c.name}
          </NativeSelectOption>
        ))}
      </NativeSelect>
    </div>
  );
}
