/**
 * /rcs/templates/edit?id=…: an RCS template's name and content (components/rcs-agents/
 * template-editor.tsx), the groups it is in (put in, take out) and its delete behind a
 * confirmation. Works without JavaScript.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "~api/lib/zod";
import { contentToForm, templateFormSchema } from "~api/rcs/template-form";
import { attachTemplate, deleteTemplates, detachTemplate, getTemplate, listGroups, updateTemplate } from "~api/rcs/templates";
import { ConfirmDelete } from "~/components/forms/confirm-delete";
import { IntentForm } from "~/components/forms/intent-form";
import { TemplateEditor } from "~/components/rcs-agents/template-editor";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { deleteIntentSchema, handleForm, type FormReply } from "~/lib/forms.server";
import { useTranslation } from "~/lib/react-i18n";
import { redirectWithToast } from "~/lib/toast.server";

export const handle = { crumb: "rcs:templates.edit.title" };

const groupSchema = z.object({ intent: z.enum(["attach", "detach"]), group_id: z.string().min(1, "validation.required") });

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const id = new URL(request.url).searchParams.get("id") ?? "";
  if (!id) throw redirect("/rcs/templates");
  const [{ data }, groups] = await Promise.all([orHttpError(getTemplate(ctx, id)), orHttpError(listGroups(ctx))]);
  return json({ template: data, values: { name: data.name, ...contentToForm(data.content) }, groups: groups.data.map((g) => ({ id: g.id, name: g.name })) });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const id = new URL(request.url).searchParams.get("id") ?? "";
  const path = `/rcs/templates/edit?id=${encodeURIComponent(id)}`;
  const intent = (await request.clone().formData()).get("intent");
  if (intent === "delete") {
    return handleForm(request, deleteIntentSchema, async ({ id: templateId }) => {
      const r = await deleteTemplates(ctx, { ids: [templateId] });
      if (r.deleted === 0) throw new Response("Not Found", { status: 404 });
      return redirectWithToast(request, "/rcs/templates", { type: "success", title: "rcs:templates.list.deleted", params: { count: 1 } });
    });
  }
  if (intent === "attach" || intent === "detach") {
    return handleForm(request, groupSchema, async ({ intent: i, group_id }) => {
      if (i === "attach") await attachTemplate(ctx, group_id, id);
      else await detachTemplate(ctx, group_id, id);
      return redirectWithToast(request, path, { type: "success", title: i === "attach" ? "rcs:templates.groups.attached" : "rcs:templates.groups.detached" });
    });
  }
  return handleForm(request, templateFormSchema, async ({ name, content }) => {
    const { data } = await updateTemplate(ctx, { id, name, content });
    return redirectWithToast(request, path, { type: "success", title: "rcs:templates.edit.saved", params: { name: data.name } });
  });
}

export default function RcsTemplateEdit() {
  const { template, values, groups } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation("rcs");
  const sent = last?.result.initialValue as { intent?: string } | undefined;
  const inGroups = groups.filter((g) => template.group_ids.includes(g.id));
  const outGroups = groups.filter((g) => !template.group_ids.includes(g.id));
  return (
    <div className="space-y-6">
      <PageHeader description={t("templates.edit.description")} />
      <Card>
        <CardContent className="pt-6">
          <TemplateEditor
            key={template.updated_at}
            values={values}
            lastResult={sent?.intent === "save" ? last?.result : undefined}
            busy={busy}
            submit={t("templates.edit.submit")}
            id={template.id}
          />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>
            <h2>{t("templates.groups.title")}</h2>
          </CardTitle>
          <CardDescription>{t("templates.groups.templateIntro")}</CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          {inGroups.length === 0 ? <p className="text-sm text-muted-foreground">{t("templates.groups.none")}</p> : null}
          <ul className="space-y-2">
            {inGroups.map((g) => (
              <li key={g.id} className="flex flex-wrap items-center gap-2" data-group-id={g.id}>
                <span className="font-medium">{g.name}</span>
                <IntentForm intent="detach" values={{ group_id: g.id }}>
                  <Button type="submit" size="sm" variant="outline" aria-label={t("templates.groups.detachLabel", { name: g.name })}>
                    {t("templates.groups.detach")}
                  </Button>
                </IntentForm>
              </li>
            ))}
          </ul>
          {outGroups.length ? (
            <IntentForm intent="attach" className="flex flex-wrap items-end gap-2">
              <div className="grid gap-1">
                <Label htmlFor="rcs-attach-group">{t("templates.groups.attachTo")}</Label>
                <NativeSelect id="rcs-attach-group" name="group_id">
                  {outGroups.map((g) => (
                    <NativeSelectOption key={g.id} value={g.id}>
                      {g.name}
                    </NativeSelectOption>
                  ))}
                </NativeSelect>
              </div>
              <Button type="submit" size="sm">
                {t("templates.groups.attach")}
              </Button>
            </IntentForm>
          ) : null}
        </CardContent>
      </Card>
      <ConfirmDelete
        id={template.id}
        summary={t("templates.delete.summary")}
        label={t("templates.delete.label", { name: template.name })}
        body={t("templates.delete.body", { name: template.name })}
        confirm={t("templates.delete.confirm")}
      />
    </div>
  );
}
