import { z } from "../lib/zod";

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The local outbox list: keyset cursor `before` = id of the last e-mail seen. */
export const outboxQuerySchema = z.object({
  before: z.string().regex(uuid).optional().catch(undefined),
});

export const outboxIdSchema = z.string().regex(uuid, "validation.invalid");
