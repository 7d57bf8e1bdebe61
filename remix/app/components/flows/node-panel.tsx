/**
 * The builder's side panel (issue 20): the selected step's data, field by field as
 * api/flows/definition.ts DATA defines each type, and its connections (a select per output, the
 * keyboard's and screen reader's way to draw an edge). An empty optional field is left out of the
 * data, so the check reads it as absent.
 */
import { useId } from "react";
import { QUESTION_CHECKS } from "~api/flows/constants";
import { useErrorText } from "~/components/forms/fields";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import { useTranslation } from "~/lib/react-i18n";
import type { DraftEdgeLike, DraftNodeLike, IssueLike } from "./summary";

type Data = Record<string, unknown>;
type Props = {
  node: DraftNodeLike;
  nodes: DraftNodeLike[];
  edges: DraftEdgeLike[];
  outputs: string[];
  issues: IssueLike[];
  onData: (id: string, data: unknown, mergeKey: string | null) => void;
  onConnect: (source: string, output: string, target: string | null) => void;
  departments: Array<{ id: string; name: string }>;
};

const SUBJECTS = ["variable", "field", "tag", "opening_hours"] as const;
const OPS = ["equals", "not_equals", "contains", "exists", "greater", "less", "open", "closed"] as const;
const ACTION_KINDS = ["add_tag", "remove_tag", "set_field", "add_to_group"] as const;

const str = (v: unknown) => (typeof v === "string" ? v : "");
const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? String(v) : "");
/** The data with `key` set, or left out when empty and optional. */
const put = (d: Data, key: string, value: unknown, optional: boolean): Data => {
  const next = { ...d };
  if (optional && (value === "" || value === undefined || (Array.isArray(value) && value.length === 0))) delete next[key];
  else next[key] = value;
  return next;
};
const lines = (s: string) =>
  s
    .split("\n")
    .map((x) => x.trim())
    .filter(Boolean);
const toNumber = (s: string) => (s.trim() === "" ? undefined : Number(s));

function Field({ label, children, id }: { label: string; children: React.ReactNode; id: string }) {
  return (
    <div className="grid gap-1">
      <label htmlFor={id} className="text-xs font-medium">
        {label}
      </label>
      {children}
    </div>
  );
}

export function NodePanel({ node, nodes, edges, outputs, issues, onData, onConnect, departments }: Props) {
  const { t } = useTranslation("flows");
  const text = useErrorText();
  const uid = useId();
  const d = (node.data ?? {}) as Data;
  const set = (key: string, value: unknown, optional = true, typing = false) => onData(node.id, put(d, key, value, optional), typing ? `${node.id}.${key}` : null);
  const fid = (k: string) => `${uid}-${k}`;
  const label = (k: string) => t(`panel.fields.${k}`);

  const textField = (key: string, optional = true, multiline = false) => (
    <Field id={fid(key)} label={label(key)}>
      {multiline ? (
        <Textarea id={fid(key)} value={str(d[key])} rows={3} onChange={(e) => set(key, e.target.value, optional, true)} />
      ) : (
        <Input id={fid(key)} value={str(d[key])} onChange={(e) => set(key, e.target.value, optional, true)} autoComplete="off" />
      )}
    </Field>
  );
  const numberField = (key: string, optional = true) => (
    <Field id={fid(key)} label={label(key)}>
      <Input id={fid(key)} type="number" inputMode="numeric" value={num(d[key])} onChange={(e) => set(key, toNumber(e.target.value), optional, true)} />
    </Field>
  );
  const selectField = (key: string, options: readonly string[], ns: string) => (
    <Field id={fid(key)} label={label(key)}>
      <NativeSelect id={fid(key)} value={str(d[key])} onChange={(e) => set(key, e.target.value, false)}>
        {options.map((o) => (
          <NativeSelectOption key={o} value={o}>
            {t(`${ns}.${o}`, { defaultValue: o })}
          </NativeSelectOption>
        ))}
      </NativeSelect>
    </Field>
  );
  const linesField = (key: string) => (
    <Field id={fid(key)} label={label(key)}>
      <Textarea
        id={fid(key)}
        rows={3}
        defaultValue={Array.isArray(d[key]) ? (d[key] as unknown[]).map(String).join("\n") : ""}
        onChange={(e) => set(key, lines(e.target.value), true, true)}
        aria-describedby={`${fid(key)}-hint`}
      />
      <p id={`${fid(key)}-hint`} className="text-xs text-muted-foreground">
        {t("panel.linesHint")}
      </p>
    </Field>
  );

  const rules = Array.isArray(d.rules) ? (d.rules as Data[]) : [];
  const setRule = (i: number, key: string, value: unknown, optional = true, typing = false) =>
    onData(node.id, { ...d, rules: rules.map((r, j) => (j === i ? put(r, key, value, optional) : r)) }, typing ? `${node.id}.rules.${i}.${key}` : null);
  const map = Array.isArray(d.map) ? (d.map as Data[]) : [];
  const setMap = (i: number, key: string, value: string) => onData(node.id, { ...d, map: map.map((m, j) => (j === i ? { ...m, [key]: value } : m)) }, `${node.id}.map.${i}.${key}`);
  const store = (d.store ?? {}) as Data;

  return (
    <div className="space-y-3 text-sm" data-testid="node-panel" data-node={node.id}>
      <h3 className="font-semibold">
        {t(`nodes.${node.type}`, { defaultValue: node.type })} <code className="text-xs text-muted-foreground">{node.id}</code>
      </h3>
      {issues.length ? (
        <ul className="space-y-0.5 text-destructive" role="alert">
          {issues.map((i) => (
            <li key={`${i.field}-${i.key}`}>
              {i.field ? <code className="text-xs">{i.field}</code> : null} {text(i.key)}
            </li>
          ))}
        </ul>
      ) : null}

      {node.type === "message" ? (
        <>
          {textField("text", true, true)}
          {textField("media_url")}
          {linesField("buttons")}
        </>
      ) : null}
      {node.type === "question" ? (
        <>
          {textField("text", false, true)}
          {selectField("check", QUESTION_CHECKS, "checks")}
          {d.check === "choice" ? linesField("choices") : null}
          <Field id={fid("store.kind")} label={label("storeKind")}>
            <NativeSelect id={fid("store.kind")} value={str(store.kind)} onChange={(e) => set("store", { ...store, kind: e.target.value }, false)}>
              {["variable", "field"].map((k) => (
                <NativeSelectOption key={k} value={k}>
                  {t(`storeKinds.${k}`)}
                </NativeSelectOption>
              ))}
            </NativeSelect>
          </Field>
          <Field id={fid("store.name")} label={label("storeName")}>
            <Input id={fid("store.name")} value={str(store.name)} onChange={(e) => onData(node.id, { ...d, store: { ...store, name: e.target.value } }, `${node.id}.store.name`)} />
          </Field>
          {textField("retry_message", true, true)}
          {numberField("retries")}
          {numberField("timeout_seconds")}
        </>
      ) : null}
      {node.type === "condition" ? (
        <fieldset className="space-y-3">
          <legend className="text-xs font-medium">{label("rules")}</legend>
          {rules.map((r, i) => (
            <div key={i} className="space-y-2 rounded-md border p-2" data-rule={i}>
              <Field id={fid(`rule${i}.id`)} label={label("ruleId")}>
                <Input id={fid(`rule${i}.id`)} value={str(r.id)} onChange={(e) => setRule(i, "id", e.target.value, false, true)} />
              </Field>
              <Field id={fid(`rule${i}.subject`)} label={label("subject")}>
                <NativeSelect id={fid(`rule${i}.subject`)} value={str(r.subject)} onChange={(e) => setRule(i, "subject", e.target.value, false)}>
                  {SUBJECTS.map((o) => (
                    <NativeSelectOption key={o} value={o}>
                      {t(`subjects.${o}`)}
                    </NativeSelectOption>
                  ))}
                </NativeSelect>
              </Field>
              {r.subject !== "opening_hours" ? (
                <Field id={fid(`rule${i}.name`)} label={label("ruleName")}>
                  <Input id={fid(`rule${i}.name`)} value={str(r.name)} onChange={(e) => setRule(i, "name", e.target.value, true, true)} />
                </Field>
              ) : null}
              <Field id={fid(`rule${i}.op`)} label={label("op")}>
                <NativeSelect id={fid(`rule${i}.op`)} value={str(r.op)} onChange={(e) => setRule(i, "op", e.target.value, false)}>
                  {OPS.map((o) => (
                    <NativeSelectOption key={o} value={o}>
                      {t(`ops.${o}`)}
                    </NativeSelectOption>
                  ))}
                </NativeSelect>
              </Field>
              <Field id={fid(`rule${i}.value`)} label={label("value")}>
                <Input id={fid(`rule${i}.value`)} value={str(r.value)} onChange={(e) => setRule(i, "value", e.target.value, true, true)} />
              </Field>
              <Button type="button" size="sm" variant="ghost" onClick={() => onData(node.id, { ...d, rules: rules.filter((_, j) => j !== i) }, null)}>
                {t("panel.removeRule")}
              </Button>
            </div>
          ))}
          <Button
            type="button"
            size="sm"
            variant="outline"
            onClick={() => {
              let n = rules.length + 1;
              while (rules.some((r) => r.id === `rule${n}`)) n++;
              onData(node.id, { ...d, rules: [...rules, { id: `rule${n}`, subject: "variable", name: "", op: "equals", value: "" }] }, null);
            }}
          >
            {t("panel.addRule")}
          </Button>
        </fieldset>
      ) : null}
      {node.type === "delay" ? numberField("seconds", false) : null}
      {node.type === "http" ? (
        <>
          {selectField("method", ["GET", "POST"], "methods")}
          {textField("url", false)}
          {textField("body", true, true)}
          {numberField("timeout_ms")}
          <fieldset className="space-y-2">
            <legend className="text-xs font-medium">{label("map")}</legend>
            {map.map((m, i) => (
              <div key={i} className="grid grid-cols-[1fr_1fr_auto] items-end gap-1">
                <Field id={fid(`map${i}.path`)} label={label("path")}>
                  <Input id={fid(`map${i}.path`)} value={str(m.path)} onChange={(e) => setMap(i, "path", e.target.value)} />
                </Field>
                <Field id={fid(`map${i}.variable`)} label={label("variable")}>
                  <Input id={fid(`map${i}.variable`)} value={str(m.variable)} onChange={(e) => setMap(i, "variable", e.target.value)} />
                </Field>
                <Button
                  type="button"
                  size="sm"
                  variant="ghost"
                  onClick={() => onData(node.id, { ...d, map: map.filter((_, j) => j !== i) }, null)}
                  aria-label={t("panel.removeMap")}
                >
                  ×
                </Button>
              </div>
            ))}
            <Button type="button" size="sm" variant="outline" onClick={() => onData(node.id, { ...d, map: [...map, { path: "", variable: "" }] }, null)}>
              {t("panel.addMap")}
            </Button>
          </fieldset>
        </>
      ) : null}
      {node.type === "action" ? (
        <>
          {selectField("kind", ACTION_KINDS, "actionKinds")}
          {textField("name", false)}
          {textField("value")}
        </>
      ) : null}
      {node.type === "handoff" ? (
        <>
          <Field id={fid("department_id")} label={label("department_id")}>
            <NativeSelect id={fid("department_id")} value={str(d.department_id)} onChange={(e) => set("department_id", e.target.value)}>
              <NativeSelectOption value="">{t("panel.anyDepartment")}</NativeSelectOption>
              {departments.map((x) => (
                <NativeSelectOption key={x.id} value={x.id}>
                  {x.name}
                </NativeSelectOption>
              ))}
              {d.department_id && !departments.some((x) => x.id === d.department_id) ? (
                <NativeSelectOption value={str(d.department_id)}>{t("panel.unknownDepartment", { id: str(d.department_id) })}</NativeSelectOption>
              ) : null}
            </NativeSelect>
          </Field>
          {textField("message", true, true)}
        </>
      ) : null}
      {node.type === "end" ? textField("message", true, true) : null}

      {outputs.length ? (
        <fieldset className="space-y-2 border-t pt-3">
          <legend className="text-xs font-medium">{t("panel.connections")}</legend>
          {outputs.map((o) => {
            const edge = edges.find((e) => e.source === node.id && e.output === o);
            return (
              <Field key={o} id={fid(`out-${o}`)} label={t("panel.goesTo", { output: t(`outputs.${o}`, { defaultValue: o }) })}>
                <NativeSelect id={fid(`out-${o}`)} value={edge?.target ?? ""} onChange={(e) => onConnect(node.id, o, e.target.value || null)}>
                  <NativeSelectOption value="">{t("panel.nowhere")}</NativeSelectOption>
                  {nodes
                    .filter((n) => n.type !== "start")
                    .map((n) => (
                      <NativeSelectOption key={n.id} value={n.id}>
                        {`${n.id} (${t(`nodes.${n.type}`, { defaultValue: n.type })})`}
                      </NativeSelectOption>
                    ))}
                </NativeSelect>
              </Field>
            );
          })}
        </fieldset>
      ) : null}
    </div>
  );
}
