/** /contacts/groups: the account's groups with member counts; create, rename and delete (members stay as contacts). */
import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { groupSchema } from "~api/contacts/schemas";
import { createGroup, deleteGroup, listGroups, updateGroup } from "~api/contacts/services";
import { z } from "~api/lib/zod";
import { GroupsTable } from "~/components/contacts/groups-table";
import { KeysetNav } from "~/components/contacts/keyset-nav";
import { CsrfInput, FormErrors, TextField } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader } from "~/components/ui/card";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { deleteIntentSchema, handleForm, type FormReply } from "~/lib/forms.server";
import { redirectWithToast } from "~/lib/toast.server";
import { useLazyValidate } from "~/lib/lazy-validate";

const renameSchema = groupSchema.extend({ intent: z.literal("rename"), id: z.string().min(1, "validation.required") });

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  // Keyset pages of 50 by name; the link carries the cursor as `after` (KeysetNav).
  const page = await orHttpError(listGroups(ctx, { cursor: new URL(request.url).searchParams.get("after") ?? undefined }));
  return json({ groups: page.data, next: page.next_cursor });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const intent = (await request.clone().formData()).get("intent");
  if (intent === "rename") {
    return handleForm(request, renameSchema, async ({ id, name, description }) => {
      await updateGroup(ctx, id, { name, description });
      return redirectWithToast(request, "/contacts/groups", { type: "success", title: "contacts:groups.rename.saved" });
    });
  }
  if (intent === "delete") {
    return handleForm(request, deleteIntentSchema, async ({ id }) => {
      const g = await deleteGroup(ctx, id);
      return redirectWithToast(request, "/contacts/groups", { type: "success", title: "contacts:groups.delete.deleted", params: { name: g.name } });
    });
  }
  return handleForm(request, groupSchema, async (value) => {
    const g = await createGroup(ctx, value);
    return redirectWithToast(request, "/contacts/groups", { type: "success", title: "contacts:groups.create.created", params: { name: g.name } });
  });
}

export default function ContactGroups() {
  const { groups, next } = useLoaderData<typeof loader>();
  const location = useLocation();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation(["contacts", "common"]);
  const sent = last?.result.initialValue as { intent?: string; id?: string } | undefined;
  const rowReply = sent?.intent === "rename" || sent?.intent === "delete" ? { id: sent.id, intent: sent.intent, result: last!.result } : undefined;
  const [form, fields] = useForm({
    id: "group-create",
    lastResult: rowReply ? undefined : last?.result,
    onValidate: useLazyValidate(() => import("~api/contacts/schemas").then((m) => m.groupSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <div className="space-y-6">
      <PageHeader description={t("groups.description")} />
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <Card>
          <CardContent>
            {groups.length === 0 ? <p className="py-8 text-center text-sm text-muted-foreground">{t("groups.empty")}</p> : <GroupsTable rows={groups} last={rowReply} />}
            <KeysetNav path="/contacts/groups" params={new URLSearchParams(location.search)} next={next} />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <h2 className="leading-none font-semibold">{t("groups.create.title")}</h2>
          </CardHeader>
          <CardContent>
            <Form method="post" {...getFormProps(form)} className="space-y-4">
              <CsrfInput />
              <input type="hidden" name="intent" value="create" />
              <FormErrors errors={form.errors} />
              <TextField field={fields.name} label={t("groups.name")} autoComplete="off" />
              <TextField field={fields.description} label={t("groups.descriptionLabel")} autoComplete="off" />
              <Button type="submit" className="w-full" disabled={busy}>
                {t("groups.create.submit")}
              </Button>
            </Form>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
