/** The WhatsApp template form's options, without its schema (and zod) beside them (ADR 052); template-form-schema.ts re-exports them. */
import { MAX_BUTTONS, TEMPLATE_CATEGORIES } from "~api/whatsapp/constants";

export const BUTTON_SLOTS = MAX_BUTTONS;

export const HEADER_TYPES = ["none", "text", "image", "video", "document"] as const;

export const BUTTON_TYPES = ["none", "quick_reply", "url", "phone"] as const;

export const CATEGORIES = TEMPLATE_CATEGORIES;

/** Meta's language codes offered by the form (Meta takes many more; these are the product's languages). */
export const LANGUAGES = ["pt_BR", "en_US", "en", "es", "es_MX", "es_AR", "zh_CN"] as const;
