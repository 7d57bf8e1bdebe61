/**
 * Demo data, run on every `npm start`. Idempotent: everything is found-or-created by a natural key
 * (plan/account name, e-mail, whitelabel host...) inside one transaction, so a re-run creates nothing
 * and never overwrites what people changed (passwords included).
 */
import { newKey } from "../api/live/settings";
import type { CreationAttributes, Transaction } from "sequelize";
import { hashPassword } from "../api/auth/passwords";
import { randomToken } from "../api/lib/crypto";
import { Account, AccountPlan, Currency, Department, Membership, Notification, PLAN_PERMISSIONS, Plan, ROLES, User, Whitelabel, sequelize, type Role } from "../models";
import { buildCurrencies } from "./currencies";
import { ensurePlatformEmailLibrary } from "../api/email/libs";
import { dayStartSql, periodEndSql, renews } from "../api/plans/change";
import { nextMonthStartSql } from "../api/seats/seats";
import { checkFlow } from "../api/flows/definition";
import { flowTemplate } from "../api/flows/templates";
import { seedDemoPipelines } from "../api/pipelines/demo";
import { seedDemoRcs } from "../api/rcs/demo";

/** The one password of every demo user (passes the platform rule in api/auth/schemas.ts). */
export const DEMO_PASSWORD = "Demo!Mensa#2026";
export const RESELLER_HOST = "revenda.localhost";

const ALL_PERMISSIONS = Object.fromEntries(PLAN_PERMISSIONS.map((p) => [p, true]));
const DAY = 86_400_000;
const PEOPLE: Record<Role, [string, string, "male" | "female"]> = {
  owner: ["Ana", "Souza", "female"],
  admin: ["Bruno", "Lima", "male"],
  manager: ["Carla", "Mendes", "female"],
  agent: ["Diego", "Alves", "male"],
  analyst: ["Elisa", "Rocha", "female"],
  sales: ["Fábio", "Costa", "male"],
  security: ["Gabriela", "Nunes", "female"],
  developer: ["Henrique", "Dias", "male"],
  billing: ["Isabela", "Freitas", "female"],
  carrier: ["João", "Pereira", "male"],
};
const AGENT_ROLES = new Set<Role>(["owner", "admin", "manager", "agent"]);

export async function seed({ log }: { log: (s: string) => void }) {
  let created = 0;
  let hash: string | undefined; // argon2 is slow: hash once, only if a user is actually created
  const logins: [string, string, string][] = [];

  await sequelize().transaction(async (transaction: Transaction) => {
    const t = { transaction };
    const count = <M>([row, isNew]: [M, boolean]) => (isNew && created++, row);

    const currencies = buildCurrencies();
    await Currency.bulkCreate(currencies, { ...t, updateOnDuplicate: ["name", "namePlural", "symbol", "symbolNative", "decimalDigits", "rounding"] });

    const plan = (name: string, defaults: Omit<CreationAttributes<Plan>, "name">) => Plan.findOrCreate({ where: { name }, defaults: { name, ...defaults }, ...t }).then(count);
    const omni = await plan("Omni", { service: "omni", price: 29900, currency: "BRL", billingCycle: "monthly", permissions: ALL_PERMISSIONS });
    const sms = await plan("SMS", { service: "sms", price: 0, currency: "BRL", billingCycle: "prepaid", permissions: {} });
    // The rest of the catalogue (issue 18): a smaller live chat plan, WhatsApp, e-mail.
    await plan("Omni Essencial", {
      service: "omni",
      price: 14900,
      currency: "BRL",
      billingCycle: "monthly",
      permissions: { opening_hour: true, department: true, tab: true },
    });
    await plan("WhatsApp Business", { service: "whatsapp", price: 9900, currency: "BRL", billingCycle: "monthly", permissions: { whatsapp: true } });
    await plan("E-mail", { service: "email", price: 0, currency: "BRL", billingCycle: "prepaid", permissions: {} });
    const trial = await plan("Experiência", { service: "omni", price: 0, currency: "BRL", billingCycle: "monthly", isTrial: true, durationDays: 30, permissions: ALL_PERMISSIONS });

    /** An account (its balance row comes with it, by trigger); `balance` is its opening balance when it is new. */
    const account = async (name: string, { balance = 0, ...defaults }: Partial<CreationAttributes<Account>> & { balance?: number } = {}) => {
      const [row, isNew] = await Account.findOrCreate({ where: { name }, defaults: { name, authToken: randomToken(24), currency: "BRL", ...defaults }, ...t });
      if (isNew && balance) await sequelize().query(`UPDATE account_balances SET balance = $2 WHERE account_id = $1`, { bind: [row.id, balance], transaction });
      return count([row, isNew]);
    };

    const member = async (acc: Account, email: string, role: Role, person: [string, string, string?], departmentId: string | null = null) => {
      let user = await User.findOne({ where: { email }, ...t });
      if (!user) {
        hash ??= await hashPassword(DEMO_PASSWORD);
        const [firstName, lastName, gender] = person;
        user = await User.create(
          {
            email,
            firstName,
            lastName,
            gender: (gender as User["gender"]) ?? null,
            passwordHash: hash,
            emailVerifiedAt: new Date(),
            locale: "pt-BR",
            currentAccountId: acc.id,
          },
          t,
        );
        created++;
      } else if (!user.currentAccountId) {
        await user.update({ currentAccountId: acc.id }, t);
      }
      const membership = count(
        await Membership.findOrCreate({
          where: { accountId: acc.id, userId: user.id },
          defaults: { accountId: acc.id, userId: user.id, role, isAgent: AGENT_ROLES.has(role), departmentId },
          ...t,
        }),
      );
      // A seeded agent's seat is paid for the current São Paulo month (ADR 047).
      await sequelize().query(
        `UPDATE memberships SET charged_until = ${nextMonthStartSql("now()")}, agent_since = coalesce(agent_since, created_at) WHERE id = $1 AND is_agent AND charged_until IS NULL`,
        { bind: [membership.id], transaction },
      );
      logins.push([email, role, acc.name]);
    };
    /** The account holds plan `p`; one that renews starts its first period today (São Paulo), already paid. */
    const attach = async (acc: Account, p: Plan, endsAt: Date | null = null) => {
      const held = count(
        await AccountPlan.findOrCreate({ where: { accountId: acc.id, service: p.service }, defaults: { accountId: acc.id, planId: p.id, service: p.service, endsAt }, ...t }),
      );
      if (renews({ billing_cycle: p.billingCycle, price: p.price, is_trial: p.isTrial }) && !held.periodStart) {
        await sequelize().query(`UPDATE account_plans SET period_start = ${dayStartSql("now()")}, period_end = ${periodEndSql(dayStartSql("now()"), "$2::text")} WHERE id = $1`, {
          bind: [held.id, p.billingCycle],
          transaction,
        });
      }
      return held;
    };

    // Platform staff.
    const platform = await account("Mensageria Plataforma", { type: "platform" });
    await member(platform, "staff@demo.example", "owner", ["Paula", "Ribeiro", "female"]);

    // Reseller with its whitelabel, and one customer of the reseller.
    const reseller = await account("Revenda Azul", { type: "reseller" });
    const wl = count(
      await Whitelabel.findOrCreate({ where: { host: RESELLER_HOST }, defaults: { host: RESELLER_HOST, name: "Revenda Azul", color: "#1d4ed8", accountId: reseller.id }, ...t }),
    );
    await member(reseller, "reseller@demo.example", "owner", ["Rafael", "Azevedo", "male"]);
    const resold = await account("Cliente da Revenda", { type: "customer", parentAccountId: reseller.id, whitelabelId: wl.id });
    await member(resold, "cliente@revenda.example", "owner", ["Camila", "Barbosa", "female"]);

    // The demo tenant: one user per role.
    const demo = await account("Demo Comércio Ltda", {
      type: "customer",
      balance: 150000,
      creditLimit: 50000,
      timezone: "America/Sao_Paulo",
      street: "Avenida Paulista",
      number: "1578",
      complement: "Conjunto 42",
      district: "Bela Vista",
      city: "São Paulo",
      province: "SP",
      postalCode: "01310-200",
    });
    await attach(demo, omni);
    await attach(demo, sms);
    const dept: Record<string, Department> = {};
    for (const name of ["Vendas", "Suporte", "Financeiro"]) {
      dept[name] = count(await Department.findOrCreate({ where: { accountId: demo.id, name }, defaults: { accountId: demo.id, name, description: `Equipe de ${name}` }, ...t }));
    }
    // The demo tenant's own SMS price on route T1: R$ 0,07 per segment (the default is R$ 0,08).
    await sequelize().query(`INSERT INTO sms_prices (account_id, route, price_per_segment, currency) VALUES ($1, 'T1', 7, 'BRL') ON CONFLICT (account_id, route) DO NOTHING`, {
      bind: [demo.id],
      transaction,
    });
    // Short codes of the platform: two assigned to the demo tenant, one still unassigned.
    await sequelize().query(
      `INSERT INTO short_codes (account_id, number, nickname, deliverability) VALUES
         ($1, '29094', 'Avisos de pedido', '{Vivo,Claro,TIM,Oi}'),
         ($1, '28282', 'Promoções', '{Vivo,TIM}'),
         (NULL, '27000', '', '{Vivo,Claro,TIM}')
       ON CONFLICT (number) DO NOTHING`,
      { bind: [demo.id], transaction },
    );
    // Live chat ready to try: settings (a widget key for /live/simulator), tabulations, a canned
    // greeting for everyone and a closing macro.
    await sequelize().query(`INSERT INTO live_settings (account_id, widget_key) VALUES ($1, $2) ON CONFLICT (account_id) DO NOTHING;`, { bind: [demo.id, newKey()], transaction });
    await sequelize().query(
      `INSERT INTO live_tabulations (account_id, name) VALUES ($1, 'Resolvido'), ($1, 'Dúvida'), ($1, 'Reclamação')
       ON CONFLICT (account_id, lower(name)) DO NOTHING`,
      { bind: [demo.id], transaction },
    );
    await sequelize().query(
      `INSERT INTO live_samples (account_id, for_all, key, message)
       SELECT $1, true, 'ola', 'Olá! Sou da equipe Demo Comércio. Em que posso ajudar?'
       WHERE NOT EXISTS (SELECT 1 FROM live_samples WHERE account_id = $1 AND key = 'ola')`,
      { bind: [demo.id], transaction },
    );
    await sequelize().query(
      `INSERT INTO live_macros (account_id, name, message, tabulation_id, close)
       SELECT $1, 'Encerrar como resolvido', 'Que bom que resolvemos! Obrigado pelo contato.', t.id, true
       FROM live_tabulations t WHERE t.account_id = $1 AND t.name = 'Resolvido'
       ON CONFLICT (account_id, lower(name)) DO NOTHING`,
      { bind: [demo.id], transaction },
    );
    // A welcome flow answering the demo's webchat (issue 20): it greets, offers buttons, answers
    // "Horários" itself and hands off to a person when asked. Published once as version 1 and made
    // active, only when the account has no flow of that name (what people changed stays).
    const welcome = checkFlow(flowTemplate("welcome", "pt-BR"));
    if (!welcome.ok) throw new Error(`demo seed: the welcome template fails its check: ${JSON.stringify(welcome.issues)}`);
    const [[flow]] = (await sequelize().query(
      `INSERT INTO flows (account_id, name, channel, trigger, status, draft)
       SELECT $1, 'Boas-vindas', 'webchat', 'inbound', 'draft', $2::jsonb
       WHERE NOT EXISTS (SELECT 1 FROM flows WHERE account_id = $1 AND name = 'Boas-vindas') RETURNING id`,
      { bind: [demo.id, JSON.stringify(welcome.flow)], transaction },
    )) as [Array<{ id: string }>, unknown];
    if (flow) {
      await sequelize().query(`INSERT INTO flow_versions (flow_id, account_id, version, definition) VALUES ($1, $2, 1, $3::jsonb)`, {
        bind: [flow.id, demo.id, JSON.stringify(welcome.flow)],
        transaction,
      });
      // Active unless another flow already answers the webchat (the one-active-flow index would refuse it).
      await sequelize().query(
        `UPDATE flows SET published_version = 1, status = CASE WHEN EXISTS (
           SELECT 1 FROM flows o WHERE o.account_id = $2 AND o.channel = 'webchat' AND o.trigger = 'inbound' AND o.status = 'active') THEN 'inactive' ELSE 'active' END
         WHERE id = $1`,
        { bind: [flow.id, demo.id], transaction },
      );
      created++;
    }
    // RCS (issue 21): a launched agent, a card and a carousel template, the "horario" keyword.
    created += await seedDemoRcs(demo.id, transaction);
    const deptOf: Partial<Record<Role, string>> = { agent: dept.Suporte.id, sales: dept.Vendas.id, billing: dept.Financeiro.id };
    for (const role of ROLES) await member(demo, `${role}@demo.example`, role, PEOPLE[role], deptOf[role] ?? null);
    // Workflow boards (issue 22): the board "Vendas" with its columns and a few deals (after the people: they own the deals).
    created += await seedDemoPipelines(demo.id, transaction);

    // A trial customer.
    const trialAcc = await account("Loja Teste Grátis", { type: "customer" });
    await attach(trialAcc, trial, new Date(Date.now() + 30 * DAY));
    await member(trialAcc, "trial@demo.example", "owner", ["Lucas", "Martins", "male"]);

    if ((await Notification.count({ where: { accountId: demo.id }, ...t })) === 0) {
      const rows = await Notification.bulkCreate(
        [
          { accountId: demo.id, userId: null, kind: "welcome", params: {} },
          { accountId: demo.id, userId: null, kind: "balance_low", params: { balance: "R$ 1.500,00" } },
          { accountId: demo.id, userId: null, kind: "user_joined", params: { name: `${PEOPLE.agent[0]} ${PEOPLE.agent[1]}` } },
        ],
        t,
      );
      created += rows.length;
    }
    log(`demo seed: ${currencies.length} currencies upserted, ${created} new rows`);
  });

  // The platform's e-mail template library (every account reads it; ADR 037): added by name when missing.
  const libs = await ensurePlatformEmailLibrary();
  if (libs) log(`e-mail template library: ${libs} platform templates added`);

  const w = Math.max(...logins.map(([e]) => e.length));
  log(`demo logins (password for all: ${DEMO_PASSWORD})`);
  log(`  ${"e-mail".padEnd(w)}  ${"role".padEnd(9)}  account`);
  for (const [email, role, acc] of logins) log(`  ${email.padEnd(w)}  ${role.padEnd(9)}  ${acc}`);
  log(`reseller whitelabel: open http://${RESELLER_HOST}:3000 to see the whitelabel (Revenda Azul)`);
}
