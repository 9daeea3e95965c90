import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import type pg from "pg";

/**
 * Applies one module's PostgreSQL migrations (drizzle-kit's folder, tracked in the module's own
 * schema) as the database owner, under the module's advisory lock, so processes booting together
 * apply them one at a time. Idempotent.
 */
export async function migrateModule(
  pool: pg.Pool,
  module: { migrationsFolder: string; schema: string; lock: number },
): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [module.lock]);
    try {
      await migrate(drizzle(client), {
        migrationsFolder: module.migrationsFolder,
        migrationsSchema: module.schema,
        migrationsTable: "__migrations",
      });
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [module.lock]);
    }
  } finally {
    client.release();
  }
}
