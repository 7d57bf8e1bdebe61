import { useTranslation } from "~/lib/react-i18n";
import type { Role } from "../../../../models/constants";
import { Badge } from "~/components/ui/badge";

const VARIANT: Partial<Record<Role, "default" | "secondary" | "outline">> = { owner: "default", admin: "secondary" };

/** A person's role in the account, translated (common roles.*). */
export function RoleBadge({ role }: { role: Role | string }) {
  const { t } = useTranslation();
  return <Badge variant={VARIANT[role as Role] ?? "outline"}>{t(`roles.${role}`)}</Badge>;
}
