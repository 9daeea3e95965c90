import {
  chmodSync,
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import Database from "better-sqlite3";
import type { TVerifyReport } from "../../contracts/ledger.js";
import {
  RETIRED_KEYS_DIR,
  SIGNING_KEY_FILE,
  verifierFromKey,
  verifierFromPublicKey,
  verifyLedger,
} from "../ledger/index.js";
import { databasePath, isDatabaseFile } from "./data-dir.js";
import { noProgress, type Progress } from "./progress.js";

/**
 * A backup is one SQLite file: a consistent copy of the live database made with SQLite's online
 * backup API, plus the data dir's other files (the ledger signing key, the vault key, attachments
 * and artifacts) stored in a table of the copy. Without the keys a copy can neither be verified
 * nor decrypt its vault, so they travel with it — which makes a backup as secret as the server.
 */
export const BUNDLE_TABLE = "ops_backup_files";
export const META_TABLE = "ops_backup_meta";

export interface BackupReport {
  file: string;
  bytes: number;
  files: number;
  integrity: string;
  ledger: TVerifyReport[];
  ok: boolean;
}

export interface BackupOptions {
  dataDir: string;
  target: string;
  progress?: Progress;
  /** Pages per backup step after the first; huge by default (see below). */
  pagesPerStep?: number;
}

/**
 * Online backup while the server runs. better-sqlite3 copies in steps; if another connection
 * writes between two steps, SQLite restarts the copy from scratch. Copying everything in the
 * second step keeps that window to one event-loop turn, and under WAL the copy only holds a read
 * snapshot, so the server keeps committing meanwhile. The copy is checked (integrity_check,
 * ledger verify with the bundled key) before it is moved to `target`; a copy that fails is kept
 * as `<target>.failed` for inspection and the report says why.
 */
export async function createBackup(opts: BackupOptions): Promise<BackupReport> {
  const progress = opts.progress ?? noProgress;
  const target = resolve(opts.target);
  const src = databasePath(opts.dataDir);
  if (!existsSync(src)) throw new Error(`No database at ${src}: nothing to back up (is DATA_DIR right?)`);
  mkdirSync(dirname(target), { recursive: true });
  const partial = `${target}.partial-${process.pid}`;
  rmSync(partial, { force: true });

  const live = new Database(src, { fileMustExist: true });
  try {
    live.pragma("busy_timeout = 5000");
    await live.backup(partial, {
      progress: ({ totalPages, remainingPages }) => {
        progress.update(totalPages - remainingPages, totalPages);
        return opts.pagesPerStep ?? 1_000_000_000;
      },
    });
  } finally {
    live.close();
  }
  chmodSync(partial, 0o600);

  const copy = new Database(partial);
  let report: BackupReport;
  try {
    // A backup is one self-contained file: no -wal/-shm beside it.
    copy.pragma("journal_mode = DELETE");
    const files = bundleDataFiles(copy, opts.dataDir);
    report = checkCopy(copy, partial, files);
  } finally {
    copy.close();
  }
  const fd = openSync(partial, "r+");
  fsyncSync(fd);
  closeSync(fd);
  const final = report.ok ? target : `${target}.failed`;
  renameSync(partial, final);
  report.file = final;
  report.bytes = statSync(final).size;
  progress.done(
    report.ok
      ? `${report.bytes.toLocaleString("en")} bytes, ${report.ledger.length} tenant(s) verified`
      : "FAILED verification",
  );
  return report;
}

function bundleDataFiles(copy: Database.Database, dataDir: string): number {
  copy.exec(`CREATE TABLE ${BUNDLE_TABLE} (path TEXT PRIMARY KEY, mode INTEGER NOT NULL, content BLOB NOT NULL);
             CREATE TABLE ${META_TABLE} (key TEXT PRIMARY KEY, value TEXT NOT NULL);`);
  const insert = copy.prepare(`INSERT INTO ${BUNDLE_TABLE} (path, mode, content) VALUES (?, ?, ?)`);
  let n = 0;
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (
        entry.isFile() &&
        !(dir === dataDir && isDatabaseFile(entry.name)) &&
        !entry.name.includes(".partial-")
      ) {
        insert.run(relative(dataDir, full), statSync(full).mode & 0o777, readFileSync(full));
        n++;
      }
    }
  };
  copy.transaction(() => {
    walk(dataDir);
    copy
      .prepare(`INSERT INTO ${META_TABLE} (key, value) VALUES ('created_at', ?), ('format', '1')`)
      .run(new Date().toISOString());
  })();
  return n;
}

/** integrity_check + ledger verify of a backup-format database, with the key bundled in it. */
export function checkCopy(copy: Database.Database, file: string, files: number): BackupReport {
  const integrity = (copy.pragma("integrity_check") as Array<{ integrity_check: string }>)
    .map((r) => r.integrity_check)
    .join("; ");
  let ledger: TVerifyReport[] = [];
  if (integrity === "ok") {
    const key = copy.prepare(`SELECT content FROM ${BUNDLE_TABLE} WHERE path = ?`).pluck().get(SIGNING_KEY_FILE) as
      | Buffer
      | undefined;
    const hasLedger = copy.prepare("SELECT 1 FROM sqlite_master WHERE name = 'ledger_events'").get();
    if (hasLedger) {
      // The current key and the public halves of the keys rotated out, as bundled in the copy.
      const retired = copy
        .prepare(`SELECT content FROM ${BUNDLE_TABLE} WHERE path LIKE ?`)
        .pluck()
        .all(`${RETIRED_KEYS_DIR}/%.pub.pem`) as Buffer[];
      const verifiers = [...(key ? [verifierFromKey(key)] : []), ...retired.map((pem) => verifierFromPublicKey(pem))];
      ledger = verifyLedger({ db: copy, verifiers });
    }
  }
  return { file, bytes: 0, files, integrity, ledger, ok: integrity === "ok" && ledger.every((r) => r.ok) };
}

/** One line per problem, for the CLI and logs. */
export function describeFailures(r: BackupReport): string[] {
  const out: string[] = [];
  if (r.integrity !== "ok") out.push(`integrity_check: ${r.integrity}`);
  for (const t of r.ledger) {
    if (!t.ok && t.first_break)
      out.push(
        `ledger ${t.tenant_id}: first break at seq:${t.first_break.tenant_seq} (${t.first_break.reason}) ${t.first_break.message}`,
      );
  }
  return out;
}
