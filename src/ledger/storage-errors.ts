import { AppError } from "../shared/errors.js";

/**
 * SQLite failures that are about the storage, not about the batch: the whole commit group
 * fails with them and the next append retries from a clean state. A full disk is 507 so an
 * operator can tell it from an unreadable or read-only data dir (503).
 */
const STORAGE_CODES = /^SQLITE_(FULL|IOERR|READONLY|CANTOPEN|CORRUPT|NOTADB|BUSY|LOCKED|NOMEM|PROTOCOL)/;

export function isStorageError(e: unknown): boolean {
  const code = sqliteCode(e);
  return code !== undefined && STORAGE_CODES.test(code);
}

export function toStorageError(e: unknown): AppError {
  const code = sqliteCode(e) ?? "UNKNOWN";
  if (code === "SQLITE_FULL") {
    return new AppError("STORAGE_FULL", "The ledger's disk is full; nothing was written. Retry once space is freed.", { sqlite_code: code }, { cause: e });
  }
  return new AppError("STORAGE_UNAVAILABLE", "The ledger's storage is unavailable; nothing was written.", { sqlite_code: code }, { cause: e });
}

function sqliteCode(e: unknown): string | undefined {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("SQLITE_") ? code : undefined;
}
