import pg from "pg";
import { createPgLedger } from "../../../src/ledger/pg/pg-ledger.js";
import type { CreatePgLedgerDeps, PgLedgerApi } from "../../../src/ledger/pg/pg-ledger-api.js";
import { migratePgLedger } from "../../../src/ledger/pg/store.js";
import { startPostgres, type PgCluster } from "../../support/postgres.js";
import { tempDir } from "../helpers.js";

let cluster: Promise<PgCluster> | undefined;
let databases = 0;

/** One cluster per test file, started on first use; `stopSharedPostgres` (afterAll) ends it. */
function sharedPostgres(): Promise<PgCluster> {
  cluster ??= startPostgres();
  return cluster;
}

export async function stopSharedPostgres(): Promise<void> {
  const c = cluster;
  cluster = undefined;
  await (await c)?.stop();
}

/** A new empty database on this file's cluster: its URL for the superuser, who owns what it creates. */
export async function newPgDatabase(prefix = "db"): Promise<string> {
  return (await sharedPostgres()).createDatabase(`${prefix}_${process.pid}_${++databases}`);
}

export interface TestPgLedger {
  ledger: PgLedgerApi;
  /** The owner's connections (migrations, tampering a test means to catch). */
  owner: pg.Pool;
  /** The running server's connections: a login holding only `logline_ledger_writer`. */
  pool: pg.Pool;
  dir: string;
  cleanup(): Promise<void>;
}

/**
 * A PostgreSQL ledger on a database of its own: migrated by the owner, then run as a login that
 * may only read, insert and move heads, as a server would.
 */
export async function openPgLedger(extra: Partial<CreatePgLedgerDeps> = {}): Promise<TestPgLedger> {
  const c = await sharedPostgres();
  const url = await c.createDatabase(`ledger_${process.pid}_${++databases}`);
  const owner = new pg.Pool({ connectionString: url, max: 2 });
  await migratePgLedger(owner);
  await owner.query(`DO $$ BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'logline_app') THEN
      CREATE ROLE logline_app LOGIN IN ROLE logline_ledger_writer;
    END IF;
  END $$`);
  const pool = new pg.Pool({ connectionString: url.replace("postgres@", "logline_app@"), max: 4 });
  const { dir, cleanup } = tempDir("pg-ledger-");
  const ledger = await createPgLedger({ pool, migrate: false, dataDir: dir, ...extra });
  return {
    ledger,
    owner,
    pool,
    dir,
    async cleanup() {
      await ledger.close();
      await pool.end();
      await owner.end();
      cleanup();
    },
  };
}
