/**
 * The filters of /live/report (one agent's statistic): the agent (a select for reports readers;
 * an attendant sees only their own, no field) and the period, as a GET form — no JavaScript needed,
 * the figures are the loader's answer to the query string. An error names its field.
 */
import { Form } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { useErrorText } from "~/components/forms/fields";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";

export type AgentPeriodValues = { begin: string; end: string; agent_id: string };

export function AgentFilters({
  values,
  errors,
  agents,
  pick,
}: {
  values: AgentPeriodValues;
  errors: Record<string, string[] | undefined>;
  agents: Array<{ id: string; name: string }>;
  pick: boolean;
}) {
  const { t } = useTranslation("liveReports");
  const text = useErrorText();
  const field = (k: keyof AgentPeriodValues, label: string) => {
    const list = errors[k];
    return {
      invalid: list?.length ? { "aria-invalid": true as const, "aria-describedby": `ar-${k}-error` } : {},
      error: list?.length ? (
        <p id={`ar-${k}-error`} role="alert" className="text-sm text-destructive">
          {list.map((e) => t("agent.fieldError", { field: label, message: text(e) })).join(" ")}
        </p>
      ) : null,
    };
  };
  const agent = field("agent_id", t("filters.agent"));
  return (
    <Form method="get" action="/live/report" aria-label={t("filters.label")} className="flex flex-wrap items-start gap-3">
      {pick ? (
        <div className="grid min-w-0 max-w-full gap-1.5 sm:min-w-56">
          <Label htmlFor="ar-agent">{t("filters.agent")}</Label>
          <NativeSelect id="ar-agent" name="agent_id" defaultValue={values.agent_id} {...agent.invalid}>
            {agents.map((a) => (
              <NativeSelectOption key={a.id} value={a.id}>
                {a.name}
              </NativeSelectOption>
            ))}
          </NativeSelect>
          {agent.error}
        </div>
      ) : null}
      {(["begin", "end"] as const).map((k) => {
        const f = field(k, t(`filters.${k}`));
        return (
          <div key={k} className="grid gap-1.5">
            <Label htmlFor={`ar-${k}`}>{t(`filters.${k}`)}</Label>
            <Input id={`ar-${k}`} type="date" name={k} defaultValue={values[k]} {...f.invalid} />
            {f.error}
          </div>
        );
      })}
      <Button type="submit" variant="secondary" className="mt-6">
        {t("filters.submit")}
      </Button>
    </Form>
  );
}
