import { fileURLToPath } from "node:url";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import type { Db } from "../shared/db.js";

/** Applies the gateway's own migrations; its own migrations table keeps it apart from other modules. */
export function migrateGateway(db: Db): void {
  migrate(drizzle(db), {
    migrationsFolder: fileURLToPath(new URL("./migrations", import.meta.url)),
    migrationsTable: "__gateway_migrations",
  });
}
