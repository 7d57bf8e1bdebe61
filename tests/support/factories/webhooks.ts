/** Webhook endpoints: changes the API would refuse or that only time makes (endpoints are created through the API). */
import { type Query, type SqlExpression, runDb, updateRows } from "./sql";

export async function setWebhookEndpoint(endpointId: string, fields: { url?: string; previousSecretExpiresAt?: Date | SqlExpression }, q: Query = runDb): Promise<void> {
  await updateRows("webhook_endpoints", { id: endpointId }, fields, "id", q);
}
