import { z } from "zod";
import { oneOf } from "../shared/env.js";

/** The ledger's settings: how hard a commit waits for the disk, and the Merkle log's name. */

export const LEDGER_ENV = z.object({
  LEDGER_SYNC: oneOf("LEDGER_SYNC", ["full", "normal"]).optional(),
  LEDGER_LOG_NAME: z
    .string()
    .trim()
    .regex(/^[^\s+]{1,200}$/, "LEDGER_LOG_NAME: no spaces or '+', at most 200 characters (e.g. chat.example.com)")
    .optional(),
});

export interface LedgerSettings {
  ledgerSync: "full" | "normal";
  /** The Merkle log's name: key name of signed checkpoints, origins `<name>/<tenant_id>`. */
  logName: string;
}

/** `publicUrl` names the log after the server's host when LEDGER_LOG_NAME is unset. */
export function ledgerSettings(e: z.infer<typeof LEDGER_ENV>, publicUrl: string | undefined): LedgerSettings {
  return {
    ledgerSync: e.LEDGER_SYNC ?? "full",
    logName: e.LEDGER_LOG_NAME ?? (publicUrl ? new URL(publicUrl).host : "logline.local"),
  };
}
