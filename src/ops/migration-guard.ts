import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";

/** Modules that own tables, each with `src/<module>/migrations` and a `__<module>_migrations` table. */
const MIGRATING_MODULES = ["ledger", "office", "gateway"] as const;

export class SchemaTooNewError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SchemaTooNewError";
  }
}

interface Journal {
  entries: Array<{ tag: string; when: number }>;
}

/** The newest migration this build knows for a module (drizzle's `when`, ms), or null when it has none. */
function newestKnownMigration(module: string): number | null {
  const file = fileURLToPath(new URL(`../${module}/migrations/meta/_journal.json`, import.meta.url));
  if (!existsSync(file)) return null;
  const journal = JSON.parse(readFileSync(file, "utf8")) as Journal;
  return journal.entries.reduce<number | null>((max, e) => (max === null || e.when > max ? e.when : max), null);
}

/**
 * Refuses a database written by a newer LogLine. Drizzle's migrator alone would skip quietly:
 * it applies only migrations newer than the last one recorded, so an older build would run on
 * tables it does not understand. Each module's migrations table records the `when` of every
 * migration applied; one newer than anything this build ships means the schema moved on.
 * Opens the file read-only and before any module touches it.
 */
export function assertSchemaNotNewer(
  dbPath: string,
  known: (module: string) => number | null = newestKnownMigration,
): void {
  if (!existsSync(dbPath)) return;
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    for (const module of MIGRATING_MODULES) {
      const table = `__${module}_migrations`;
      const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table);
      if (!exists) continue;
      const row = db
        .prepare(`SELECT MAX(CAST(created_at AS INTEGER)) AS newest, COUNT(*) AS n FROM "${table}"`)
        .get() as { newest: number | null; n: number };
      const newestKnown = known(module);
      if (row.newest === null) continue;
      if (newestKnown === null || row.newest > newestKnown) {
        const when = new Date(row.newest).toISOString().slice(0, 10);
        throw new SchemaTooNewError(
          `The database ${dbPath} was written by a newer version of LogLine (its ${module} schema has a migration from ${when} that this version does not know). ` +
            `Run the newer version, or restore a backup taken with this one; nothing was changed.`,
        );
      }
    }
  } finally {
    db.close();
  }
}
