/**
 * Live chat configuration over the JWT API (spec section 7, "Omni and chat" and "Live-chat API"):
 * GET omni/tabs, GET webchat/tabs, GET webchat/system, POST webchat/samples/create,
 * GET webchat/samples/{agentId}, GET/POST chat/macros, PUT/DELETE chat/macros/{id}; plus the
 * configuration screens' own resources under /live (tabulations, holidays, opening hours,
 * settings, agents, widget, preferences). Bodies are validated by the use-cases' zod schemas.
 */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { zodBody } from "../http/openapi";
import {
  agentSettingsSchema,
  holidaySchema,
  macroSchema,
  openingHourSchema,
  preferencesSchema,
  sampleApiSchema,
  sampleEditSchema,
  systemSettingsSchema,
  tabulationActiveSchema,
  tabulationSchema,
  widgetSettingsSchema,
} from "./schemas";
import { createHoliday, createOpeningHours, deleteHoliday, deleteOpeningHour, listHolidays, listOpeningHours } from "./calendar";
import { createMacro, deleteMacro, getMacro, listMacros, updateMacro } from "./macros";
import { getPreferences, setPreferences } from "./preferences";
import { createSampleFromApi, deleteSample, listSamples, samplesForAgent, updateSample } from "./samples";
import { getSystemSettings, getWidget, listAgentConfigs, liveSystem, regenerateWidgetKey, updateAgentConfig, updateSystemSettings, updateWidget } from "./settings";
import { agentTabulations, createTabulation, deleteTabulation, listTabulations, updateTabulation } from "./tabulations";

const id = t.Object({ id: t.String() });
const security = { security: [{ bearer: [] }] };
/** Any object: the use-case validates it with its zod schema, which the document shows (zodBody). */
const any = t.Record(t.String(), t.Any());
/** PUT /live/tabulations/:id: a new name and/or active (updateTabulation). */
const tabulationUpdate = tabulationSchema.partial().extend(tabulationActiveSchema.partial().shape);

export const omniConfigRoutes = new Elysia({ prefix: "/omni", tags: ["live"], detail: security })
  .use(authenticated)
  .get("/tabs", async ({ ctx }) => ({ data: await agentTabulations(ctx) }), { detail: { summary: "Active tabulations an agent may set on a room (GENERIC hidden)" } });

export const webchatConfigRoutes = new Elysia({ prefix: "/webchat", tags: ["live"], detail: security })
  .use(authenticated)
  .get("/tabs", async ({ ctx }) => ({ data: await agentTabulations(ctx) }), { detail: { summary: "Active tabulations (live-chat API)" } })
  .get("/system", ({ ctx }) => liveSystem(ctx), { detail: { summary: "live.queued_enabled and live.acceptance_option" } })
  .post("/samples/create", ({ ctx, body }) => createSampleFromApi(ctx, body), {
    body: any,
    detail: { requestBody: zodBody(sampleApiSchema), summary: "Create a canned message: agent_id, department_id, for_all, key, message (non-managers only for themselves)" },
  })
  .get("/samples/:agentId", async ({ ctx, params }) => ({ data: await samplesForAgent(ctx, params.agentId) }), {
    params: t.Object({ agentId: t.String() }),
    detail: { summary: "Canned messages an agent may use: for all, their own, their departments'" },
  });

export const macroRoutes = new Elysia({ prefix: "/chat/macros", tags: ["live"], detail: security })
  .use(authenticated)
  .get("", async ({ ctx }) => ({ data: await listMacros(ctx) }), { detail: { summary: "Macros of the account" } })
  .post("", ({ ctx, body }) => createMacro(ctx, body), { body: any, detail: { requestBody: zodBody(macroSchema), summary: "Create a macro: name, message, tags, tabulation_id, close" } })
  .get("/:id", ({ ctx, params }) => getMacro(ctx, params.id), { params: id, detail: { summary: "One macro" } })
  .put("/:id", ({ ctx, params, body }) => updateMacro(ctx, params.id, body), { params: id, body: any, detail: { requestBody: zodBody(macroSchema), summary: "Edit a macro" } })
  .delete("/:id", ({ ctx, params }) => deleteMacro(ctx, params.id), { params: id, detail: { summary: "Delete a macro" } });

export const liveConfigRoutes = new Elysia({ prefix: "/live", tags: ["live"], detail: security })
  .use(authenticated)
  .get("/tabulations", async ({ ctx }) => ({ data: await listTabulations(ctx) }), { detail: { summary: "Every tabulation (active or not)" } })
  .post("/tabulations", ({ ctx, body }) => createTabulation(ctx, body), { body: any, detail: { requestBody: zodBody(tabulationSchema), summary: "Create a tabulation (name)" } })
  .put("/tabulations/:id", ({ ctx, params, body }) => updateTabulation(ctx, params.id, body), {
    params: id,
    body: any,
    detail: { requestBody: zodBody(tabulationUpdate), summary: "Rename (name) and/or activate or deactivate (active) a tabulation" },
  })
  .delete("/tabulations/:id", ({ ctx, params }) => deleteTabulation(ctx, params.id), { params: id, detail: { summary: "Delete a tabulation" } })
  .get("/samples", async ({ ctx }) => ({ data: await listSamples(ctx) }), { detail: { summary: "Canned messages (all of them for managers, usable ones for agents)" } })
  .put("/samples/:id", ({ ctx, params, body }) => updateSample(ctx, params.id, body), { params: id, body: any, detail: { requestBody: zodBody(sampleEditSchema), summary: "Edit a canned message: key and message (writers any; agents their own)" } })
  .delete("/samples/:id", ({ ctx, params }) => deleteSample(ctx, params.id), { params: id, detail: { summary: "Delete a canned message" } })
  .get("/holidays", async ({ ctx }) => ({ data: await listHolidays(ctx) }), { detail: { summary: "Holidays (closed all day)" } })
  .post("/holidays", ({ ctx, body }) => createHoliday(ctx, body), { body: any, detail: { requestBody: zodBody(holidaySchema), summary: "Register a holiday: name, day (YYYY-MM-DD)" } })
  .delete("/holidays/:id", ({ ctx, params }) => deleteHoliday(ctx, params.id), { params: id, detail: { summary: "Delete a holiday" } })
  .get("/opening-hours", async ({ ctx }) => ({ data: await listOpeningHours(ctx) }), { detail: { summary: "Weekly opening hours (São Paulo time)" } })
  .post("/opening-hours", ({ ctx, body }) => createOpeningHours(ctx, body), {
    body: any,
    detail: { requestBody: zodBody(openingHourSchema), summary: "Add an interval: weekdays (0 = Sunday), opens, closes (HH:MM), department_id (optional)" },
  })
  .delete("/opening-hours/:id", ({ ctx, params }) => deleteOpeningHour(ctx, params.id), { params: id, detail: { summary: "Delete an interval" } })
  .get("/settings", ({ ctx }) => getSystemSettings(ctx), { detail: { summary: "Queue mode, acceptance, default capacity, required tabulation, idle minutes" } })
  .put("/settings", ({ ctx, body }) => updateSystemSettings(ctx, body), { body: any, detail: { requestBody: zodBody(systemSettingsSchema), summary: "Change the live chat settings" } })
  .get("/agents", async ({ ctx }) => ({ data: await listAgentConfigs(ctx) }), { detail: { summary: "The account's agents with capacity and served departments" } })
  .put("/agents/:id", ({ ctx, params, body }) => updateAgentConfig(ctx, params.id, body), {
    params: id,
    body: any,
    detail: { requestBody: zodBody(agentSettingsSchema), summary: "An agent's capacity (null = default) and department_ids served" },
  })
  .get("/widget", ({ ctx }) => getWidget(ctx), { detail: { summary: "Widget settings, key and embed snippet" } })
  .put("/widget", ({ ctx, body }) => updateWidget(ctx, body), { body: any, detail: { requestBody: zodBody(widgetSettingsSchema), summary: "Change the widget settings (colors #RRGGBB)" } })
  .post("/widget/regenerate-key", ({ ctx }) => regenerateWidgetKey(ctx), { detail: { summary: "A new widget key (the old snippet stops working)" } })
  .get("/preferences", ({ ctx }) => getPreferences(ctx), { detail: { summary: "The caller's mute and volume" } })
  .put("/preferences", ({ ctx, body }) => setPreferences(ctx, body), { body: any, detail: { requestBody: zodBody(preferencesSchema), summary: "Mute (disabled, 8h, 1w, 1m, always) and volume (0..1)" } });
