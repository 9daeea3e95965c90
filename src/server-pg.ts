import pg from "pg";
import { createPgIdempotencyStore, migratePgGateway, type Logger } from "./gateway/index.js";
import { createPgLedgerDoor, type PgLedgerApi } from "./ledger/index.js";
import { createPgSharedInbox, migratePgOffice } from "./office/index.js";
import type { Clock } from "./shared/clock.js";
import type { ModuleDoor } from "./shared/door.js";
import type { IdGenerator } from "./shared/ids.js";

/** Connections per process: appends of different tenants, reads, the inbox and idempotency claims share them. */
const POOL_SIZE = 8;

/** What a server on PostgreSQL builds its modules on (see createServer). */
export interface PgBackend {
  pool: pg.Pool;
  ledger: ModuleDoor<PgLedgerApi>;
  idempotency: ReturnType<typeof createPgIdempotencyStore>;
  sharedInbox: ReturnType<typeof createPgSharedInbox>;
  close(): Promise<void>;
}

/**
 * Opens the shared database named by DATABASE_URL: applies the ledger's, the gateway's and
 * Office's migrations (each under its module's advisory lock, so processes booting together take
 * turns), then boots the ledger (every tenant folded, other processes' commits followed) and the
 * shared stores: Idempotency-Keys and Office's inbox. The login must own the schemas it migrates.
 */
export async function openPgBackend(opts: {
  url: string;
  dataDir: string;
  clock: Clock;
  ids?: IdGenerator;
  logger: Logger;
  logName?: string;
  policyParams?: Readonly<Record<string, number>>;
}): Promise<PgBackend> {
  const pool = new pg.Pool({ connectionString: opts.url, max: POOL_SIZE, application_name: "logline" });
  // An idle connection the server dropped is replaced on next use; the error must not stop the process.
  pool.on("error", (err) => opts.logger.warn({ err }, "a PostgreSQL connection failed"));
  try {
    await migratePgGateway(pool);
    await migratePgOffice(pool);
    const ledger = await createPgLedgerDoor({
      pool,
      dataDir: opts.dataDir,
      clock: opts.clock,
      ...(opts.ids ? { ids: opts.ids } : {}),
      ...(opts.logName ? { logName: opts.logName } : {}),
      ...(opts.policyParams ? { policyParams: opts.policyParams } : {}),
      onListenerError: (err) => opts.logger.error({ err }, "ledger listener failed"),
    });
    return {
      pool,
      ledger,
      idempotency: createPgIdempotencyStore({ pool, clock: opts.clock }),
      sharedInbox: createPgSharedInbox({
        pool,
        ledger: ledger.api,
        onError: (err, where) => opts.logger.error({ err, where }, "office inbox"),
      }),
      async close() {
        await ledger.close();
        await pool.end();
      },
    };
  } catch (err) {
    await pool.end().catch(() => {});
    throw err;
  }
}
