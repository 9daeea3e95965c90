import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { fileURLToPath } from "node:url";
import type { Db } from "../shared/db.js";

const MIGRATIONS = fileURLToPath(new URL("./migrations", import.meta.url));

/** Applies Office's generated migrations (idempotent: applied ones are recorded in `__office_migrations`). */
export function migrateOffice(db: Db): void {
  migrate(drizzle(db), { migrationsFolder: MIGRATIONS, migrationsTable: "__office_migrations" });
}
