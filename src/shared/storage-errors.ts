import { AppError } from "./errors.js";

/**
 * Failures that are about the storage, not about the request: SQLite's (the whole commit group
 * fails with them and the next append retries from a clean state) and the file system's (an
 * attachment or an Office file). A full disk is 507 so an operator can tell it from an
 * unreadable or read-only data dir (503); both say nothing was written.
 */
const SQLITE_STORAGE = /^SQLITE_(FULL|IOERR|READONLY|CANTOPEN|CORRUPT|NOTADB|BUSY|LOCKED|NOMEM|PROTOCOL)/;
const FS_FULL = new Set(["ENOSPC", "EDQUOT"]);
const FS_UNAVAILABLE = new Set(["EROFS", "EIO"]);

export function isStorageError(e: unknown): boolean {
  const code = codeOf(e);
  return code !== undefined && (SQLITE_STORAGE.test(code) || FS_FULL.has(code) || FS_UNAVAILABLE.has(code));
}

/** Whether `e` (or what caused it) is a full disk. */
function isDiskFull(e: unknown): boolean {
  const code = codeOf(e);
  return (
    code === "SQLITE_FULL" ||
    (code !== undefined && FS_FULL.has(code)) ||
    (e instanceof AppError && e.code === "STORAGE_FULL")
  );
}

export function toStorageError(e: unknown): AppError {
  if (e instanceof AppError && (e.code === "STORAGE_FULL" || e.code === "STORAGE_UNAVAILABLE")) return e;
  const code = codeOf(e) ?? "UNKNOWN";
  if (isDiskFull(e)) {
    return new AppError(
      "STORAGE_FULL",
      "The server's disk is full; nothing was written. Retry once space is freed.",
      { storage_code: code },
      { cause: e },
    );
  }
  return new AppError(
    "STORAGE_UNAVAILABLE",
    "The server's storage is unavailable; nothing was written.",
    { storage_code: code },
    { cause: e },
  );
}

/** The error's own code, else its cause's (an AppError wrapping a SQLite or fs error). */
function codeOf(e: unknown): string | undefined {
  for (let x: unknown = e, depth = 0; x && depth < 3; x = (x as { cause?: unknown }).cause, depth++) {
    const code = (x as { code?: unknown }).code;
    if (typeof code === "string" && (code.startsWith("SQLITE_") || FS_FULL.has(code) || FS_UNAVAILABLE.has(code)))
      return code;
  }
  return undefined;
}
