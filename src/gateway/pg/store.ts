import { fileURLToPath } from "node:url";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import type pg from "pg";

const MIGRATIONS = fileURLToPath(new URL("./migrations", import.meta.url));

/** Taken while migrating, so processes booting together apply the gateway's migrations one at a time. */
const MIGRATION_LOCK = 0x4c4f4747; // "LOGG"

/**
 * Applies the gateway's PostgreSQL migrations (schema `gateway`, its tables, the
 * `logline_gateway_writer` role) as the database owner, under an advisory lock. Idempotent.
 */
export async function migratePgGateway(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
    try {
      await migrate(drizzle(client), {
        migrationsFolder: MIGRATIONS,
        migrationsSchema: "gateway",
        migrationsTable: "__migrations",
      });
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}
