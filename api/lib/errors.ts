/**
 * One error type for the whole product. `code` is a key of the error catalogue (spec section 8);
 * the API maps it to an HTTP status here, the UI to a translated message (locale key errors.<code>).
 */
export const ERROR_STATUS = {
  UNKNOWN: 500,
  INTERNAL: 500,
  /** Only with API_RESPONSE_CHECK (tests): an answer that is not what the OpenAPI document says. */
  RESPONSE_SCHEMA: 500,
  VALIDATION: 422,
  UNAUTHENTICATED: 401,
  INVALID_CREDENTIALS: 401,
  INVALID_PASSWORD: 401,
  INVALID_TOKEN: 401,
  TWO_FACTOR_NOT_CHECKED: 403,
  INVALID_TOTP: 401,
  TOTP_ALREADY_ENABLED: 409,
  EMAIL_NOT_VERIFIED: 403,
  TOO_MANY_ATTEMPTS: 429,
  FORBIDDEN: 403,
  NO_PERMISSION_EDIT_USERS: 403,
  PLAN_REQUIRED: 403,
  NOT_FOUND: 404,
  INVITATION_INVALID: 404,
  EMAIL_TAKEN: 409,
  ALREADY_MEMBER: 409,
  DEPARTMENT_NAME_TAKEN: 409,
  LAST_OWNER: 409,
  ACCOUNT_INFO_FAILED: 403,
  CLIENT_INACTIVE: 403,
  CSRF: 403,
  NUMBER_ALREADY_REGISTERED: 409,
  /** The account already registered this sending domain (api/email/domains.ts). */
  DOMAIN_ALREADY_REGISTERED: 409,
  /** A pending request of the account for the same WhatsApp number (api/whatsapp/number-requests.ts). */
  NUMBER_ALREADY_REQUESTED: 409,
  /** A WhatsApp number request already decided or canceled: it cannot be canceled. */
  REQUEST_STATE: 409,
  GROUP_NAME_TAKEN: 409,
  /** A short link's custom slug already used on its domain (api/shortener/links.ts). */
  SLUG_TAKEN: 409,
  CUSTOM_FIELD_TAKEN: 409,
  IMPORT_TOO_MANY_FILES: 422,
  IMPORT_NOT_CSV: 422,
  IMPORT_TOO_MANY_ROWS: 422,
  IMPORT_LAYOUT: 422,
  IMPORT_MISSING_MOBILE: 422,
  IMPORT_INVALID_NUMBER: 422,
  IMPORT_FAILED: 500,
  IMPORT_NOT_READY: 409,
  INSUFFICIENT_BALANCE: 402,
  /** A plan change to the plan the account already has (api/plans/change.ts). */
  PLAN_UNCHANGED: 409,
  IDEMPOTENCY_CONFLICT: 409,
  EXPORT_NOT_READY: 409,
  CAMPAIGN_STATE: 409,
  PROVIDER_IN_USE: 409,
  /** A plan accounts hold now cannot be deleted (ADR 064): deactivate it instead. */
  PLAN_IN_USE: 409,
  /** A provider cost that has started is history (ADR 070): only a future one is deleted. */
  PROVIDER_COST_APPLIED: 409,
  LIVE_ROOM_LIMIT: 409,
  LIVE_TABULATION_REQUIRED: 422,
  LIVE_ROOM_STATE: 409,
  LIVE_ROOM_LOCKED: 409,
  LIVE_QUEUE_EMPTY: 404,
  /** Live realtime commands (api/live/commands.ts). */
  UNKNOWN_COMMAND: 400,
  COMMAND_UNAVAILABLE: 501,
  ALREADY_CONNECTED: 409,
  HOLIDAY_REGISTER_FAILED: 409,
  LIVE_FILE_TOO_LARGE: 413,
  LIVE_FILE_TYPE: 415,
  /** A file of a type the room's channel does not take, where the channel has its own list (RCS; api/live/limits.ts): `params.types` names them. */
  LIVE_FILE_TYPE_CHANNEL: 415,
  LIVE_FILE_STICKER: 422,
  /** A request body above JSON_BODY_LIMIT_KB (api/lib/body-limit.ts). */
  BODY_TOO_LARGE: 413,
  /** A provider's API did not answer (network, timeout, 5xx) while we acted for the person (WhatsApp connect, template submit). */
  PROVIDER_UNAVAILABLE: 502,
  /** A provider's webhook names something we do not know yet (a status that outran the recording of its send): the provider retries. */
  RETRY_LATER: 503,
  /** Another flow of the account is active on the same channel and trigger (api/flows/flows.ts; one active per channel and trigger). */
  FLOW_CHANNEL_TAKEN: 409,
  /** Publishing a flow whose definition fails its check: `fields` names each node (`nodes.<id>.<field>`). */
  FLOW_HAS_ERRORS: 422,
  /** Starting a flow on a room that already has a live stream (api/flows/streams.ts, ADR 054). */
  FLOW_STREAM_LIVE: 409,
  /** Cancelling a stream that has already ended. */
  FLOW_STREAM_ENDED: 409,
  /** A support ticket that is closed takes no more messages (api/support/tickets.ts). */
  TICKET_CLOSED: 409,
  /** Only a closed ticket can be rated. */
  TICKET_NOT_CLOSED: 409,
  /** A ticket is rated once; a rated ticket is settled. */
  TICKET_ALREADY_RATED: 409,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** Field errors carry locale keys (e.g. "validation.required") plus their parameters. */
export type FieldErrors = Record<string, string[]>;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly fields?: FieldErrors;
  readonly params?: Record<string, string | number>;

  constructor(code: ErrorCode, opts: { fields?: FieldErrors; params?: Record<string, string | number>; message?: string } = {}) {
    super(opts.message ?? code);
    this.name = "AppError";
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.fields = opts.fields;
    this.params = opts.params;
  }

  toJSON() {
    return { error: { code: this.code, message: this.message, fields: this.fields, params: this.params } };
  }
}

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}

/** The spec's 2FA error name, as the API answers it. */
export const TWO_FACTOR_NOT_CHECKED = "2FA_NOT_CHECKED";
