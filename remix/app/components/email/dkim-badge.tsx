/** The DKIM verdict of a received e-mail (pass, fail, none, neutral, temperror, policy…), translated and coloured. */
import { useTranslation } from "~/lib/react-i18n";
import { Badge, type BadgeProps } from "~/components/ui/badge";

const VARIANT: Record<string, BadgeProps["variant"]> = {
  pass: "success",
  fail: "destructive",
  none: "outline",
  neutral: "warning",
  temperror: "warning",
  permerror: "destructive",
  policy: "warning",
};

export function DkimBadge({ result }: { result: string }) {
  const { t } = useTranslation("email");
  return (
    <Badge variant={VARIANT[result] ?? "outline"} data-dkim={result}>
      {t(`peer.dkimResult.${result}`, { defaultValue: result })}
    </Badge>
  );
}
