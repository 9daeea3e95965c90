import { z } from "zod";
import { oneOf } from "../shared/env.js";

/** The ledger's settings: where it is stored, how hard a commit waits for the disk, and the Merkle log's name. */

function isPostgresUrl(v: string): boolean {
  if (!URL.canParse(v)) return false;
  const { protocol } = new URL(v);
  return protocol === "postgres:" || protocol === "postgresql:";
}

export const LEDGER_ENV = z.object({
  DATABASE_URL: z
    .string()
    .trim()
    .refine(isPostgresUrl, { message: "DATABASE_URL must be a postgres:// or postgresql:// URL" })
    .optional(),
  LEDGER_SYNC: oneOf("LEDGER_SYNC", ["full", "normal"]).optional(),
  LEDGER_LOG_NAME: z
    .string()
    .trim()
    .regex(/^[^\s+]{1,200}$/, "LEDGER_LOG_NAME: no spaces or '+', at most 200 characters (e.g. chat.example.com)")
    .optional(),
});

export interface LedgerSettings {
  /** The PostgreSQL ledger the CLI's `migrate-to-pg` copies into and `verify` checks (the server still runs on SQLite). */
  databaseUrl?: string;
  ledgerSync: "full" | "normal";
  /** The Merkle log's name: key name of signed checkpoints, origins `<name>/<tenant_id>`. */
  logName: string;
}

/** `publicUrl` names the log after the server's host when LEDGER_LOG_NAME is unset. */
export function ledgerSettings(e: z.infer<typeof LEDGER_ENV>, publicUrl: string | undefined): LedgerSettings {
  return {
    ...(e.DATABASE_URL ? { databaseUrl: e.DATABASE_URL } : {}),
    ledgerSync: e.LEDGER_SYNC ?? "full",
    logName: e.LEDGER_LOG_NAME ?? (publicUrl ? new URL(publicUrl).host : "logline.local"),
  };
}
