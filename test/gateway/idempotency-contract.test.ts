import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import pg from "pg";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  CLAIM_MS,
  type IdempotencyStore,
  type IdemScope,
  keyHashOf,
  sealedFor,
} from "../../src/gateway/idempotency.js";
import { createIdempotencyStore } from "../../src/gateway/idempotency-store.js";
import { migrateGateway } from "../../src/gateway/migrate.js";
import { createPgIdempotencyStore } from "../../src/gateway/pg/idempotency-pg.js";
import { migratePgGateway } from "../../src/gateway/pg/store.js";
import { createManualClock } from "../../src/shared/clock.js";
import { type Db, openDatabase } from "../../src/shared/db.js";
import { tempDir } from "../ledger/helpers.js";
import { newPgDatabase, stopSharedPostgres } from "../ledger/pg/pg-helpers.js";

/**
 * One contract for Idempotency-Keys, held by the SQLite store and the PostgreSQL one: claims are
 * rows, so a second store on the same database (another process) sees them. The clock is the
 * test's own: it starts at a stated instant and moves only when told.
 */

const T0 = Date.parse("2026-03-02T08:30:00.000Z");

/** A store on the shared database, as one process would hold it, and a way to run a transaction. */
interface Opened {
  store(): IdempotencyStore<unknown, void | Promise<void>>;
  /** Runs `fn` in a transaction on the store's database, committed or rolled back. */
  inTx(fn: (tx: unknown) => void | Promise<void>, commit: boolean): Promise<void>;
  state(scope: IdemScope): Promise<string | undefined>;
  sealed(scope: IdemScope): Promise<string | null | undefined>;
  close(): Promise<void>;
}

interface Backend {
  name: string;
  open(clock: ReturnType<typeof createManualClock>): Promise<Opened>;
}

const ROLLBACK = new Error("rollback");

const sqlite: Backend = {
  name: "SQLite",
  async open(clock) {
    const { dir, cleanup } = tempDir("idem-");
    const db = openDatabase({ path: join(dir, "logline.sqlite") });
    migrateGateway(db);
    const row = (scope: IdemScope) =>
      db
        .prepare(
          "SELECT state, sealed_response FROM gateway_idempotency_keys WHERE tenant_id = ? AND entity_id = ? AND key_hash = ?",
        )
        .get(scope.tenantId, scope.entityId, keyHashOf(scope)) as
        | { state: string; sealed_response: string | null }
        | undefined;
    return {
      // Stores standing for several processes on one database: none may drop another's claims.
      store: () => createIdempotencyStore({ db, clock, dropStaleClaims: false }) as IdempotencyStore<unknown, void>,
      async inTx(fn, commit) {
        try {
          db.transaction(() => {
            void fn(db);
            if (!commit) throw ROLLBACK;
          })();
        } catch (e) {
          if (e !== ROLLBACK) throw e;
        }
      },
      state: async (scope) => row(scope)?.state,
      sealed: async (scope) => row(scope)?.sealed_response,
      async close() {
        db.close();
        cleanup();
      },
    };
  },
};

const postgres: Backend = {
  name: "PostgreSQL",
  async open(clock) {
    const url = await newPgDatabase("idem");
    const owner = new pg.Pool({ connectionString: url, max: 2 });
    await migratePgGateway(owner);
    // The server's login holds only the gateway's writer role.
    await owner.query(`DO $$ BEGIN
      IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'logline_gw') THEN
        CREATE ROLE logline_gw LOGIN IN ROLE logline_gateway_writer;
      END IF;
    END $$`);
    const pool = new pg.Pool({ connectionString: url.replace("postgres@", "logline_gw@"), max: 4 });
    const row = async (scope: IdemScope) =>
      (
        await owner.query<{ state: string; sealed_response: string | null }>(
          "SELECT state, sealed_response FROM gateway.idempotency_keys WHERE tenant_id = $1 AND entity_id = $2 AND key_hash = $3",
          [scope.tenantId, scope.entityId, keyHashOf(scope)],
        )
      ).rows[0];
    return {
      store: () => createPgIdempotencyStore({ pool, clock }) as IdempotencyStore<unknown, Promise<void>>,
      async inTx(fn, commit) {
        const client = await pool.connect();
        try {
          await client.query("BEGIN");
          try {
            await fn(client);
          } finally {
            await client.query(commit ? "COMMIT" : "ROLLBACK");
          }
        } finally {
          client.release();
        }
      },
      state: async (scope) => (await row(scope))?.state,
      sealed: async (scope) => (await row(scope))?.sealed_response,
      async close() {
        await pool.end();
        await owner.end();
      },
    };
  },
};

afterAll(stopSharedPostgres);

let n = 0;
/** A request's scope; a new object each time, as each HTTP request makes its own. */
const request = (key: string, body = "{}"): IdemScope => ({
  tenantId: "tnt_idem",
  entityId: "ent_dan",
  key,
  requestHash: `hash of ${body}`,
});
/** Begins as a request handler does (awaited: SQLite answers at once, PostgreSQL later). */
const begin = async (store: IdempotencyStore<unknown, void | Promise<void>>, scope: IdemScope) => store.begin(scope);
const response = { status: 202, body: { created_event_ids: ["evt_one"], token: "secret-token-value" } };

describe.each([sqlite, postgres])("Idempotency-Keys on $name", (backend) => {
  let db: Opened;
  let clock: ReturnType<typeof createManualClock>;
  const open = async () => {
    clock = createManualClock(T0);
    db = await backend.open(clock);
    return db;
  };
  afterEach(async () => db?.close());

  /** Begins, records in a committed transaction and releases: one request that succeeded. */
  async function succeed(store: IdempotencyStore<unknown, void | Promise<void>>, scope: IdemScope) {
    const begun = await store.begin(scope);
    expect(begun.kind).toBe("new");
    await db.inTx((tx) => store.record(scope, response, tx), true);
    if (begun.kind === "new") await begun.release(true);
  }

  it("replays a recorded response for the same key and request, sealed at rest, in any process", async () => {
    await open();
    const key = `key-${++n}`;
    await succeed(db.store(), request(key));
    expect(await db.state(request(key))).toBe("done");
    const sealed = await db.sealed(request(key));
    expect(sealed).toBeTruthy();
    expect(sealed).not.toContain("secret-token-value");
    for (const store of [db.store(), db.store()]) {
      expect(await store.begin(request(key))).toEqual({ kind: "replay", response });
    }
  });

  it("refuses the key for a different request, done or still running", async () => {
    await open();
    const store = db.store();
    await succeed(store, request("done-key"));
    await expect(begin(store, request("done-key", '{"other":1}'))).rejects.toMatchObject({
      code: "IDEMPOTENCY_KEY_REUSED",
    });
    await store.begin(request("running-key"));
    await expect(begin(db.store(), request("running-key", '{"other":1}'))).rejects.toMatchObject({
      code: "IDEMPOTENCY_KEY_REUSED",
    });
  });

  it("answers IDEMPOTENCY_IN_PROGRESS while a claim runs, here or in another process, until it expires", async () => {
    await open();
    const a = db.store();
    const b = db.store();
    const first = await a.begin(request("busy"));
    expect(first.kind).toBe("new");
    expect(await db.state(request("busy"))).toBe("running");
    await expect(begin(a, request("busy"))).rejects.toMatchObject({ code: "IDEMPOTENCY_IN_PROGRESS" });
    await clock.advance(CLAIM_MS - 1);
    await expect(begin(b, request("busy"))).rejects.toMatchObject({ code: "IDEMPOTENCY_IN_PROGRESS" });
  });

  it("lets another process take an expired claim over; the stalled request can no longer record", async () => {
    await open();
    const stalled = db.store();
    const other = db.store();
    const slow = request("stall");
    expect((await stalled.begin(slow)).kind).toBe("new");
    await clock.advance(CLAIM_MS);
    const retry = request("stall");
    const taken = await other.begin(retry);
    expect(taken.kind).toBe("new");
    // The stalled request finally commits: its record refuses, so its transaction rolls back.
    await expect(db.inTx((tx) => stalled.record(slow, response, tx), true)).rejects.toMatchObject({
      code: "IDEMPOTENCY_IN_PROGRESS",
    });
    expect(await db.state(retry)).toBe("running");
    await db.inTx((tx) => other.record(retry, response, tx), true);
    if (taken.kind === "new") await taken.release(true);
    expect(await stalled.begin(request("stall"))).toEqual({ kind: "replay", response });
  });

  it("a request that ends without recording releases its claim, and a retry runs at once", async () => {
    await open();
    const store = db.store();
    const failed = await store.begin(request("fails"));
    if (failed.kind === "new") await failed.release(false);
    expect(await db.state(request("fails"))).toBeUndefined();
    // A success that appended nothing holds no response to replay either.
    const quiet = await store.begin(request("fails"));
    expect(quiet.kind).toBe("new");
    if (quiet.kind === "new") await quiet.release(true);
    expect(await db.state(request("fails"))).toBeUndefined();
    expect((await db.store().begin(request("fails"))).kind).toBe("new");
  });

  it("a record inside a rolled-back transaction leaves no done row; the release clears the claim", async () => {
    await open();
    const store = db.store();
    const scope = request("rolled-back");
    const begun = await store.begin(scope);
    await db.inTx((tx) => store.record(scope, response, tx), false);
    expect(await db.state(scope)).toBe("running");
    if (begun.kind === "new") await begun.release(false);
    expect(await db.state(scope)).toBeUndefined();
    expect((await db.store().begin(request("rolled-back"))).kind).toBe("new");
  });

  it("a claim its own process no longer holds is taken over there at once; another process waits for it to expire", async () => {
    await open();
    const here = db.store();
    const scope = request("orphan");
    const begun = await here.begin(scope);
    // Recorded, then the commit failed after all: the row stays running, held by no request.
    await db.inTx((tx) => here.record(scope, response, tx), false);
    if (begun.kind === "new") await begun.release(true);
    await expect(begin(db.store(), request("orphan"))).rejects.toMatchObject({ code: "IDEMPOTENCY_IN_PROGRESS" });
    expect((await here.begin(request("orphan"))).kind).toBe("new");
  });

  it("prunes what is older than the retention, and the key is free again", async () => {
    await open();
    const store = db.store();
    await succeed(store, request("old"));
    await clock.advance(3600_000);
    await succeed(store, request("newer"));
    await clock.advance(23 * 3600_000 + 1);
    expect(await store.prune()).toBe(1);
    expect(await db.state(request("old"))).toBeUndefined();
    expect(await db.state(request("newer"))).toBe("done");
    expect((await store.begin(request("old"))).kind).toBe("new");
  });
});

describe("Idempotency-Keys on a SQLite database of one process", () => {
  it("a claim left running by a process that stopped is dropped when the next one starts", async () => {
    const { dir, cleanup } = tempDir("idem-restart-");
    const db = openDatabase({ path: join(dir, "logline.sqlite") });
    try {
      migrateGateway(db);
      const clock = createManualClock(T0);
      const killed = createIdempotencyStore({ db, clock });
      expect((await killed.begin(request("cut-short"))).kind).toBe("new");
      // The process died with the request running; its successor starts a second later.
      await clock.advance(1000);
      const next = createIdempotencyStore({ db, clock });
      expect((await next.begin(request("cut-short"))).kind).toBe("new");
    } finally {
      db.close();
      cleanup();
    }
  });

  it("upgrade in place: responses stored before claims were rows still replay", async () => {
    const { dir, cleanup } = tempDir("idem-upgrade-");
    let db: Db | undefined;
    try {
      // The gateway's migrations as the release before this one had them.
      const folder = join(dir, "migrations");
      cpSync(fileURLToPath(new URL("../../src/gateway/migrations", import.meta.url)), folder, { recursive: true });
      const journalPath = join(folder, "meta", "_journal.json");
      const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: Array<{ tag: string }> };
      const upTo = journal.entries.findIndex((e) => e.tag.endsWith("_idempotency_claims"));
      writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, upTo) }));
      db = openDatabase({ path: join(dir, "logline.sqlite") });
      migrate(drizzle(db), { migrationsFolder: folder, migrationsTable: "__gateway_migrations" });
      const clock = createManualClock(T0);
      const scope = request("from-before");
      // A response as the old store wrote it: no state, no claim.
      const { keyHash, sealed } = sealedFor(scope, response);
      db.prepare(
        "INSERT INTO gateway_idempotency_keys (tenant_id, entity_id, key_hash, request_hash, status, sealed_response, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
      ).run(scope.tenantId, scope.entityId, keyHash, scope.requestHash, response.status, sealed, T0);
      migrateGateway(db);
      const store = createIdempotencyStore({ db, clock });
      expect(await store.begin(request("from-before"))).toEqual({ kind: "replay", response });
      expect((await store.begin(request("new-one"))).kind).toBe("new");
    } finally {
      db?.close();
      cleanup();
    }
  });
});
