/**
 * Sign-in with Google or Facebook. The provider proves the e-mail, so: an account linked to the
 * provider id signs in; else a person with the same e-mail gets linked; else a new person and
 * company are created (verified, owner), like a registration without password.
 */
import { Account, Membership, User, sequelize, type Locale } from "../../models";
import { recordAudit } from "../audit/record";
import type { Ctx } from "../lib/context";
import { randomToken } from "../lib/crypto";
import { env } from "../lib/env";
import { AppError } from "../lib/errors";
import { outboundFetch } from "../lib/outbound";
import { foundingAgentSeat } from "../seats/seats";

export type OAuthProvider = "google" | "facebook";
export type OAuthProfile = { id: string; email?: string | null; emailVerified?: boolean; firstName?: string | null; lastName?: string | null };

export async function oauthSignIn(ctx: Ctx, provider: OAuthProvider, profile: OAuthProfile, locale: Locale = "pt-BR") {
  if (!profile.id) throw new AppError("INVALID_CREDENTIALS");
  const idField = provider === "google" ? "googleId" : "facebookId";
  return sequelize().transaction(async (transaction) => {
    const linked = await User.findOne({ where: { [idField]: profile.id }, transaction });
    if (linked) {
      await linked.update({ lastLoginAt: new Date() }, { transaction });
      await recordAudit({ ...ctx, transaction }, "auth.oauth_login", { userId: linked.id, accountId: linked.currentAccountId, meta: { provider } });
      return linked;
    }
    const email = profile.email?.toLowerCase();
    if (!email || profile.emailVerified === false) throw new AppError("EMAIL_NOT_VERIFIED");
    let user = await User.findOne({ where: { email }, transaction });
    if (user) {
      // Pre-hijacking guard: whoever registered this address without ever proving the mailbox
      // loses the password they chose; the provider has just proven the mailbox belongs to this person.
      const unproven = !user.emailVerifiedAt;
      await user.update(
        { [idField]: profile.id, emailVerifiedAt: user.emailVerifiedAt ?? new Date(), lastLoginAt: new Date(), ...(unproven ? { passwordHash: null } : {}) },
        { transaction },
      );
    } else {
      user = await User.create(
        {
          email,
          firstName: profile.firstName || email.split("@")[0],
          lastName: profile.lastName ?? "",
          [idField]: profile.id,
          emailVerifiedAt: new Date(),
          locale,
          lastLoginAt: new Date(),
        },
        { transaction },
      );
      const account = await Account.create({ name: [profile.firstName, profile.lastName].filter(Boolean).join(" ") || email, authToken: randomToken(24) }, { transaction });
      const founder = await Membership.create({ accountId: account.id, userId: user.id, role: "owner", isAgent: true }, { transaction });
      // The founding owner attends: its agent seat is paid until the next month start (ADR 047).
      await foundingAgentSeat(founder.id, new Date(), transaction);
      await user.update({ currentAccountId: account.id }, { transaction });
    }
    await recordAudit({ ...ctx, transaction }, "auth.oauth_login", { userId: user.id, accountId: user.currentAccountId, meta: { provider } });
    return user;
  });
}

/** Who the provider says the access token belongs to (OpenID userinfo / Graph /me). */
export async function profileOf(provider: OAuthProvider, accessToken: string): Promise<OAuthProfile> {
  const e = env();
  // The guarded client (ADR 021); the userinfo URL is the platform's (env).
  const res = await outboundFetch(provider === "google" ? e.GOOGLE_USERINFO_URL : e.FACEBOOK_USERINFO_URL, {
    headers: { Authorization: `Bearer ${accessToken}` },
    timeoutMs: 10_000,
    maxBytes: 64 * 1024,
    trust: "platform",
  });
  if (res.status < 200 || res.status >= 300) throw new AppError("INVALID_CREDENTIALS");
  const p = ((): Record<string, unknown> => {
    try {
      return res.json() ?? {};
    } catch {
      return {};
    }
  })();
  return provider === "google"
    ? { id: String(p.sub ?? ""), email: p.email as string, emailVerified: p.email_verified !== false, firstName: p.given_name as string, lastName: p.family_name as string }
    : { id: String(p.id ?? ""), email: p.email as string, emailVerified: true, firstName: p.first_name as string, lastName: p.last_name as string };
}

export function oauthConfigured(provider: OAuthProvider) {
  const e = env();
  return provider === "google" ? Boolean(e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET) : Boolean(e.FACEBOOK_CLIENT_ID && e.FACEBOOK_CLIENT_SECRET);
}

/** API sign-in with a provider access token the integrator's app obtained (POST /auth/login/{provider}). */
export async function oauthSignInWithToken(ctx: Ctx, provider: OAuthProvider, accessToken: string) {
  if (!oauthConfigured(provider)) throw new AppError("NOT_FOUND");
  if (!accessToken || accessToken.length > 4096) throw new AppError("INVALID_CREDENTIALS");
  const user = await oauthSignIn(ctx, provider, await profileOf(provider, accessToken));
  return { user, twoFactorRequired: Boolean(user.totpEnabledAt) };
}
