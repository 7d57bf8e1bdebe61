/** The success answers of the e-mail routes (./routes), as TypeBox schemas for the OpenAPI document. A domain's private key is never answered. */
import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { Page } from "../lib/page-schema";

const nullable = <T extends Parameters<typeof t.Union>[0][number]>(s: T) => t.Union([s, t.Null()]);
const oneOf = (values: readonly string[], description?: string) => t.Union(values.map((v) => t.Literal(v)) as never, { description });

export const EmailDnsRecord = t.Object({
  purpose: oneOf(["spf", "dkim", "dmarc", "return_path"]),
  type: oneOf(["TXT", "CNAME"]),
  host: t.String({ description: "The name to publish the record at" }),
  value: t.String({ description: "What to publish (SPF: our include in the domain's one v=spf1 record; DMARC: any v=DMARC1 policy)" }),
  status: oneOf(["ok", "missing", "mismatch", "unreachable", "unchecked"], "At the last check: unreachable = DNS did not answer (the domain's status was kept)"),
  found: t.Array(t.String(), { description: "What DNS answered at the last check" }),
});
export const EmailDomain = t.Object({
  id: t.String({ format: "uuid" }),
  domain: t.String({ description: "ASCII (an internationalised name in its xn-- form)" }),
  status: oneOf(["pending", "validated", "failed"], "pending: never checked; validated: every record right at the last check; failed: some record missing or wrong"),
  records: t.Array(EmailDnsRecord),
  checked_at: nullable(t.String({ format: "date-time" })),
  validated_at: nullable(t.String({ format: "date-time" })),
  created_at: t.String({ format: "date-time" }),
});
export const EmailDomains = Page(EmailDomain, "Oldest first (created_at, id)");
export const EmailDomainOne = t.Object({ data: EmailDomain });
export const Deleted = t.Object({ deleted: Type.Integer() });

export const EmailAccepted = t.Object({
  data: t.Object({
    messages: t.Array(
      t.Object({
        id: t.String({ format: "uuid" }),
        to: t.String(),
        status: oneOf(["queued", "scheduled", "optout", "rejected"], "optout / rejected: the address opted out or is on the deny list; not sent, not charged"),
        price: Type.Integer({ description: "Minor units (centavos) of `currency`" }),
      }),
      { description: "One per distinct recipient, in the order given" },
    ),
    total_price: Type.Integer({ description: "Debited from the balance at accept" }),
    currency: t.String(),
    scheduled_at: nullable(t.String({ format: "date-time" })),
  }),
});

const when = nullable(t.String({ format: "date-time" }));
const emailMessageFields = {
  id: t.String({ format: "uuid" }),
  from: t.String(),
  to: t.String(),
  subject: t.String(),
  status: t.String({ description: "Spec section 4: queued, scheduled, sending, deferred, sent, delivered, opened, clicked, bounced, dropped, blocked, optout, rejected, failed" }),
  price: Type.Integer(),
  currency: t.String(),
  error_code: nullable(t.String()),
  error_message: nullable(t.String()),
  created_at: t.String({ format: "date-time" }),
  scheduled_at: when,
  sent_at: when,
  delivered_at: when,
  opened_at: when,
  failed_at: when,
};
export const EmailMessage = t.Object(emailMessageFields);
export const EmailMessages = Page(EmailMessage, "Newest first (created_at, id); order=asc oldest first");
export const EmailMessageOne = t.Object({
  data: t.Object({
    ...emailMessageFields,
    text: t.String(),
    html: nullable(t.String()),
    opens: Type.Integer(),
    clicks: Type.Integer(),
    events: t.Array(
      t.Object({
        status: t.String(),
        source: oneOf(["provider", "system"]),
        created_at: t.String({ format: "date-time" }),
        error_code: nullable(t.String()),
        error_message: nullable(t.String()),
      }),
    ),
  }),
});

const templateFields = {
  id: t.String({ format: "uuid" }),
  name: t.String(),
  subject: t.String({ description: "May hold {{variables}}" }),
  mjml: t.String({ description: "The MJML source" }),
  html: t.String({ description: "Compiled from the source at save (responsive, styles inlined), variables still as {{name}}" }),
  text: nullable(t.String()),
  variables: t.Array(t.String(), { description: "The {{variables}} the subject, source and text use" }),
  created_at: t.String({ format: "date-time" }),
  updated_at: t.String({ format: "date-time" }),
};
export const EmailTemplate = t.Object({ ...templateFields, active: t.Boolean({ description: "An inactive template is refused at send ('This template is not active')" }) });
export const EmailTemplates = Page(EmailTemplate, "By name (ignoring case), then id");
export const EmailTemplateOne = t.Object({ data: EmailTemplate });
export const EmailTemplatesDeleted = t.Object({ deleted: Type.Integer(), ids: t.Array(t.String({ format: "uuid" })) });
export const EmailTemplatePreview = t.Object({
  data: t.Object({
    subject: t.String(),
    html: t.String({ description: "Values HTML-escaped" }),
    text: nullable(t.String()),
    contact_id: nullable(t.String({ format: "uuid" })),
    variables: t.Array(t.String()),
  }),
});
export const EmailLib = t.Object({
  ...templateFields,
  description: t.String(),
  platform: t.Boolean({ description: "The platform's entry (read-only), else the account's own" }),
});
export const EmailLibs = Page(EmailLib, "The platform's entries and the account's own, by name (ignoring case), then id");
export const EmailLibOne = t.Object({ data: EmailLib });

// ---- platform staff's reports (./admin-reports.ts) ------------------------------------------------

const day = t.String({ format: "date", description: "YYYY-MM-DD, São Paulo" });
const statuses = t.Record(t.String(), Type.Integer(), { description: "Outbound e-mails per status" });
const Money = t.Object({ currency: t.String({ description: "ISO 4217" }), amount: Type.Integer({ description: "Minor units of the currency" }) });
const Amounts = t.Array(Money, { description: "One amount per currency (accounts may use different ones), by currency" });
const ReportAccount = nullable(
  t.Object({ id: t.String({ format: "uuid" }), name: t.String(), currency: t.String() }, { description: "The account asked for; null: every account" }),
);
const AccountRows = t.Array(
  t.Object({
    account: t.Object({ id: t.String({ format: "uuid" }), name: t.String() }),
    messages: Type.Integer({ description: "Outbound e-mails" }),
    delivered: Type.Integer({ description: "Delivered, opened or clicked" }),
    opened: Type.Integer({ description: "Opened or clicked" }),
    bounced: Type.Integer({ description: "Bounced, blocked, dropped or failed" }),
    cost: Type.Integer({ description: "Minor units of the account's currency" }),
    currency: t.String(),
  }),
  { description: "The 20 accounts with the most e-mails, most first" },
);
export const AdminEmailStat = t.Object({
  from: day,
  to: day,
  account: ReportAccount,
  data: t.Array(t.Object({ day, total: Type.Integer(), statuses }), { description: "One per day, oldest first, days without e-mails included" }),
  totals: t.Object({ total: Type.Integer(), statuses }),
  cost: Amounts,
  accounts: AccountRows,
  next_cursor: t.Null(),
});
export const AdminEmailUsage = t.Object({
  from: day,
  to: day,
  account: ReportAccount,
  data: t.Array(t.Object({ day, messages: Type.Integer(), cost: Amounts }), { description: "One per day of the period" }),
  totals: t.Object({ messages: Type.Integer(), cost: Amounts }),
  accounts: AccountRows,
  next_cursor: t.Null(),
});
const accountOfRow = { account_id: t.String({ format: "uuid" }), account_name: t.String() };
export const AdminEmailMessages = Page(t.Object({ ...emailMessageFields, ...accountOfRow }), "Every account's e-mails, newest first (created_at, id)");
export const AdminEmailMessageOne = t.Object({
  data: t.Composite([EmailMessageOne.properties.data, t.Object({ account: t.Object({ id: t.String({ format: "uuid" }), name: t.String() }) })]),
});
