import type { Env } from "hono";
import type { ModuleDoor, RouteGuard } from "../shared/door.js";
import { createRouter } from "../shared/openapi.js";
import type { LedgerApi } from "./ledger-api.js";
import { type CreateLedgerDeps, createSqliteLedger } from "./ledger.js";
import { createPgLedger } from "./pg/pg-ledger.js";
import type { CreatePgLedgerDeps, PgLedgerApi } from "./pg/pg-ledger-api.js";
import { createLedgerRoutes } from "./routes.js";

/** What the ledger is built on: storage, time, ids, its signer and policy (tests inject them), and who hears of errors and latency. */
export type LedgerDeps = Omit<CreateLedgerDeps, keyof LedgerConfig>;

/** The ledger's settings (see LedgerSettings for the environment they come from). */
export type LedgerConfig = Pick<CreateLedgerDeps, "sync" | "logName" | "policyParams" | "maxBatchWaitMs">;

/** The ledger's door: `api` mirrors /v1/ledger, `routes` serves it. */
export type LedgerDoor = ModuleDoor<LedgerApi>;

/**
 * The ledger on SQLite behind its door. Built means booted (the fold and the heads loaded): other
 * modules may read and append at once. Without a guard its routes answer loopback clients only.
 */
export function createLedger(deps: LedgerDeps, config: LedgerConfig = {}): LedgerDoor {
  const api = createSqliteLedger({ ...deps, ...config });
  return {
    api,
    routes<E extends Env>(guard?: RouteGuard<E>) {
      if (!guard) return createLedgerRoutes(api);
      const app = createRouter<E>();
      app.use("/v1/ledger/*", guard.check);
      app.route("/", createLedgerRoutes<E>(api, { loopbackOnly: false, readFilter: guard.events }));
      return app;
    },
    start: async () => {},
    close: () => api.close(),
  };
}

/** What the PostgreSQL ledger is built on: its connections, and the same time, ids, key location and hooks. */
export type PgLedgerDoorDeps = Omit<CreatePgLedgerDeps, "engine" | "fold" | "signer" | "migrate" | "maxBatchWaitMs">;

/**
 * The ledger on PostgreSQL behind the same door: migrated (under its advisory lock), booted (every
 * tenant folded) and following other processes' commits once the promise resolves.
 */
export async function createPgLedgerDoor(deps: PgLedgerDoorDeps): Promise<ModuleDoor<PgLedgerApi>> {
  const api = await createPgLedger(deps);
  return {
    api,
    routes<E extends Env>(guard?: RouteGuard<E>) {
      if (!guard) return createLedgerRoutes(api);
      const app = createRouter<E>();
      app.use("/v1/ledger/*", guard.check);
      app.route("/", createLedgerRoutes<E>(api, { loopbackOnly: false, readFilter: guard.events }));
      return app;
    },
    start: async () => {},
    close: () => api.close(),
  };
}
