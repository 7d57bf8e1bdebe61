/** Onboarding API (issue 19, ADR 050): the home page's checklist, dismissing it, starting the trial. */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { successResponse } from "../http/openapi";
import { ONBOARDING_STEPS } from "./services";
import { dismissOnboarding, onboarding, startTrial } from "./services";

const Onboarding = t.Object({
  steps: t.Array(
    t.Object({
      key: t.Union(
        ONBOARDING_STEPS.map((k) => t.Literal(k)),
        {
          description:
            "email: verified; plan: a plan or trial; balance: positive or a paid top-up; testSms: an SMS to the person's own mobile; channel: a connected channel; widget: a webchat room",
        },
      ),
      done: t.Boolean({ description: "Computed from the account's data" }),
      href: t.String({ description: "The screen that does the step" }),
    }),
  ),
  done: t.Integer(),
  total: t.Integer(),
  dismissed: t.Boolean(),
  visible: t.Boolean({ description: "Shown on the home page: not dismissed and not every step done" }),
  mobile: t.Union([t.String(), t.Null()], { description: "The person's own mobile (digits), where the test SMS goes" }),
});
const TrialStarted = t.Composite([Onboarding, t.Object({ credited: t.Integer({ description: "Minor units credited now (0 when the trial credit was already given)" }) })]);

export const onboardingRoutes = new Elysia({ prefix: "/onboarding", tags: ["onboarding"], detail: { security: [{ bearer: [] }] } })
  .use(authenticated)
  .get("", ({ ctx }) => onboarding(ctx), {
    detail: { responses: successResponse(Onboarding), summary: "The account's onboarding checklist: each step done or not (from real data) and the screen that does it" },
  })
  .post("/dismiss", ({ ctx }) => dismissOnboarding(ctx), {
    detail: { responses: successResponse(Onboarding), summary: "Hide the checklist for the account (owner, admin)" },
  })
  .post("/trial", ({ ctx }) => startTrial(ctx), {
    detail: {
      responses: successResponse(TrialStarted),
      summary:
        "Start the trial of an account that never had a plan: the trial plan for 30 days and the trial credit through the ledger, once per account (a retry credits nothing more)",
    },
  });
