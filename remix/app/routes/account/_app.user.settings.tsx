/**
 * /user/settings: the signed-in person's own settings — profile, password, language, two-factor
 * sign-in and recent sign-in events. Sections are stacked (reachable without JavaScript through
 * the in-page links); every form posts here with an `intent`, except the language (POST /locale).
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { useActionData, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { changePasswordSchema, totpCodeSchema } from "~api/auth/schemas";
import { beginTotpEnrolment, confirmTotpEnrolment, disableTotp, totpEnrolmentView } from "~api/auth/totp";
import { disableTotpSchema, profileSchema } from "~api/users/schemas";
import { changePassword, getProfile, listSignInEvents, updateProfile } from "~api/users/services";
import { FormErrors } from "~/components/forms/fields";
import { LanguageForm } from "~/components/settings/language-form";
import { PasswordForm } from "~/components/settings/password-form";
import { ProfileForm } from "~/components/settings/profile-form";
import { SignInEvents } from "~/components/settings/sign-in-events";
import { TwoFactorSection } from "~/components/settings/two-factor";
import { PageHeader } from "~/components/shell/page-header";
import { requireRoute } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import type { Lng } from "~/lib/i18n";
import { commitSession, getSession } from "~/lib/session.server";
import type { ToastInput } from "~/lib/toast";
import { redirectWithToast } from "~/lib/toast.server";
import type { RootData } from "~/root";

export const handle = { crumb: "settings:user.title" };

const HERE = "/user/settings";

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const session = await getSession(request);
  const pending = session.get("totpEnrolment");
  const [profile, events] = await Promise.all([getProfile(ctx.actor.userId), listSignInEvents(ctx)]);
  const enrolment = !profile.twoFactor && pending ? await totpEnrolmentView(ctx.actor.userId, pending).catch(() => null) : null;
  return json({ profile, events, enrolment }, { headers: { "Cache-Control": "no-store" } });
}

/** Change the pending 2FA enrolment in the session (and optionally flash a toast) in one commit. */
async function redirectUpdatingEnrolment(request: Request, secret: string | null, toast?: ToastInput) {
  const session = await getSession(request);
  if (secret) session.set("totpEnrolment", secret);
  else session.unset("totpEnrolment");
  if (toast) session.flash("toast", toast);
  return redirect(`${HERE}#two-factor`, { headers: { "Set-Cookie": await commitSession(session) } });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const intent = (await request.clone().formData()).get("intent");
  const userId = ctx.actor.userId;
  switch (intent) {
    case "profile":
      return handleForm(request, profileSchema, async (value) => {
        await updateProfile(ctx, value);
        return redirectWithToast(request, HERE, { type: "success", title: "settings:profile.saved" });
      });
    case "password":
      return handleForm(request, changePasswordSchema, async (value) => {
        await changePassword(ctx, value);
        return redirectWithToast(request, HERE, { type: "success", title: "settings:password.saved" });
      });
    case "totp-begin":
      return handleForm(request, null, async () => {
        const { secret } = await beginTotpEnrolment(userId);
        return redirectUpdatingEnrolment(request, secret);
      });
    case "totp-confirm":
      return handleForm(request, totpCodeSchema, async (value) => {
        const secret = (await getSession(request)).get("totpEnrolment");
        if (!secret) return redirect(`${HERE}#two-factor`);
        await confirmTotpEnrolment(ctx, userId, secret, value);
        return redirectUpdatingEnrolment(request, null, { type: "success", title: "settings:twoFactor.enabled" });
      });
    case "totp-cancel":
      return handleForm(request, null, async () => redirectUpdatingEnrolment(request, null));
    case "totp-disable":
      return handleForm(request, disableTotpSchema, async (value) => {
        await disableTotp(ctx, userId, value.currentPassword);
        return redirectWithToast(request, HERE, { type: "success", title: "settings:twoFactor.disabled" });
      });
    default:
      throw new Response("Bad Request", { status: 400 });
  }
}

export type ActionReply = FormReply & { params?: Record<string, unknown> };

/** The action's reply belongs to the form whose `intent` was posted. */
function replyFor(last: ActionReply | undefined, intent: string) {
  const submitted = (last?.result?.initialValue as Record<string, unknown> | undefined)?.intent;
  return submitted === intent ? last : undefined;
}

const SECTIONS = ["profile", "password", "language", "two-factor", "sign-ins"] as const;

export default function UserSettings() {
  const { profile, events, enrolment } = useLoaderData<typeof loader>();
  const root = useRouteLoaderData<RootData>("root");
  const lng = (root?.lng ?? "pt-BR") as Lng;
  const last = useActionData<ActionReply>();
  const { t } = useTranslation("settings");
  const orphan = last && !(last.result.initialValue as Record<string, unknown> | undefined)?.intent ? last : undefined;
  return (
    <div className="space-y-6">
      <PageHeader description={t("user.description", { email: profile.email })} />
      {/* Replies of forms without fields (start or cancel 2FA enrolment), e.g. an expired form. */}
      <FormErrors errors={orphan?.result.error?.[""]} />
      <nav aria-label={t("user.sections")} className="flex flex-wrap gap-2 text-sm">
        {SECTIONS.map((s) => (
          <a key={s} href={`#${s}`} className="rounded-md border px-3 py-1.5 hover:bg-accent">
            {t(`user.nav.${s}`)}
          </a>
        ))}
      </nav>
      <div className="grid max-w-3xl grid-cols-1 gap-6">
        <ProfileForm profile={profile} last={replyFor(last, "profile")} />
        <PasswordForm hasPassword={profile.hasPassword} last={replyFor(last, "password")} />
        <LanguageForm current={lng} />
        <TwoFactorSection
          enabled={profile.twoFactor}
          hasPassword={profile.hasPassword}
          enrolment={enrolment}
          confirmReply={replyFor(last, "totp-confirm")}
          disableReply={replyFor(last, "totp-disable")}
        />
        <SignInEvents events={events} lng={lng} />
      </div>
    </div>
  );
}
