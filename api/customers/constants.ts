/** Customer administration's limits and lists (ADR 063): no zod here, so the screens bundle them without the schemas. */
export const NAME_MAX = 120;
export const CORPORATE_NAME_MAX = 200;
/** The carriers a short code can be homologated with (its deliverability). */
export const CARRIERS = ["Vivo", "Claro", "TIM", "Oi", "Algar"] as const;
/** The roles a person is attached to a customer with: the owner too (an invitation to one's own account does not offer it). */
export const ATTACH_ROLES = ["owner", "admin", "developer", "manager", "billing", "carrier", "security", "sales", "agent", "analyst"] as const;
/** A short code's highest monthly price, in minor units: 100.000,00. */
export const MONTHLY_PRICE_MAX = 10_000_000;
