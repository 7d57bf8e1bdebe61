/**
 * /live/configs/system: queue mode and acceptance (live.queued_enabled, live.acceptance_option),
 * default capacity, required tabulation, idle minutes; and a table of the account's agents with
 * their capacity and the departments they serve. Writers edit; others read. No JavaScript needed.
 */
import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { z } from "~api/lib/zod";
import { departmentOptions, isLiveWriter } from "~api/live/access";
import { agentSettingsSchema, systemSettingsSchema } from "~api/live/schemas";
import { ACCEPTANCE_OPTIONS } from "~api/live/constants";
import { getSystemSettings, listAgentConfigs, updateAgentConfig, updateSystemSettings } from "~api/live/settings";
import { CheckboxField, SelectField } from "~/components/forms/controls";
import { CsrfInput, ErrorText, FormErrors, TextField } from "~/components/forms/fields";
import { EmptyRow, useReplyFor } from "~/components/live/parts";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { handleForm } from "~/lib/forms.server";
import { redirectWithToast } from "~/lib/toast.server";
import { useLazyValidate } from "~/lib/lazy-validate";

export const handle = { crumb: "live:system.title" };

const agentFormSchema = agentSettingsSchema.extend({ intent: z.literal("agent"), id: z.string().min(1, "validation.required") });

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const settings = await orHttpError(getSystemSettings(ctx));
  const canEdit = isLiveWriter(ctx);
  return json({ settings, canEdit, agents: canEdit ? await listAgentConfigs(ctx) : [], departments: await departmentOptions(ctx) });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const intent = (await request.clone().formData()).get("intent");
  if (intent === "agent") {
    return handleForm(request, agentFormSchema, async (v) => {
      const a = await updateAgentConfig(ctx, v.id, v);
      return redirectWithToast(request, "/live/configs/system", { type: "success", title: "live:agents.saved", params: { name: a.name || a.email } });
    });
  }
  return handleForm(request, systemSettingsSchema, async (v) => {
    await updateSystemSettings(ctx, v);
    return redirectWithToast(request, "/live/configs/system", { type: "success", title: "live:system.saved" });
  });
}

export default function LiveSystem() {
  const { settings, canEdit, agents, departments } = useLoaderData<typeof loader>();
  const { t } = useTranslation(["live", "common"]);
  const busy = useNavigation().state === "submitting";
  const reply = useReplyFor();
  const [form, fields] = useForm({
    id: "live-system",
    lastResult: reply.of("system"),
    defaultValue: {
      queued_enabled: settings.queued_enabled ? "on" : undefined,
      acceptance_option: settings.acceptance_option,
      default_capacity: String(settings.default_capacity),
      tabulation_required: settings.tabulation_required ? "on" : undefined,
      idle_minutes: String(settings.idle_minutes),
    },
    onValidate: useLazyValidate(() => import("~api/live/schemas").then((m) => m.systemSettingsSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <div className="space-y-6">
      <PageHeader description={t("system.description")} />
      <Card className="max-w-2xl">
        <CardContent>
          <Form method="post" {...getFormProps(form)} className="space-y-4">
            <CsrfInput />
            <input type="hidden" name="intent" value="system" />
            <FormErrors errors={form.errors} />
            <fieldset disabled={!canEdit} className="space-y-4">
              <CheckboxField field={fields.queued_enabled as never} label={t("system.queued_enabled")} description={t("system.queuedHint")} />
              <SelectField
                field={fields.acceptance_option}
                label={t("system.acceptance_option")}
                options={ACCEPTANCE_OPTIONS.map((o) => ({ value: o, label: t(`system.acceptance.${o}`) }))}
              />
              <TextField field={fields.default_capacity as never} label={t("system.default_capacity")} type="number" />
              <CheckboxField field={fields.tabulation_required as never} label={t("system.tabulation_required")} />
              <TextField field={fields.idle_minutes as never} label={t("system.idle_minutes")} type="number" />
            </fieldset>
            {canEdit ? (
              <Button type="submit" disabled={busy}>
                {t("system.submit")}
              </Button>
            ) : (
              <p className="text-sm text-muted-foreground">{t("system.readOnly")}</p>
            )}
          </Form>
        </CardContent>
      </Card>
      {canEdit ? (
        <Card>
          <CardHeader>
            <CardTitle>{t("agents.title")}</CardTitle>
            <CardDescription>{t("agents.description")}</CardDescription>
          </CardHeader>
          <CardContent>
            {agents.length === 0 ? (
              <EmptyRow>{t("agents.empty")}</EmptyRow>
            ) : (
              <Table data-testid="live-agents">
                <TableHeader>
                  <TableRow>
                    <TableHead>{t("agents.name")}</TableHead>
                    <TableHead>{t("agents.capacity")}</TableHead>
                    <TableHead>{t("agents.departments")}</TableHead>
                    <TableHead>
                      <span className="sr-only">{t("agents.submit")}</span>
                    </TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {agents.map((a) => {
                    const formId = `agent-${a.user_id}`;
                    const name = a.name || a.email;
                    return (
                      <TableRow key={a.user_id} data-agent-id={a.user_id}>
                        <TableCell className="align-top">
                          <p className="font-medium">{name}</p>
                          <p className="text-xs text-muted-foreground">{a.email}</p>
                          <Form method="post" id={formId}>
                            <CsrfInput />
                            <input type="hidden" name="intent" value="agent" />
                            <input type="hidden" name="id" value={a.user_id} />
                          </Form>
                        </TableCell>
                        <TableCell className="align-top">
                          <Input
                            form={formId}
                            name="capacity"
                            type="number"
                            min={1}
                            max={100}
                            defaultValue={a.capacity ?? ""}
                            placeholder={t("agents.capacityDefault", { n: settings.default_capacity })}
                            aria-label={t("agents.capacityLabel", { name })}
                            className="h-8 w-32"
                          />
                        </TableCell>
                        <TableCell className="align-top">
                          {departments.length === 0 ? (
                            <span className="text-sm text-muted-foreground">{t("agents.noDepartments")}</span>
                          ) : (
                            <ul className="space-y-1">
                              {departments.map((d) => {
                                const own = d.id === a.membership_department_id;
                                return (
                                  <li key={d.id}>
                                    <label className="flex items-center gap-2 text-sm">
                                      <input
                                        form={formId}
                                        type="checkbox"
                                        name="department_ids"
                                        value={d.id}
                                        defaultChecked={own || a.department_ids.includes(d.id)}
                                        disabled={own}
                                        className="size-4 accent-primary"
                                      />
                                      {own ? t("agents.ownDepartment", { name: d.name }) : d.name}
                                    </label>
                                  </li>
                                );
                              })}
                            </ul>
                          )}
                          <ErrorText errors={reply.errorsOf("agent", a.user_id)} />
                        </TableCell>
                        <TableCell className="text-right align-top">
                          <Button form={formId} type="submit" size="sm" variant="outline" disabled={busy} aria-label={t("agents.submitLabel", { name })}>
                            {t("agents.submit")}
                          </Button>
                        </TableCell>
                      </TableRow>
                    );
                  })}
                </TableBody>
              </Table>
            )}
          </CardContent>
        </Card>
      ) : null}
    </div>
  );
}
