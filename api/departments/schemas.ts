import { z } from "../lib/zod";

export const departmentSchema = z.object({
  name: z.string({ message: "validation.required" }).trim().min(1, "validation.required").max(80, "validation.maxLength::80"),
  description: z.string().trim().max(200, "validation.maxLength::200").default(""),
  status: z.enum(["active", "inactive"]).default("active"),
});
