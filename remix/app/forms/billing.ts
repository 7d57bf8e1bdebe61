/** What /new-invoice posts: the action checks it, and the browser with the same schema once loaded (ADR 052). */
import { z } from "~api/lib/zod";
import { reais } from "./money";

export const newInvoiceSchema = z.object({ amount: reais });
