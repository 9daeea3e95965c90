import { fileURLToPath } from "node:url";
import type pg from "pg";
import { migrateModule } from "../../shared/pg-migrate.js";

const MIGRATIONS = fileURLToPath(new URL("./migrations", import.meta.url));

/** Taken while migrating, so processes booting together apply the gateway's migrations one at a time. */
const MIGRATION_LOCK = 0x4c4f4747; // "LOGG"

/**
 * Applies the gateway's PostgreSQL migrations (schema `gateway`, its tables, the
 * `logline_gateway_writer` role) as the database owner, under an advisory lock. Idempotent.
 */
export function migratePgGateway(pool: pg.Pool): Promise<void> {
  return migrateModule(pool, { migrationsFolder: MIGRATIONS, schema: "gateway", lock: MIGRATION_LOCK });
}
