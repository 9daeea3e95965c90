import { execFile } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { migrateSqliteToPg, MigrationRefused } from "../../../src/ledger/index.js";
import { createPgLedger } from "../../../src/ledger/pg/pg-ledger.js";
import { loadOrCreateSigner } from "../../../src/ledger/signing.js";
import { createManualClock } from "../../../src/shared/clock.js";
import { DEFAULT_INSTANT } from "../../support/clock.js";
import { entityRegistered, messageSent, openTestLedger, setupTenant, type TestLedger } from "../helpers.js";
import { newPgDatabase, openPgLedger, stopSharedPostgres } from "./pg-helpers.js";
import { built } from "../../support/built.js";

afterAll(stopSharedPostgres);

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const root = fileURLToPath(new URL("../../..", import.meta.url));
const LOG_NAME = "chat.example.com";

/** `npm run logline -- …` on a data dir, as an operator runs it. */
async function logline(dataDir: string, env: Record<string, string>, ...args: string[]) {
  try {
    const r = await promisify(execFile)(process.execPath, [built("src/cli/logline.ts"), ...args], {
      cwd: root,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", DATA_DIR: dataDir, ...env },
      timeout: 60_000,
    });
    return { code: 0, out: r.stdout, err: r.stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: err.code ?? -1, out: err.stdout ?? "", err: err.stderr ?? "" };
  }
}

/** A SQLite ledger with two tenants, a refused batch (and its policy.violation), and `extra` messages in ten_a. */
async function sqliteLedger(messages = 6): Promise<TestLedger> {
  const t = openTestLedger({ clock: createManualClock(Date.parse(DEFAULT_INSTANT)), logName: LOG_NAME });
  cleanups.push(() => t.cleanup());
  await t.ledger.append({ tenant_id: "ten_a", events: setupTenant("ten_a") });
  await t.ledger.append({
    tenant_id: "ten_b",
    events: [...setupTenant("ten_b"), messageSent("ten_b", "olá, équipe ✓")],
  });
  for (let i = 0; i < messages; i++)
    await t.ledger.append({ tenant_id: "ten_a", events: [messageSent("ten_a", `hello ${i}`)] });
  const outsider = { ...messageSent("ten_a", "let me in"), actor: { entity_id: "ent_bob", actor_type: "human" } };
  await expect(t.ledger.append({ tenant_id: "ten_a", events: [outsider] })).rejects.toThrow();
  await t.ledger.append({ tenant_id: "ten_a", events: [entityRegistered("ten_a", "ent_bob"), messageSent("ten_a")] });
  return t;
}

async function addMessages(t: TestLedger, n: number): Promise<TestLedger> {
  const again = t.reopen({ clock: createManualClock(Date.parse(DEFAULT_INSTANT) + 3_600_000), logName: LOG_NAME });
  for (let i = 0; i < n; i++)
    await again.ledger.append({ tenant_id: "ten_a", events: [messageSent("ten_a", `more ${i}`)] });
  again.close();
  return again;
}

async function target(): Promise<{ url: string; pool: pg.Pool }> {
  const url = await newPgDatabase("migrate");
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  cleanups.push(() => pool.end());
  return { url, pool };
}

function readOnly(t: TestLedger): Database.Database {
  const db = new Database(t.dbPath, { readonly: true });
  cleanups.push(() => db.close());
  return db;
}

/** Every event column, the tree nodes and the checkpoints of the SQLite file, in order. */
function sqliteRows(db: Database.Database) {
  return {
    events: db
      .prepare(
        `SELECT e.tenant_id, e.tenant_seq, e.event_id, e.event_type, e.ts, e.conversation_id, e.job_id, e.trace_id,
           e.actor_entity_id, e.actor_type, e.payload, e.prev_hash, e.hash, t.nodes AS merkle
         FROM ledger_events e JOIN ledger_tree t ON t.seq = e.seq ORDER BY e.tenant_id, e.tenant_seq`,
      )
      .all(),
    checkpoints: db
      .prepare(
        `SELECT tenant_id, tenant_seq, head_hash, signature, key_id, ts FROM ledger_checkpoints ORDER BY tenant_id, tenant_seq, id`,
      )
      .all(),
  };
}

async function pgRows(pool: pg.Pool) {
  const events = await pool.query(
    `SELECT tenant_id, tenant_seq::float8 AS tenant_seq, event_id, event_type, ts, conversation_id, job_id, trace_id,
       actor_entity_id, actor_type, payload, prev_hash, hash, merkle FROM ledger.events ORDER BY tenant_id, tenant_seq`,
  );
  const checkpoints = await pool.query(
    `SELECT tenant_id, tenant_seq::float8 AS tenant_seq, head_hash, signature, key_id, ts FROM ledger.checkpoints
     ORDER BY tenant_id, tenant_seq, id`,
  );
  return { events: events.rows.map((r) => ({ ...r })), checkpoints: checkpoints.rows.map((r) => ({ ...r })) };
}

describe("migrate-to-pg", { timeout: 120_000 }, () => {
  it("copies a SQLite ledger byte for byte, proves both sides agree, and a second run changes nothing", async () => {
    const lite = await sqliteLedger();
    const headA = lite.ledger.head("ten_a");
    const rootA = lite.ledger.tlog.rootAt("ten_a", headA.tenant_seq).toString("base64");
    lite.close();
    const { url, pool } = await target();

    const first = await logline(lite.dir, { DATABASE_URL: url, PUBLIC_URL: `https://${LOG_NAME}` }, "migrate-to-pg");
    expect(first.code, first.err + first.out).toBe(0);
    expect(first.out).toContain(
      `ok      ten_a  ${headA.tenant_seq} events (${headA.tenant_seq} copied, 0 already there)`,
    );
    expect(first.out).toContain(`head seq:${headA.tenant_seq} ${headA.hash}, root ${rootA}`);
    expect(first.out).toMatch(/ok {6}ten_b {2}3 events \(3 copied/);
    expect(first.out).toContain("migrated 2 tenant(s)");

    // Every column of every row, the stored tree nodes and every checkpoint (signatures, ts) as in SQLite.
    const db = readOnly(lite);
    const want = sqliteRows(db);
    expect(want.events.length).toBe(headA.tenant_seq + 3);
    expect(await pgRows(pool)).toEqual(want);

    // A PostgreSQL ledger boots on what was copied and goes on from it with the same key.
    const signer = loadOrCreateSigner(lite.dir);
    const pgl = await createPgLedger({
      pool,
      migrate: false,
      dataDir: lite.dir,
      signer,
      logName: LOG_NAME,
      follow: false,
    });
    expect(pgl.head("ten_a")).toEqual(headA);
    expect((await pgl.tlog.rootAt("ten_a", headA.tenant_seq)).toString("base64")).toBe(rootA);
    expect((await pgl.verify("ten_a")).ok).toBe(true);
    await pgl.close();

    // Again: nothing to copy, nothing changes, the same verdict.
    const second = await migrateSqliteToPg({ db, pool, dataDir: lite.dir, logName: LOG_NAME, pageSize: 3 });
    expect(second.tenants.map((t) => [t.tenant_id, t.copied, t.already, t.differences])).toEqual([
      ["ten_a", 0, headA.tenant_seq, []],
      ["ten_b", 0, 3, []],
    ]);
    expect(await pgRows(pool)).toEqual(want);

    // verify against DATABASE_URL reads PostgreSQL: the same lines as for the SQLite file.
    const sqliteVerify = await logline(lite.dir, {}, "verify");
    const pgVerify = await logline(lite.dir, { DATABASE_URL: url }, "verify");
    expect(pgVerify.code, pgVerify.err).toBe(0);
    expect(pgVerify.out).toContain(`ok     ten_a  ${headA.tenant_seq} events`);
    expect(sqliteVerify.out.split("\n").filter((l) => l.includes("ten_"))).toEqual(
      pgVerify.out.split("\n").filter((l) => l.includes("ten_")),
    );
  });

  it("resumes: an interrupted copy and a source that grew are finished from where PostgreSQL stops", async () => {
    const lite = await sqliteLedger(10);
    lite.close();
    const { pool } = await target();
    const db = readOnly(lite);

    // The connection is lost after the migrations and two page transactions (each takes one pooled client).
    let transactions = 0;
    const failing = new Proxy(pool, {
      get(p, key) {
        if (key === "connect")
          return () => (++transactions > 3 ? Promise.reject(new Error("connection lost")) : p.connect());
        const v = Reflect.get(p, key, p) as unknown;
        return typeof v === "function" ? v.bind(p) : v;
      },
    });
    await expect(
      migrateSqliteToPg({ db, pool: failing, dataDir: lite.dir, logName: LOG_NAME, pageSize: 4 }),
    ).rejects.toThrow("connection lost");
    const partial = await pool.query("SELECT tenant_id, tenant_seq::int AS n FROM ledger.heads WHERE tenant_seq > 0");
    expect(partial.rows).toEqual([{ tenant_id: "ten_a", n: 8 }]);

    const resumed = await migrateSqliteToPg({ db, pool, dataDir: lite.dir, logName: LOG_NAME, pageSize: 4 });
    const total = lite.ledger.head("ten_a").tenant_seq;
    expect(resumed.tenants.map((t) => [t.tenant_id, t.already, t.copied, t.differences])).toEqual([
      ["ten_a", 8, total - 8, []],
      ["ten_b", 0, 3, []],
    ]);

    // The source goes on (the server ran again); the next run copies only what is new.
    db.close();
    cleanups.pop();
    await addMessages(lite, 5);
    const db2 = readOnly(lite);
    const grown = await migrateSqliteToPg({ db: db2, pool, dataDir: lite.dir, logName: LOG_NAME, pageSize: 4 });
    expect(grown.tenants.map((t) => [t.tenant_id, t.already, t.copied, t.differences])).toEqual([
      ["ten_a", total, 5, []],
      ["ten_b", 3, 0, []],
    ]);
    expect(await pgRows(pool)).toEqual(sqliteRows(db2));
  });

  it("refuses a target that is not a prefix of the source, writing nothing", async () => {
    const lite = await sqliteLedger();
    lite.close();
    const { url, pool } = await target();
    const db = readOnly(lite);
    await migrateSqliteToPg({ db, pool, dataDir: lite.dir, logName: LOG_NAME });
    db.close();
    cleanups.pop();
    const grown = await addMessages(lite, 2);

    // One payload changed behind the triggers' back (only the owner can switch them off).
    await pool.query("ALTER TABLE ledger.events DISABLE TRIGGER events_append_only");
    await pool.query(
      `UPDATE ledger.events SET payload = replace(payload, 'hello 2', 'hello 3') WHERE tenant_id = 'ten_a' AND tenant_seq = 5`,
    );
    await pool.query("ALTER TABLE ledger.events ENABLE TRIGGER events_append_only");
    const before = await pgRows(pool);

    const refused = await logline(grown.dir, { DATABASE_URL: url }, "migrate-to-pg");
    expect(refused.code).toBe(1);
    expect(refused.err).toContain("not a prefix of this SQLite ledger; nothing was copied");
    expect(refused.err).toContain("event ten_a #5 in PostgreSQL differs from the SQLite ledger's");
    expect(await pgRows(pool)).toEqual(before);
    // The tampered row is also what verify on PostgreSQL names.
    const verify = await logline(grown.dir, { DATABASE_URL: url }, "verify");
    expect(verify.code).toBe(1);
    expect(verify.out).toMatch(/BROKEN ten_a {2}first break at seq:5/);
    expect(verify.out).toMatch(/ok {5}ten_b/);

    // A tenant the source does not have, written by a PostgreSQL ledger, is refused too.
    const other = await openPgLedger();
    cleanups.push(() => other.cleanup());
    await other.ledger.append({ tenant_id: "ten_x", events: setupTenant("ten_x") });
    const db2 = readOnly(grown);
    const err = await migrateSqliteToPg({ db: db2, pool: other.owner, dataDir: grown.dir, logName: LOG_NAME }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(MigrationRefused);
    expect((err as MigrationRefused).problems).toEqual(["tenant ten_x is in PostgreSQL but not in the SQLite ledger"]);
  });

  it("says what is missing: no target, a bad --to, no database", async () => {
    const lite = await sqliteLedger(0);
    lite.close();
    const none = await logline(lite.dir, {}, "migrate-to-pg");
    expect(none.code).toBe(2);
    expect(none.err).toContain("migrate-to-pg: set DATABASE_URL or give --to <postgres://…>");
    const bad = await logline(lite.dir, {}, "migrate-to-pg", "--to", "mysql://x");
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("--to must be a postgres:// URL");
    const badEnv = await logline(lite.dir, { DATABASE_URL: "http://x" }, "verify");
    expect(badEnv.code).toBe(2);
    expect(badEnv.err).toContain("DATABASE_URL must be a postgres:// or postgresql:// URL");
    const empty = await logline(
      join(lite.dir, "nothing-here"),
      {},
      "migrate-to-pg",
      "--to",
      "postgres://127.0.0.1:1/x",
    );
    expect(empty.code).toBe(1);
    expect(empty.err).toContain("No database at");
  });
});
