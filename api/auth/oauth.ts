/**
 * Sign-in with Google or Facebook. The provider proves the e-mail, so: an account linked to the
 * provider id signs in; else a person with the same e-mail gets linked; else a new person and
 * company are created (verified, owner), like a registration without password.
 */
import { Account, Membership, User, initModels, sequelize, type Locale } from "../../models";
import { recordAudit } from "../audit/record";
import type { Ctx } from "../lib/context";
import { randomToken } from "../lib/crypto";
import { AppError } from "../lib/errors";

export type OAuthProvider = "google" | "facebook";
export type OAuthProfile = { id: string; email?: string | null; emailVerified?: boolean; firstName?: string | null; lastName?: string | null };

export async function oauthSignIn(ctx: Ctx, provider: OAuthProvider, profile: OAuthProfile, locale: Locale = "pt-BR") {
  initModels();
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
      await user.update({ [idField]: profile.id, emailVerifiedAt: user.emailVerifiedAt ?? new Date(), lastLoginAt: new Date() }, { transaction });
    } else {
      user = await User.create(
        { email, firstName: profile.firstName || email.split("@")[0], lastName: profile.lastName ?? "", [idField]: profile.id, emailVerifiedAt: new Date(), locale, lastLoginAt: new Date() },
        { transaction },
      );
      const account = await Account.create({ name: [profile.firstName, profile.lastName].filter(Boolean).join(" ") || email, authToken: randomToken(24) }, { transaction });
      await Membership.create({ accountId: account.id, userId: user.id, role: "owner", isAgent: true }, { transaction });
      await user.update({ currentAccountId: account.id }, { transaction });
    }
    await recordAudit({ ...ctx, transaction }, "auth.oauth_login", { userId: user.id, accountId: user.currentAccountId, meta: { provider } });
    return user;
  });
}
