import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";

export type Db = Database.Database;

/** Whether a transaction handle is a SQLite connection (and not, say, a PostgreSQL client). */
export const isSqliteDb = (tx: unknown): tx is Db => tx instanceof Database;

export interface OpenDbOptions {
  /** `:memory:` or a file path; the folder is created when missing. */
  path: string;
  /** FULL (default) survives power loss; NORMAL is faster and may lose the last commits. */
  sync?: "full" | "normal";
  readonly?: boolean;
}

/**
 * Opens the one SQLite database the process shares. WAL lets readers run while a writer
 * commits; busy_timeout covers the short moments a backup or CLI holds the write lock.
 */
export function openDatabase(opts: OpenDbOptions): Db {
  if (opts.path !== ":memory:") mkdirSync(dirname(opts.path), { recursive: true });
  const db = new Database(opts.path, { readonly: opts.readonly ?? false });
  if (!opts.readonly) db.pragma("journal_mode = WAL");
  db.pragma(`synchronous = ${opts.sync === "normal" ? "NORMAL" : "FULL"}`);
  db.pragma("busy_timeout = 5000");
  db.pragma("foreign_keys = ON");
  return db;
}
