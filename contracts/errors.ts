import { z } from "zod";

/**
 * Every error code the product answers with, and its HTTP status. The seed's common codes come
 * first; policy codes (one per policy in the pack) follow; then transport and operations codes.
 */
export const ERROR_STATUS = {
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  SIGNUP_CLOSED: 403,
  NOT_FOUND: 404,
  VALIDATION_ERROR: 400,
  INVALID_JSON: 400,
  UNKNOWN_EVENT_TYPE: 400,
  CONFLICT: 409,
  IDEMPOTENCY_IN_PROGRESS: 409,
  IDEMPOTENCY_KEY_REUSED: 422,
  RATE_LIMITED: 429,
  UPSTREAM_ERROR: 502,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  CURSOR_TOO_OLD: 410,
  /** A one-time sign-in link that made its session already, or whose time ran out. */
  SIGNIN_LINK_USED: 410,
  SIGNIN_LINK_EXPIRED: 410,
  /** A passkey answer whose challenge is unknown, used already or expired: ask for new options. */
  PASSKEY_CHALLENGE_INVALID: 400,
  /** A passkey answer that does not verify (origin, RP ID, signature, counter, user verification). */
  PASSKEY_REFUSED: 400,
  STORAGE_FULL: 507,
  STORAGE_UNAVAILABLE: 503,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL: 500,
  // Policy Pack v1 codes: a refused event is a 422 (well-formed request, refused by policy)
  // except tenancy (403-like leaks are avoided: foreign objects read as not found elsewhere).
  INVALID_ENVELOPE: 422,
  TENANT_SCOPE_VIOLATION: 422,
  DUPLICATE_EVENT_ID: 409,
  INVALID_MESSAGE_SCHEMA: 422,
  INVALID_JOB_SCHEMA: 422,
  JOB_CONVERSATION_MISMATCH: 422,
  ILLEGAL_JOB_TRANSITION: 409,
  UNAUTHORIZED_ACTION: 403,
  INVALID_PROVENANCE: 422,
  TOOL_ORPHAN_RESULT: 422,
  TOOL_NOT_ALLOWED_IN_STATE: 409,
  TOOL_NOT_ALLOWED: 403,
  RAW_PII_DETECTED: 422,
  NOT_A_MEMBER: 403,
  /** An edit after the message's edit window (MESSAGE_EDIT_WINDOW_SECONDS) closed. */
  EDIT_WINDOW_CLOSED: 403,
  /** Input that is not well-formed (text that is not well-formed UTF-16, a field a form refuses). */
  INVALID_INPUT: 400,
  /** A `[ref …]`/`[op …]` token in a person's message was refused (nothing stored, no model call). */
  INVALID_TOKEN: 422,
  /** A change that would leave a workspace with no active owner. */
  LAST_OWNER: 409,
} as const;

export type TErrorCode = keyof typeof ERROR_STATUS;
export const ZErrorCode = z.enum(Object.keys(ERROR_STATUS) as [TErrorCode, ...TErrorCode[]]);

/** The standard error shape: `{error:{code,message,details}}`. */
export const ZErrorBody = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
  }),
});
export type TErrorBody = z.infer<typeof ZErrorBody>;

export function statusOf(code: string): number {
  return (ERROR_STATUS as Record<string, number>)[code] ?? 500;
}
