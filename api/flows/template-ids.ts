/** The ready flows' ids (api/flows/templates.ts), apart from their texts so screens list them without loading the definitions (ADR 052). */
export const FLOW_TEMPLATE_IDS = ["welcome", "faq", "lead", "order_status", "opening_hours"] as const;
export type FlowTemplateId = (typeof FLOW_TEMPLATE_IDS)[number];
