/**
 * remix-auth: the e-mail + password form strategy, and the OAuth2 strategy for Google and
 * Facebook (enabled only when configured). Every strategy ends in a use-case and answers who
 * signed in and whether the second factor is still owed.
 */
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { OAuth2Strategy } from "remix-auth-oauth2";
import { login } from "../../../api/auth/login";
import { oauthSignIn, type OAuthProfile, type OAuthProvider } from "../../../api/auth/oauth";
import { env } from "../../../api/lib/env";
import type { User } from "../../../models";
import { requestCtx } from "./auth.server";
import { i18next } from "./i18n.server";

async function profileOf(provider: OAuthProvider, accessToken: string): Promise<OAuthProfile> {
  const e = env();
  const res = await fetch(provider === "google" ? e.GOOGLE_USERINFO_URL : e.FACEBOOK_USERINFO_URL, { headers: { Authorization: `Bearer ${accessToken}` } });
  if (!res.ok) throw new Error(`${provider} profile request failed: ${res.status}`);
  const p = (await res.json()) as Record<string, unknown>;
  return provider === "google"
    ? { id: String(p.sub ?? ""), email: p.email as string, emailVerified: p.email_verified !== false, firstName: p.given_name as string, lastName: p.family_name as string }
    : { id: String(p.id ?? ""), email: p.email as string, emailVerified: true, firstName: p.first_name as string, lastName: p.last_name as string };
}

export type SignIn = { user: User; twoFactorRequired: boolean };

let instance: Authenticator<SignIn> | undefined;

export function oauthEnabled(provider: OAuthProvider) {
  const e = env();
  return provider === "google" ? Boolean(e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET) : Boolean(e.FACEBOOK_CLIENT_ID && e.FACEBOOK_CLIENT_SECRET);
}

export function authenticator() {
  if (instance) return instance;
  const e = env();
  const authenticator = (instance = new Authenticator<SignIn>());
  authenticator.use(
    new FormStrategy(({ form, request }) => login(requestCtx(request), { email: form.get("email"), password: form.get("password") })),
    "form",
  );
  const strategy = (provider: OAuthProvider, clientId: string, clientSecret: string, authorizationEndpoint: string, tokenEndpoint: string, scopes: string[]) =>
    new OAuth2Strategy<SignIn>(
      {
        cookie: { name: `oauth2-${provider}`, httpOnly: true, sameSite: "Lax", ...(e.NODE_ENV === "production" ? { secure: true as const } : {}), path: "/" },
        clientId,
        clientSecret,
        authorizationEndpoint,
        tokenEndpoint,
        redirectURI: new URL(`/callback/${provider}`, e.APP_URL).toString(),
        scopes,
      },
      async ({ request, tokens }) => {
        const profile = await profileOf(provider, tokens.accessToken());
        const user = await oauthSignIn(requestCtx(request), provider, profile, (await i18next.getLocale(request)) as never);
        return { user, twoFactorRequired: Boolean(user.totpEnabledAt) };
      },
    );
  if (oauthEnabled("google")) authenticator.use(strategy("google", e.GOOGLE_CLIENT_ID!, e.GOOGLE_CLIENT_SECRET!, e.GOOGLE_AUTH_URL, e.GOOGLE_TOKEN_URL, ["openid", "email", "profile"]), "google");
  if (oauthEnabled("facebook")) authenticator.use(strategy("facebook", e.FACEBOOK_CLIENT_ID!, e.FACEBOOK_CLIENT_SECRET!, e.FACEBOOK_AUTH_URL, e.FACEBOOK_TOKEN_URL, ["email", "public_profile"]), "facebook");
  return authenticator;
}
