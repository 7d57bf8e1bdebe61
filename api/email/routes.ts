/**
 * E-mail API (issue 17; spec section 7 "E-mail"), under /api/email with the JWT: sending domains,
 * the accept of messages, templates and the template library. Thin: the use-cases (./domains, ./send) check the route's roles and
 * scope by account.
 */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { created } from "../http/created";
import { createdResponse, errorResponses, successResponse, zodBody } from "../http/openapi";
import { pageQuery } from "../lib/page-schema";
import { deleteEmailDomain, getEmailDomain, listEmailDomains, registerEmailDomain, validateEmailDomain } from "./domains";
import { createEmailLib, deleteEmailLib, listEmailLibs, updateEmailLib } from "./libs";
import { domainSchema, emailBulkIdsSchema, emailLibSchema, emailTemplateSchema, emailTemplateUpdateSchema, sendEmailSchema } from "./schemas";
import { createEmailTemplate, deleteEmailTemplate, deleteEmailTemplates, getEmailTemplate, listEmailTemplates, previewEmailTemplate, updateEmailTemplate } from "./templates";
import { acceptEmail } from "./send";
import { getEmailMessage, listEmailMessages } from "./history";
import * as R from "./responses";

const bearer = [{ bearer: [] }];
const id = t.Object({ id: t.String() });

export const emailRoutes = new Elysia({ prefix: "/email", tags: ["email"], detail: { security: bearer } })
  .use(authenticated)
  .get("/domains", ({ ctx, query }) => listEmailDomains(ctx, query), {
    query: t.Object({ ...pageQuery, status: t.Optional(t.String({ description: "pending, validated or failed" })) }),
    detail: { responses: successResponse(R.EmailDomains), summary: "The account's sending domains with the DNS records to publish and what the last check found" },
  })
  .post(
    "/domains",
    async ({ ctx, body, set }) => {
      const answer = await registerEmailDomain(ctx, body);
      return created(set, `/api/email/domains/${answer.data.id}`, answer);
    },
    {
      body: t.Object({ domain: t.String({ description: "The domain mail is sent from, e.g. loja.com.br (an internationalised name is kept in its xn-- form)" }) }),
      detail: {
        requestBody: zodBody(domainSchema),
        responses: { ...createdResponse(R.EmailDomainOne), ...errorResponses(409, 422) },
        summary:
          "Register a sending domain: a DKIM key is made for it and the four records to publish are answered (status pending). 422 on domain when it is not a domain name, is the platform's own, or the account has the most domains; 409 DOMAIN_ALREADY_REGISTERED when the account has it",
      },
    },
  )
  .get("/domains/:id", ({ ctx, params }) => getEmailDomain(ctx, params.id), {
    params: id,
    detail: { responses: { ...successResponse(R.EmailDomainOne), ...errorResponses(404) }, summary: "One sending domain" },
  })
  .post("/domains/validate/:id", ({ ctx, params }) => validateEmailDomain(ctx, params.id), {
    params: id,
    detail: {
      responses: { ...successResponse(R.EmailDomainOne), ...errorResponses(404) },
      summary:
        "Check the domain's DNS now (SPF, DKIM, DMARC, return path): validated when all four are right, failed otherwise; a record DNS did not answer for is `unreachable` and leaves the status as it was",
    },
  })
  .delete("/domains/:id", ({ ctx, params }) => deleteEmailDomain(ctx, params.id), {
    params: id,
    detail: { responses: { ...successResponse(R.Deleted), ...errorResponses(404) }, summary: "Remove a sending domain: mail can no longer be sent from it" },
  })
  .post(
    "/messages",
    async ({ ctx, body, request, set }) => {
      const answer = await acceptEmail(ctx, body, request.headers.get("Idempotency-Key"));
      set.status = 202;
      return answer;
    },
    {
      body: t.Record(t.String(), t.Any()),
      headers: t.Object({ "idempotency-key": t.Optional(t.String({ description: "The same key and request answer the first response" })) }),
      detail: {
        requestBody: zodBody(sendEmailSchema),
        responses: { ...successResponse(R.EmailAccepted, "Accepted", 202), ...errorResponses(402, 409, 422) },
        summary:
          "Send an e-mail to one address or a list (up to 1,000; more is a campaign), from an address of a validated domain of the account (422 on from: 'You need to register a domain and verify it before submitting'), with a subject and an HTML and/or text part (HTML up to 512 KB) — or template_id + variables instead (422 on template_id: 'This template is not active', or not one of the account's; each recipient that is a contact of the account fills the variables the request does not give) —, now or at scheduled_at. Each distinct recipient is one message, priced and debited at accept (402 INSUFFICIENT_BALANCE: nothing written); an opted-out or denied address is answered optout / rejected at price 0",
      },
    },
  )
  .get("/messages", ({ ctx, query }) => listEmailMessages(ctx, query), {
    query: t.Object({
      ...pageQuery,
      id: t.Optional(t.String()),
      status: t.Optional(t.String()),
      from: t.Optional(t.String({ description: "The sending address, exact" })),
      to: t.Optional(t.String({ description: "The recipient's address, exact" })),
      "created_at[gte]": t.Optional(t.String({ description: "First day YYYY-MM-DD (São Paulo); default the last day" })),
      "created_at[lte]": t.Optional(t.String({ description: "Last day YYYY-MM-DD (São Paulo); default today; at most 31 days" })),
      order: t.Optional(t.String({ description: "desc (default) or asc" })),
    }),
    detail: { responses: { ...successResponse(R.EmailMessages), ...errorResponses(422) }, summary: "The account's e-mail messages of a range of days, filtered, a keyset page" },
  })
  .get("/messages/:id", ({ ctx, params }) => getEmailMessage(ctx, params.id), {
    params: id,
    detail: {
      responses: { ...successResponse(R.EmailMessageOne), ...errorResponses(404) },
      summary: "One e-mail message: its status, times, content, counts of opens and clicks, and its events in order (with the code and reason of a bounce or block)",
    },
  })
  .post(
    "/templates",
    async ({ ctx, body, set }) => {
      const answer = await createEmailTemplate(ctx, body);
      return created(set, `/api/email/templates/${answer.data.id}`, answer);
    },
    {
      body: t.Record(t.String(), t.Any()),
      detail: {
        requestBody: zodBody(emailTemplateSchema),
        responses: { ...createdResponse(R.EmailTemplateOne), ...errorResponses(422) },
        summary:
          "Create an e-mail template: name (unique in the account), subject, MJML source compiled to responsive HTML at save (422 on mjml: the compiler's first error, or HTML over 512 KB), optional text part, active (default true). {{first_name}} and other contact or custom fields are filled at send",
      },
    },
  )
  .get("/templates", ({ ctx, query }) => listEmailTemplates(ctx, query), {
    query: t.Object({ ...pageQuery, active: t.Optional(t.String({ description: "true or false" })) }),
    detail: { responses: { ...successResponse(R.EmailTemplates), ...errorResponses(422) }, summary: "The account's e-mail templates by name, a keyset page" },
  })
  .delete("/templates", ({ ctx, body }) => deleteEmailTemplates(ctx, body), {
    body: t.Record(t.String(), t.Any()),
    detail: {
      requestBody: zodBody(emailBulkIdsSchema),
      responses: { ...successResponse(R.EmailTemplatesDeleted), ...errorResponses(422) },
      summary: "Delete several templates of the account ({ids}); unknown ids and other accounts' are ignored. Answers how many and which",
    },
  })
  .get("/templates/:id", ({ ctx, params }) => getEmailTemplate(ctx, params.id), {
    params: id,
    detail: { responses: { ...successResponse(R.EmailTemplateOne), ...errorResponses(404) }, summary: "One e-mail template" },
  })
  .put("/templates/:id", ({ ctx, params, body }) => updateEmailTemplate(ctx, params.id, body), {
    params: id,
    body: t.Record(t.String(), t.Any()),
    detail: {
      requestBody: zodBody(emailTemplateUpdateSchema),
      responses: { ...successResponse(R.EmailTemplateOne), ...errorResponses(404, 422) },
      summary: "Change a template: the fields given (e.g. only active to turn it off); a new source is compiled again",
    },
  })
  .delete("/templates/:id", ({ ctx, params }) => deleteEmailTemplate(ctx, params.id), {
    params: id,
    detail: { responses: { ...successResponse(R.Deleted), ...errorResponses(404) }, summary: "Delete a template" },
  })
  .get("/templates/:id/preview", ({ ctx, params, query }) => previewEmailTemplate(ctx, params.id, query), {
    params: id,
    query: t.Object({ contact_id: t.Optional(t.String({ description: "A contact of the account whose fields fill the variables; sample values without it" })) }),
    detail: {
      responses: { ...successResponse(R.EmailTemplatePreview), ...errorResponses(404, 422) },
      summary: "The template as a recipient gets it: subject, HTML (values HTML-escaped) and text with the variables filled from the contact, or sample values",
    },
  })
  .post(
    "/libs",
    async ({ ctx, body, set }) => {
      const answer = await createEmailLib(ctx, body);
      return created(set, `/api/email/libs/${answer.data.id}`, answer);
    },
    {
      body: t.Record(t.String(), t.Any()),
      detail: {
        requestBody: zodBody(emailLibSchema),
        responses: { ...createdResponse(R.EmailLibOne), ...errorResponses(422) },
        summary: "Save an entry in the account's template library (compiled like a template)",
      },
    },
  )
  .get("/libs", ({ ctx, query }) => listEmailLibs(ctx, query), {
    query: t.Object(pageQuery),
    detail: {
      responses: { ...successResponse(R.EmailLibs), ...errorResponses(422) },
      summary: "The template library: the platform's entries (platform: true, read-only) and the account's own, a keyset page",
    },
  })
  .put("/libs/:id", ({ ctx, params, body }) => updateEmailLib(ctx, params.id, body), {
    params: id,
    body: t.Record(t.String(), t.Any()),
    detail: {
      requestBody: zodBody(emailLibSchema),
      responses: { ...successResponse(R.EmailLibOne), ...errorResponses(404, 422) },
      summary: "Change one of the account's library entries (a platform entry is 404)",
    },
  })
  .delete("/libs/:id", ({ ctx, params }) => deleteEmailLib(ctx, params.id), {
    params: id,
    detail: { responses: { ...successResponse(R.Deleted), ...errorResponses(404) }, summary: "Delete one of the account's library entries (a platform entry is 404)" },
  });
