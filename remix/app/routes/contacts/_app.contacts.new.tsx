/** /contacts/new: create a contact; an existing mobile number merges into that contact instead of duplicating it. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { contactSchema } from "~api/contacts/schemas";
import { groupOptions, isPrivileged, listCustomFields, saveContact } from "~api/contacts/services";
import { ContactForm } from "~/components/contacts/contact-form";
import { contactPayload } from "~/lib/contact-form.server";
import { PageHeader } from "~/components/shell/page-header";
import { Card, CardContent } from "~/components/ui/card";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { redirectWithToast } from "~/lib/toast.server";

export const handle = { crumb: "contacts:new.title" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const [groups, fields] = await Promise.all([orHttpError(groupOptions(ctx)), orHttpError(listCustomFields(ctx))]);
  return json({ groups, fields, privileged: isPrivileged(ctx) });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  return handleForm(request, contactSchema, async (_, formData) => {
    const { id, inserted } = await saveContact(ctx, contactPayload(formData));
    return redirectWithToast(request, `/contacts/${id}`, { type: "success", title: inserted ? "contacts:new.created" : "contacts:new.merged" });
  });
}

export default function NewContact() {
  const { groups, fields, privileged } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation(["contacts", "common"]);
  return (
    <div className="space-y-6">
      <PageHeader description={t("new.description")} />
      <Card className="max-w-4xl">
        <CardContent>
          <ContactForm
            formId="contact-new"
            lastResult={last?.result}
            defaultValue={{}}
            groups={groups}
            selectedGroups={[]}
            customFields={fields}
            canSeeSensitive={privileged}
            busy={busy}
            submitLabel={t("new.submit")}
            cancelHref="/contacts"
          />
        </CardContent>
      </Card>
    </div>
  );
}
