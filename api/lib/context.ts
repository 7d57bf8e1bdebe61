import type { Transaction } from "sequelize";
import type { AccountType, Locale, PlanPermission, Role } from "../../models/constants";

/** Who acts, in which account, with which plans. Built once per request by `loadActor`. */
export type Actor = {
  userId: string;
  email: string;
  accountId: string;
  role: Role;
  isAgent: boolean;
  accountType: AccountType;
  services: string[];
  permissions: Partial<Record<PlanPermission, boolean>>;
  /** The account is suspended for an unpaid invoice (ADR 044): set only where loadActor was asked to let it in (billing only). */
  suspended?: boolean;
};

/** What every use-case receives: the actor (when signed in), request facts, a transaction if any. */
export type Ctx = {
  actor?: Actor;
  ip?: string | null;
  userAgent?: string | null;
  locale?: Locale;
  transaction?: Transaction;
  /**
   * The web session the request came with, or an API caller's token family (the refresh row
   * its access token names): the one a password or 2FA change keeps signed in.
   */
  sessionId?: string;
};

export type SignedInCtx = Ctx & { actor: Actor };

/**
 * Who a message of the pipeline is written for, where no route is asked (the route that calls
 * the writer checked its permission): a signed-in actor, or the account's flow bot
 * (api/flows/runtime.ts `botSender`: no user, `userId` null, so its audit entry names nobody).
 * Narrower than SignedInCtx on purpose: no role, so no permission check can take it.
 */
export type SenderCtx = Omit<Ctx, "actor"> & { actor: Pick<Actor, "accountId"> & { userId: string | null } };
