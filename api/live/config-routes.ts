/**
 * Live chat configuration over the JWT API (spec section 7, "Omni and chat" and "Live-chat API"):
 * GET omni/tabs, GET webchat/tabs, GET webchat/system, POST webchat/samples/create,
 * GET webchat/samples/{agentId}, GET/POST chat/macros, PUT/DELETE chat/macros/{id}; plus the
 * configuration screens' own resources under /live (tabulations, holidays, opening hours,
 * settings, agents, widget, preferences). Bodies are validated by the use-cases' zod schemas. Answers: config-responses.ts;
 * lists that grow with the account (samples, macros, holidays, agents) page by keyset, the others are one page.
 */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { created as createdAnswer } from "../http/created";
import { errorResponses, successResponse, zodBody } from "../http/openapi";
import { onePage } from "../lib/page";
import { pageQuery } from "../lib/page-schema";
import * as R from "./config-responses";
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
import { createHoliday, createOpeningHours, deleteHoliday, deleteOpeningHour, getHoliday, listOpeningHours, pageHolidays } from "./calendar";
import { createMacro, deleteMacro, getMacro, pageMacros, updateMacro } from "./macros";
import { getPreferences, setPreferences } from "./preferences";
import { createSampleFromApi, deleteSample, getSample, pageSamples, pageSamplesForAgent, updateSample } from "./samples";
import { getSystemSettings, getWidget, liveSystem, pageAgentConfigs, regenerateWidgetKey, updateAgentConfig, updateSystemSettings, updateWidget } from "./settings";
import { agentTabulations, createTabulation, deleteTabulation, getTabulation, listTabulations, updateTabulation } from "./tabulations";

const id = t.Object({ id: t.String() });
const security = { security: [{ bearer: [] }] };
/** Any object: the use-case validates it with its zod schema, which the document shows (zodBody). */
const any = t.Record(t.String(), t.Any());
/** PUT /live/tabulations/:id: a new name and/or active (updateTabulation). */
const tabulationUpdate = tabulationSchema.partial().extend(tabulationActiveSchema.partial().shape);
/** ?cursor=&limit= of a keyset list (api/lib/page.ts). */
const paged = t.Object(pageQuery);
const PAGED = "Pages by keyset: `limit` (1..200, default 50) and `cursor` (the previous answer's next_cursor; a bad one is 422 on cursor)";

export const omniConfigRoutes = new Elysia({ prefix: "/omni", tags: ["live"], detail: security })
  .use(authenticated)
  .get("/tabs", async ({ ctx }) => onePage(await agentTabulations(ctx)), {
    detail: {
      responses: successResponse(R.Tabs),
      summary: "Active tabulations an agent may set on a room (GENERIC hidden), by name: one page (bounded by the account's tabulations)",
    },
  });

export const webchatConfigRoutes = new Elysia({ prefix: "/webchat", tags: ["live"], detail: security })
  .use(authenticated)
  .get("/tabs", async ({ ctx }) => onePage(await agentTabulations(ctx)), {
    detail: { responses: successResponse(R.Tabs), summary: "Active tabulations (live-chat API), by name: one page (bounded by the account's tabulations)" },
  })
  .get("/system", ({ ctx }) => liveSystem(ctx), { detail: { responses: successResponse(R.LiveSystem), summary: "live.queued_enabled and live.acceptance_option" } })
  .post(
    "/samples/create",
    async ({ ctx, body, set }) => {
      const sample = await createSampleFromApi(ctx, body);
      return createdAnswer(set, `/api/live/samples/${sample.id}`, sample);
    },
    {
      body: any,
      detail: {
        requestBody: zodBody(sampleApiSchema),
        responses: R.created(R.Sample, "Created: the canned message (Location: /api/live/samples/{id})"),
        summary: "Create a canned message: agent_id, department_id, for_all, key, message (non-managers only for themselves)",
      },
    },
  )
  .get("/samples/:agentId", ({ ctx, params, query }) => pageSamplesForAgent(ctx, params.agentId, query), {
    params: t.Object({ agentId: t.String() }),
    query: paged,
    detail: { responses: successResponse(R.Samples), summary: "Canned messages an agent may use: for all, their own, their departments', by key", description: PAGED },
  });

export const macroRoutes = new Elysia({ prefix: "/chat/macros", tags: ["live"], detail: security })
  .use(authenticated)
  .get("", ({ ctx, query }) => pageMacros(ctx, query), {
    query: paged,
    detail: { responses: successResponse(R.Macros), summary: "Macros of the account, by name", description: PAGED },
  })
  .post(
    "",
    async ({ ctx, body, set }) => {
      const macro = await createMacro(ctx, body);
      return createdAnswer(set, `/api/chat/macros/${macro.id}`, macro);
    },
    {
      body: any,
      detail: {
        requestBody: zodBody(macroSchema),
        responses: R.created(R.Macro, "Created: the macro (Location: /api/chat/macros/{id})"),
        summary: "Create a macro: name, message, tags, tabulation_id, close (a name in use is 422 on name)",
      },
    },
  )
  .get("/:id", ({ ctx, params }) => getMacro(ctx, params.id), { params: id, detail: { responses: successResponse(R.Macro), summary: "One macro" } })
  .put("/:id", ({ ctx, params, body }) => updateMacro(ctx, params.id, body), {
    params: id,
    body: any,
    detail: { requestBody: zodBody(macroSchema), responses: successResponse(R.Macro), summary: "Edit a macro (every field: an absent one is cleared)" },
  })
  .delete("/:id", ({ ctx, params }) => deleteMacro(ctx, params.id), { params: id, detail: { responses: successResponse(R.MacroDeleted), summary: "Delete a macro" } });

export const liveConfigRoutes = new Elysia({ prefix: "/live", tags: ["live"], detail: security })
  .use(authenticated)
  .get("/tabulations", async ({ ctx }) => onePage(await listTabulations(ctx)), {
    detail: { responses: successResponse(R.Tabulations), summary: "Every tabulation (active or not), by name: one page (bounded by the account's tabulations)" },
  })
  .post(
    "/tabulations",
    async ({ ctx, body, set }) => {
      const tab = await createTabulation(ctx, body);
      return createdAnswer(set, `/api/live/tabulations/${tab.id}`, tab);
    },
    {
      body: any,
      detail: {
        requestBody: zodBody(tabulationSchema),
        responses: R.created(R.Tabulation, "Created: the tabulation (Location: /api/live/tabulations/{id})"),
        summary: "Create a tabulation (name; a name in use, ignoring case, is 422 on name)",
      },
    },
  )
  .get("/tabulations/:id", ({ ctx, params }) => getTabulation(ctx, params.id), { params: id, detail: { responses: successResponse(R.Tabulation), summary: "One tabulation" } })
  .put("/tabulations/:id", ({ ctx, params, body }) => updateTabulation(ctx, params.id, body), {
    params: id,
    body: any,
    detail: { requestBody: zodBody(tabulationUpdate), responses: successResponse(R.Tabulation), summary: "Rename (name) and/or activate or deactivate (active) a tabulation" },
  })
  .delete("/tabulations/:id", ({ ctx, params }) => deleteTabulation(ctx, params.id), {
    params: id,
    detail: { responses: successResponse(R.Tabulation, "The deleted tabulation"), summary: "Delete a tabulation (rooms that used it keep their history)" },
  })
  .get("/samples", ({ ctx, query }) => pageSamples(ctx, query), {
    query: paged,
    detail: { responses: successResponse(R.Samples), summary: "Canned messages (all of them for managers, usable ones for agents), by key", description: PAGED },
  })
  .get("/samples/:id", ({ ctx, params }) => getSample(ctx, params.id), {
    params: id,
    detail: { responses: successResponse(R.Sample), summary: "One canned message (writers any of the account; agents one they may use)" },
  })
  .put("/samples/:id", ({ ctx, params, body }) => updateSample(ctx, params.id, body), {
    params: id,
    body: any,
    detail: {
      requestBody: zodBody(sampleEditSchema),
      responses: successResponse(R.SampleEdited),
      summary: "Edit a canned message: key and message (writers any; agents their own)",
    },
  })
  .delete("/samples/:id", ({ ctx, params }) => deleteSample(ctx, params.id), {
    params: id,
    detail: { responses: successResponse(R.SampleDeleted), summary: "Delete a canned message (writers any; agents their own)" },
  })
  .get("/holidays", ({ ctx, query }) => pageHolidays(ctx, query), {
    query: paged,
    detail: { responses: successResponse(R.Holidays), summary: "Holidays (closed all day), by day", description: PAGED },
  })
  .post(
    "/holidays",
    async ({ ctx, body, set }) => {
      const holiday = await createHoliday(ctx, body);
      return createdAnswer(set, `/api/live/holidays/${holiday.id}`, holiday);
    },
    {
      body: any,
      detail: {
        requestBody: zodBody(holidaySchema),
        responses: { ...R.created(R.Holiday, "Created: the holiday (Location: /api/live/holidays/{id})"), ...errorResponses(409) },
        summary: "Register a holiday: name, day (YYYY-MM-DD); a day already registered is 409 HOLIDAY_REGISTER_FAILED",
      },
    },
  )
  .get("/holidays/:id", ({ ctx, params }) => getHoliday(ctx, params.id), { params: id, detail: { responses: successResponse(R.Holiday), summary: "One holiday" } })
  .delete("/holidays/:id", ({ ctx, params }) => deleteHoliday(ctx, params.id), {
    params: id,
    detail: { responses: successResponse(R.HolidayDeleted), summary: "Delete a holiday" },
  })
  .get("/opening-hours", async ({ ctx }) => onePage(await listOpeningHours(ctx)), {
    detail: {
      responses: successResponse(R.OpeningHours),
      summary: "Weekly opening hours (São Paulo time): one page (bounded: non-overlapping intervals of one week per department)",
    },
  })
  .post("/opening-hours", async ({ ctx, body, set }) => createdAnswer(set, "/api/live/opening-hours", await createOpeningHours(ctx, body)), {
    body: any,
    detail: {
      requestBody: zodBody(openingHourSchema),
      responses: R.created(R.OpeningHoursCreated, "Created: one interval per weekday (Location: /api/live/opening-hours, the list that holds them)"),
      summary: "Add an interval: weekdays (0 = Sunday), opens, closes (HH:MM), department_id (optional); an overlap is 422 on opens",
    },
  })
  .delete("/opening-hours/:id", ({ ctx, params }) => deleteOpeningHour(ctx, params.id), {
    params: id,
    detail: { responses: successResponse(R.OpeningHourDeleted), summary: "Delete an interval" },
  })
  .get("/settings", ({ ctx }) => getSystemSettings(ctx), {
    detail: { responses: successResponse(R.SystemSettings), summary: "Queue mode, acceptance, default capacity, required tabulation, idle minutes" },
  })
  .put("/settings", ({ ctx, body }) => updateSystemSettings(ctx, body), {
    body: any,
    detail: { requestBody: zodBody(systemSettingsSchema), responses: successResponse(R.SystemSettings), summary: "Change the live chat settings" },
  })
  .get("/agents", ({ ctx, query }) => pageAgentConfigs(ctx, query), {
    query: paged,
    detail: { responses: successResponse(R.AgentConfigs), summary: "The account's agents with capacity and served departments, by name", description: PAGED },
  })
  .put("/agents/:id", ({ ctx, params, body }) => updateAgentConfig(ctx, params.id, body), {
    params: id,
    body: any,
    detail: { requestBody: zodBody(agentSettingsSchema), responses: successResponse(R.AgentConfig), summary: "An agent's capacity (null = default) and department_ids served" },
  })
  .get("/widget", ({ ctx }) => getWidget(ctx), { detail: { responses: successResponse(R.Widget), summary: "Widget settings, key and embed snippet" } })
  .put("/widget", ({ ctx, body }) => updateWidget(ctx, body), {
    body: any,
    detail: { requestBody: zodBody(widgetSettingsSchema), responses: successResponse(R.Widget), summary: "Change the widget settings (colors #RRGGBB)" },
  })
  .post("/widget/regenerate-key", ({ ctx }) => regenerateWidgetKey(ctx), {
    detail: { responses: successResponse(R.Widget), summary: "A new widget key (the old snippet stops working)" },
  })
  .get("/preferences", ({ ctx }) => getPreferences(ctx), { detail: { responses: successResponse(R.Preferences), summary: "The caller's mute and volume" } })
  .put("/preferences", ({ ctx, body }) => setPreferences(ctx, body), {
    body: any,
    detail: {
      requestBody: zodBody(preferencesSchema),
      responses: successResponse(R.Preferences),
      summary: "Mute (disabled, 8h, 1w, 1m, always; 8_hours, 1_week, 1_month accepted) and volume (0..1)",
    },
  });
