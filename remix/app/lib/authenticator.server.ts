/**
 * remix-auth: the e-mail + password form strategy, and the OAuth2 strategy for Google and
 * Facebook (enabled only when configured). Every strategy ends in a use-case and answers who
 * signed in and whether the second factor is still owed.
 */
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { OAuth2Strategy } from "remix-auth-oauth2";
import { login } from "~api/auth/login";
import { oauthConfigured, oauthSignIn, profileOf, type OAuthProvider } from "~api/auth/oauth";
import { env } from "~api/lib/env";
import type { User } from "../../../models";
import { requestCtx } from "./auth.server";
import { i18next } from "./i18n.server";

export type SignIn = { user: User; twoFactorRequired: boolean };

let instance: Authenticator<SignIn> | undefined;

export const oauthEnabled = oauthConfigured;

/** Origins of the enabled providers' sign-in pages: POST /auth/{provider} redirects there (CSP form-action). */
export function oauthSignInOrigins(): string[] {
  const e = env();
  const urls = [oauthEnabled("google") ? e.GOOGLE_AUTH_URL : null, oauthEnabled("facebook") ? e.FACEBOOK_AUTH_URL : null];
  return [...new Set(urls.filter((u): u is string => u !== null).map((u) => new URL(u).origin))];
}

export function authenticator() {
  if (instance) return instance;
  const e = env();
  const authenticator = (instance = new Authenticator<SignIn>());
  authenticator.use(new FormStrategy(({ form, request }) => login(requestCtx(request), { email: form.get("email"), password: form.get("password") })), "form");
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
  if (oauthEnabled("google"))
    authenticator.use(strategy("google", e.GOOGLE_CLIENT_ID!, e.GOOGLE_CLIENT_SECRET!, e.GOOGLE_AUTH_URL, e.GOOGLE_TOKEN_URL, ["openid", "email", "profile"]), "google");
  if (oauthEnabled("facebook"))
    authenticator.use(strategy("facebook", e.FACEBOOK_CLIENT_ID!, e.FACEBOOK_CLIENT_SECRET!, e.FACEBOOK_AUTH_URL, e.FACEBOOK_TOKEN_URL, ["email", "public_profile"]), "facebook");
  return authenticator;
}
