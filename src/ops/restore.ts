import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import Database from "better-sqlite3";
import { BUNDLE_TABLE, META_TABLE, checkCopy, describeFailures, type BackupReport } from "./backup.js";
import { DB_FILE, assertServerStopped } from "./data-dir.js";
import { assertSchemaNotNewer } from "./migration-guard.js";
import { noProgress, type Progress } from "./progress.js";

export class RestoreRefused extends Error {
  constructor(
    message: string,
    readonly problems: string[],
  ) {
    super(message);
    this.name = "RestoreRefused";
  }
}

export interface RestoreReport {
  dataDir: string;
  /** Where the data dir's previous contents were moved, or null when it was empty. */
  previous: string | null;
  check: BackupReport;
}

/**
 * Puts a backup in place of DATA_DIR's contents, with the server stopped. The backup is checked
 * first, on a scratch copy (integrity_check, ledger verify with its bundled key, schema not from
 * a newer version); a copy that fails is refused and nothing in DATA_DIR changes. The previous
 * contents are moved aside to `<DATA_DIR>.pre-restore-<time>`, never deleted.
 */
export function restoreBackup(opts: {
  file: string;
  dataDir: string;
  progress?: Progress;
  now?: () => Date;
}): RestoreReport {
  const progress = opts.progress ?? noProgress;
  const file = resolve(opts.file);
  const dataDir = resolve(opts.dataDir);
  if (!existsSync(file)) throw new RestoreRefused(`No backup file at ${file}`, []);
  assertServerStopped(dataDir, "restore");
  mkdirSync(dataDir, { recursive: true });

  const work = join(dataDir, `.restore-${process.pid}`);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { mode: 0o700 });
  try {
    const scratch = join(work, DB_FILE);
    copyFileSync(file, scratch);
    progress.update(1, 3);

    let check: BackupReport;
    let files: Array<{ path: string; mode: number; content: Buffer }>;
    const db = openBackup(scratch, file);
    try {
      check = checkCopy(db, file, 0);
      if (!check.ok)
        throw new RestoreRefused(`Refusing to restore ${file}: it does not verify`, describeFailures(check));
      files = db.prepare(`SELECT path, mode, content FROM ${BUNDLE_TABLE} ORDER BY path`).all() as typeof files;
      check.files = files.length;
      db.exec(`DROP TABLE ${BUNDLE_TABLE}; DROP TABLE ${META_TABLE};`);
    } finally {
      db.close();
    }
    assertSchemaNotNewer(scratch);
    progress.update(2, 3);

    const previous = moveAside(dataDir, work, opts.now?.() ?? new Date());
    for (const f of files) {
      const dest = resolve(dataDir, f.path);
      // Paths come from a file someone handed us: never write outside the data dir.
      if (!dest.startsWith(dataDir + sep))
        throw new RestoreRefused(`Refusing to restore ${file}: bundled path ${f.path} escapes the data dir`, []);
      mkdirSync(dirname(dest), { recursive: true });
      writeFileSync(dest, f.content, { mode: f.mode || 0o600 });
    }
    renameSync(scratch, join(dataDir, DB_FILE));
    progress.done(
      `restored ${check.ledger.length} tenant(s), ${files.length} file(s)${previous ? `; previous data moved to ${previous}` : ""}`,
    );
    return { dataDir, previous, check };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function openBackup(path: string, original: string): Database.Database {
  let db: Database.Database;
  try {
    db = new Database(path, { fileMustExist: true });
    db.prepare("SELECT count(*) FROM sqlite_master").get();
  } catch (err) {
    throw new RestoreRefused(`Refusing to restore ${original}: not a SQLite database (${(err as Error).message})`, []);
  }
  const bundled = db.prepare("SELECT 1 FROM sqlite_master WHERE name = ?").get(BUNDLE_TABLE);
  if (!bundled) {
    db.close();
    throw new RestoreRefused(
      `Refusing to restore ${original}: not a LogLine backup (made with \`npm run backup\`)`,
      [],
    );
  }
  return db;
}

/** Moves everything in dataDir except the scratch dir to a sibling folder; null when there was nothing. */
function moveAside(dataDir: string, keep: string, now: Date): string | null {
  const entries = readdirSync(dataDir).filter((e) => join(dataDir, e) !== keep);
  if (entries.length === 0) return null;
  const aside = `${dataDir}.pre-restore-${now.toISOString().replace(/[:.]/g, "-")}`;
  mkdirSync(aside, { recursive: true, mode: 0o700 });
  for (const e of entries) renameSync(join(dataDir, e), join(aside, e));
  return aside;
}
