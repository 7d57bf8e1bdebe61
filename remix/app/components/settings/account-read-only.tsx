/** The account's data as text, for roles that may see but not edit it. */
import { useTranslation } from "~/lib/react-i18n";

type Account = {
  name: string;
  currency: string;
  address: {
    street: string | null;
    number: string | null;
    complement: string | null;
    district: string | null;
    city: string | null;
    province: string | null;
    postal_code: string | null;
  };
};

export function AccountReadOnly({ account }: { account: Account }) {
  const { t } = useTranslation("settings");
  const a = account.address;
  const rows: Array<[string, string | null]> = [
    [t("account.name"), account.name],
    [t("account.currency"), account.currency],
    [t("account.street"), [a.street, a.number].filter(Boolean).join(", ") || null],
    [t("account.complement"), a.complement],
    [t("account.district"), a.district],
    [t("account.city"), [a.city, a.province].filter(Boolean).join(" / ") || null],
    [t("account.postalCode"), a.postal_code],
  ];
  return (
    <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-[auto_1fr]" data-testid="account-read-only">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-muted-foreground">{label}</dt>
          <dd className={value ? "font-medium" : "text-muted-foreground"}>{value ?? t("account.notInformed")}</dd>
        </div>
      ))}
    </dl>
  );
}
