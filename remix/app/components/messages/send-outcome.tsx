/**
 * The outcome card of a send's success screen, shared by every channel's (/sms/send/success,
 * /whatsapp/success and /whatsapp/jv/success, /mail/send/success): a title with its icon, the facts
 * as a definition list (each row data-row=<key>), and what the screen adds below (reasons, links).
 */
import { CheckCircle2 } from "lucide-react";
import type { ReactNode } from "react";
import { Card, CardContent, CardHeader } from "~/components/ui/card";

export type OutcomeRow = [key: string, label: string, value: ReactNode];

export function SendOutcomeCard({ title, icon, rows, children }: { title: string; icon?: ReactNode; rows: OutcomeRow[]; children?: ReactNode }) {
  return (
    <Card className="max-w-2xl" data-testid="send-outcome">
      <CardHeader>
        <h2 className="flex items-center gap-2 text-lg font-semibold">
          {icon ?? <CheckCircle2 className="size-5 text-green-600" />}
          {title}
        </h2>
      </CardHeader>
      <CardContent className="space-y-5">
        <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
          {rows.map(([key, label, value]) => (
            <div key={key} className="contents" data-row={key}>
              <dt className="text-muted-foreground">{label}</dt>
              <dd className="font-medium tabular-nums">{value}</dd>
            </div>
          ))}
        </dl>
        {children}
      </CardContent>
    </Card>
  );
}
