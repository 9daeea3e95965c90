import pg from "pg";
import {
  createPgIdempotencyStore,
  createPgRateLimits,
  migratePgGateway,
  pgAuthRows,
  type Logger,
} from "./gateway/index.js";
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
  /** Sign-in state (tokens and sessions, sign-in links, invites, passkey challenges) in `gateway.*`. */
  authRows: ReturnType<typeof pgAuthRows>;
  /** Rate-limit buckets in `gateway.rate_buckets`. */
  rateLimits: ReturnType<typeof createPgRateLimits>;
  sharedInbox: ReturnType<typeof createPgSharedInbox>;
  close(): Promise<void>;
}

/**
 * Opens the shared database named by DATABASE_URL: applies the ledger's, the gateway's and
 * Office's migrations (each under its module's advisory lock, so processes booting together take
 * turns), then boots the ledger (every tenant folded, other processes' commits followed) and the
 * shared stores: Idempotency-Keys, sign-in state and Office's inbox. The login must own the schemas it migrates.
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
      authRows: pgAuthRows({ pool, onError: (err) => opts.logger.error({ err }, "a sign-in write failed") }),
      rateLimits: createPgRateLimits({
        pool,
        clock: opts.clock,
        onError: (err) => opts.logger.warn({ err }, "shared rate limit unavailable: this process's own decides"),
      }),
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

/** The advisory lock whose holder runs Office: `hashtextextended('logline:office', 0)`. */
const OFFICE_LEASE = "SELECT pg_try_advisory_lock(hashtextextended('logline:office', 0)) AS ok";

export interface OfficeLease {
  /** True while this process holds the lease. */
  held(): boolean;
  close(): Promise<void>;
}

/**
 * Office's lease: one process on the database runs Office (answering the inbox, the job engine and
 * its retries, the mail and calendar workers). The lease is a session advisory lock on a
 * connection of its own; the others try for it every `retryMs`. The holder pings its connection
 * as often: when the connection fails, PostgreSQL has released the lock (or soon will), so
 * `onLost` stops the work at once. Resolves after the first attempt (a process booting alone holds
 * it by then).
 */
export async function holdOfficeLease(opts: {
  url: string;
  logger: Logger;
  onAcquired: () => Promise<void>;
  onLost: () => void;
  retryMs?: number;
}): Promise<OfficeLease> {
  const retryMs = opts.retryMs ?? 2000;
  let client: pg.Client | undefined;
  let held = false;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;

  const later = () => {
    clearTimeout(timer);
    if (!closed) timer = setTimeout(() => void (held ? ping() : attempt()), retryMs);
  };
  const lost = (err?: unknown) => {
    const c = client;
    client = undefined;
    c?.end().catch(() => {});
    if (held) {
      held = false;
      opts.logger.warn({ err }, "lost the Office lease: Office stops here");
      opts.onLost();
    }
    later();
  };
  async function attempt(): Promise<void> {
    if (closed) return;
    try {
      if (!client) {
        const c = new pg.Client({
          connectionString: opts.url,
          application_name: `logline-office-lease-${process.pid}`,
        });
        c.on("error", lost);
        await c.connect();
        client = c;
      }
      const { rows } = await client.query<{ ok: boolean }>(OFFICE_LEASE);
      if (rows[0]?.ok && !closed) {
        held = true;
        opts.logger.info({}, "holding the Office lease: Office runs here");
        await opts.onAcquired();
      }
    } catch (err) {
      lost(err);
      return;
    }
    later();
  }
  async function ping(): Promise<void> {
    const c = client;
    if (!c) return lost();
    let deadline: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        c.query("SELECT 1"),
        new Promise((_, reject) => {
          deadline = setTimeout(() => reject(new Error("the lease connection did not answer")), retryMs);
        }),
      ]);
    } catch (err) {
      return lost(err);
    } finally {
      clearTimeout(deadline);
    }
    later();
  }

  await attempt();
  return {
    held: () => held,
    async close() {
      closed = true;
      clearTimeout(timer);
      held = false;
      const c = client;
      client = undefined;
      await c?.end().catch(() => {});
    },
  };
}
