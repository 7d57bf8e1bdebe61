import { useTranslation } from "~/lib/react-i18n";
import type { ImportStatus } from "../../../../models/constants";
import { Badge, type BadgeProps } from "~/components/ui/badge";

const VARIANT: Record<ImportStatus, BadgeProps["variant"]> = {
  uploaded: "secondary",
  queued: "outline",
  running: "warning",
  completed: "success",
  failed: "destructive",
};

export function ImportStatusBadge({ status }: { status: ImportStatus }) {
  const { t } = useTranslation("imports");
  return (
    <Badge variant={VARIANT[status]} data-status={status}>
      {t(`status.${status}`)}
    </Badge>
  );
}

export const isActive = (status: ImportStatus) => status === "queued" || status === "running";
export const isFinished = (status: ImportStatus) => status === "completed" || status === "failed";
