import { statusOf, type TErrorCode } from "../../contracts/errors.js";

/**
 * The one error type that crosses module boundaries. The HTTP layer turns it into
 * `{error:{code,message,details}}` with the status from the code table in contracts/errors.ts.
 */
export class AppError extends Error {
  readonly code: TErrorCode;
  readonly details: Record<string, unknown> | undefined;
  readonly status: number;

  constructor(code: TErrorCode, message: string, details?: Record<string, unknown>, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "AppError";
    this.code = code;
    this.details = details;
    this.status = statusOf(code);
  }

  toBody() {
    return { error: { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) } };
  }
}

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}

/** Turns zod issues into one readable message plus field details. */
export function validationError(
  issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>,
  what = "request",
): AppError {
  const first = issues[0];
  const field = first ? first.path.map(String).join(".") : "";
  const message = first ? `Invalid ${what}: ${field ? `${field}: ` : ""}${first.message}` : `Invalid ${what}`;
  return new AppError("VALIDATION_ERROR", message, {
    issues: issues.slice(0, 20).map((i) => ({ path: i.path.map(String).join("."), message: i.message })),
    ...(field ? { field } : {}),
  });
}

/**
 * A key the data directory's history depends on is missing or is not the one that wrote it.
 * The server must not start (a new key would silently orphan the history); the message says
 * which file and how to put it back.
 */
export class DataKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DataKeyError";
  }
}
