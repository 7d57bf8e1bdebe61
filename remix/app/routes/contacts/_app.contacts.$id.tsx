/**
 * /contacts/{id}: edit every field of a contact; beside it its groups, its activity across
 * channels and, for owner and admin, the LGPD export (JSON, CSV) and erasure.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { contactSchema } from "~api/contacts/schemas";
import { contactActivity, eraseContact, getContact, groupOptions, isPrivileged, updateContact } from "~api/contacts/services";
import { z } from "~api/lib/zod";
import { ActivityCard } from "~/components/contacts/activity-card";
import { ContactForm } from "~/components/contacts/contact-form";
import { contactPayload } from "~/lib/contact-form.server";
import { ContactGroupsCard } from "~/components/contacts/contact-groups-card";
import { LgpdCard } from "~/components/contacts/lgpd-card";
import { LinkedDeals } from "~/components/pipelines/linked-deals";
import { PageHeader } from "~/components/shell/page-header";
import { Card, CardContent } from "~/components/ui/card";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { formatDate } from "~/lib/format";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { linkedDealsPanel } from "~/lib/pipeline-links.server";
import { redirectWithToast } from "~/lib/toast.server";
import type { RootData } from "~/root";

export const handle = {
  crumb: (data: unknown) => {
    const c = (data as { contact?: { name: string } } | undefined)?.contact;
    return c?.name ? { key: "contacts:detail.title", params: { name: c.name } } : "contacts:detail.fallbackTitle";
  },
};

const eraseSchema = z.object({ intent: z.literal("erase") });

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const id = params.id ?? "";
  const [contact, activity, groups] = await Promise.all([orHttpError(getContact(ctx, id)), orHttpError(contactActivity(ctx, id)), orHttpError(groupOptions(ctx))]);
  // The contact's deals on workflow boards, and "create deal" (issue 22), for who may use boards.
  const deals = await linkedDealsPanel(ctx, { contactId: contact.id });
  return json({ contact, activity, groups, privileged: isPrivileged(ctx), deals });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const id = params.id ?? "";
  // Another account's contact (or none) is not found, whatever the intent.
  await orHttpError(getContact(ctx, id));
  const intent = (await request.clone().formData()).get("intent");
  if (intent === "erase") {
    return handleForm(request, eraseSchema, async () => {
      await eraseContact(ctx, id);
      return redirectWithToast(request, "/contacts", { type: "success", title: "contacts:lgpd.erased" });
    });
  }
  return handleForm(request, contactSchema, async (_, formData) => {
    await updateContact(ctx, id, contactPayload(formData));
    return redirectWithToast(request, `/contacts/${id}`, { type: "success", title: "contacts:detail.saved" });
  });
}

export default function ContactDetail() {
  const { contact, activity, groups, privileged, deals } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const lng = useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR";
  const { t } = useTranslation(["contacts", "common"]);
  const lastIntent = (last?.result.initialValue as Record<string, unknown> | undefined)?.intent;
  return (
    <div className="space-y-6">
      <PageHeader description={t("detail.description", { created: formatDate(contact.created_at, lng, true), updated: formatDate(contact.updated_at, lng, true) })} />
      <div className="grid grid-cols-1 items-start gap-6 xl:grid-cols-[minmax(0,1fr)_22rem]">
        <Card>
          <CardContent>
            <ContactForm
              formId={`contact-${contact.id}`}
              lastResult={lastIntent === "erase" ? undefined : last?.result}
              defaultValue={{
                first_name: contact.first_name ?? "",
                last_name: contact.last_name ?? "",
                birth_date: contact.birth_date ?? "",
                mobile_number: contact.mobile_formatted,
                phone: contact.phone_formatted,
                email: contact.email ?? "",
                gender: (contact.gender ?? "") as "",
                company: contact.company ?? "",
                website: contact.website ?? "",
                address: contact.address ?? "",
                number: contact.number ?? "",
                complement: contact.complement ?? "",
                district: contact.district ?? "",
                zip: contact.zip ?? "",
                city: contact.city ?? "",
                state: contact.state ?? "",
                country: contact.country ?? "",
                description: contact.description ?? "",
                tags: contact.tags.join(", "),
              }}
              groups={groups}
              selectedGroups={contact.groups.map((g) => g.id)}
              customFields={contact.custom}
              canSeeSensitive={privileged}
              busy={busy}
              submitLabel={t("detail.submit")}
              cancelHref="/contacts"
            />
          </CardContent>
        </Card>
        <div className="space-y-6">
          <ContactGroupsCard groups={contact.groups} />
          {deals ? (
            <Card>
              <CardContent>
                <LinkedDeals panel={deals} contactId={contact.id} />
              </CardContent>
            </Card>
          ) : null}
          <ActivityCard activity={activity} />
          {privileged ? <LgpdCard contactId={contact.id} name={contact.name} busy={busy} errors={lastIntent === "erase" ? last?.result.error?.[""] : undefined} /> : null}
        </div>
      </div>
    </div>
  );
}
