/** An RCS agent's status and a carrier's launch state as badges (translated; the raw value in data-status for tests and styles). */
import { Badge } from "~/components/ui/badge";
import { useTranslation } from "~/lib/react-i18n";

const AGENT_VARIANT = { requested: "secondary", in_review: "warning", launched: "success", rejected: "destructive", suspended: "destructive" } as const;
const LAUNCH_VARIANT = { pending: "secondary", launched: "success", rejected: "destructive" } as const;

export function AgentStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation("rcs");
  return (
    <Badge variant={AGENT_VARIANT[status as keyof typeof AGENT_VARIANT] ?? "outline"} data-status={status}>
      {t(`agents.status.${status}`)}
    </Badge>
  );
}

export function LaunchBadges({ launches }: { launches: Array<{ carrier: string; state: string }> }) {
  const { t } = useTranslation("rcs");
  return (
    <div className="flex flex-wrap gap-1">
      {launches.map((l) => (
        <Badge key={l.carrier} variant={LAUNCH_VARIANT[l.state as keyof typeof LAUNCH_VARIANT] ?? "outline"} data-carrier={l.carrier} data-state={l.state}>
          {t(`agents.carriers.${l.carrier}`)}: {t(`agents.launch.${l.state}`)}
        </Badge>
      ))}
    </div>
  );
}
