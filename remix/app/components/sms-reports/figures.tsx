import { Card, CardContent } from "~/components/ui/card";

/** A row of labelled figures (totals of a period). */
export function Figures({ items }: { items: Array<{ key: string; label: string; value: string }> }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      {items.map((f) => (
        <Card key={f.key} data-figure={f.key}>
          <CardContent className="space-y-1 pt-6">
            <p className="text-sm text-muted-foreground">{f.label}</p>
            <p className="text-2xl font-semibold tabular-nums" data-value>
              {f.value}
            </p>
          </CardContent>
        </Card>
      ))}
    </div>
  );
}
