/**
 * /mail/domains: the account's sending domains (issue 17). Register a domain; for each, its status
 * (pending, validated, failed), the four DNS records to publish (SPF, DKIM, DMARC, return path)
 * with what the last check found for each, "Check now" (real DNS look-ups, POST
 * /email/domains/validate/{id}) and remove. The worker rechecks on its own schedule. Plain forms:
 * works without JavaScript.
 */
import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { deleteEmailDomain, listEmailDomains, registerEmailDomain, validateEmailDomain } from "~api/email/domains";
import { z } from "~api/lib/zod";
import { DomainCard } from "~/components/email/domain-card";
import { CsrfInput, FormErrors, TextField } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import type { Lng } from "~/lib/i18n";
import { redirectWithToast } from "~/lib/toast.server";
import type { RootData } from "~/root";
import { registerDomainSchema } from "~/forms/email";
import { useLazyValidate } from "~/lib/lazy-validate";

export const handle = { crumb: "email:crumbs.domains" };
const PATH = "/mail/domains";
const idSchema = z.object({ intent: z.enum(["validate", "delete"]), id: z.string().min(1, "validation.required") });

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const { data } = await orHttpError(listEmailDomains(ctx, { limit: "200" }));
  return json({ domains: data }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const intent = (await request.clone().formData()).get("intent");
  if (intent === "validate" || intent === "delete") {
    return handleForm(request, idSchema, async ({ id }) => {
      if (intent === "delete") {
        await deleteEmailDomain(ctx, id);
        return redirectWithToast(request, PATH, { type: "success", title: "email:domains.deleted" });
      }
      const { data } = await validateEmailDomain(ctx, id);
      return redirectWithToast(
        request,
        `${PATH}#domain-${data.id}`,
        data.status === "validated"
          ? { type: "success", title: "email:domains.validated", params: { domain: data.domain } }
          : { type: "warning", title: "email:domains.notValidated", params: { domain: data.domain } },
      );
    });
  }
  return handleForm(request, registerDomainSchema, async ({ intent: _intent, ...input }) => {
    const { data } = await registerEmailDomain(ctx, input);
    return redirectWithToast(request, `${PATH}#domain-${data.id}`, { type: "success", title: "email:domains.registered", params: { domain: data.domain } });
  });
}

function RegisterForm({ lastResult, busy }: { lastResult?: FormReply["result"]; busy: boolean }) {
  const { t } = useTranslation("email");
  const [form, fields] = useForm({
    id: "email-domain-register",
    lastResult,
    onValidate: useLazyValidate(() => import("~/forms/email").then((m) => m.registerDomainSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4">
      <CsrfInput />
      <input type="hidden" name="intent" value="register" />
      <FormErrors errors={form.errors} />
      <TextField field={fields.domain} label={t("domains.register.domain")} description={t("domains.register.domainHint")} autoComplete="off" />
      <Button type="submit" className="w-full" disabled={busy}>
        {t("domains.register.submit")}
      </Button>
    </Form>
  );
}

export default function MailDomains() {
  const { domains } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation("email");
  const sent = last?.result.initialValue as { intent?: string; id?: string } | undefined;
  return (
    <div className="space-y-6">
      <PageHeader description={t("domains.description")} />
      <div className="grid grid-cols-1 items-start gap-6 xl:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="space-y-6">
          {domains.length === 0 ? (
            <Card>
              <CardContent>
                <p className="py-6 text-center text-sm text-muted-foreground">{t("domains.empty")}</p>
              </CardContent>
            </Card>
          ) : (
            domains.map((d) => <DomainCard key={d.id} domain={d} lng={lng} errors={sent?.id === d.id ? last?.result.error?.[""] : undefined} />)
          )}
        </div>
        <Card>
          <CardHeader>
            <h2 className="leading-none font-semibold">{t("domains.register.title")}</h2>
            <CardDescription>{t("domains.register.description")}</CardDescription>
          </CardHeader>
          <CardContent>
            {/* A new domain remounts the form: its field starts empty again. */}
            <RegisterForm key={domains.map((d) => d.id).join(",")} lastResult={sent?.intent === "register" ? last?.result : undefined} busy={busy} />
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
