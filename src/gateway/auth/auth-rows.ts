import type { Statement } from "better-sqlite3";
import type pg from "pg";
import type { Db } from "../../shared/db.js";

type Params = ReadonlyArray<string | number | null>;

/**
 * Where sign-in state (tokens and sessions, sign-in links, invites, passkey challenges) and Web
 * Push subscriptions and mutes live: the gateway's SQLite file, or the shared `gateway` schema
 * on PostgreSQL. Statements are written
 * once, in SQLite's form (`?` placeholders, `gateway_<table>` names); the PostgreSQL side
 * rewrites them.
 */
export interface AuthRows {
  /** True when other processes share these rows (PostgreSQL). */
  readonly shared: boolean;
  /**
   * A write whose outcome nobody waits for (issuing a token, revoking one, "last seen"). SQLite
   * runs it now, inside the open transaction if there is one; PostgreSQL queues it, in order,
   * and `settled` resolves once it is written.
   */
  write(sql: string, params: Params): void;
  /** A write now; resolves to the number of rows it changed. */
  change(sql: string, params: Params): Promise<number>;
  one<T>(sql: string, params: Params): Promise<T | undefined>;
  all<T>(sql: string, params: Params): Promise<T[]>;
  /** Resolves when every queued write so far is in the database (each answer waits for it). */
  settled(): Promise<void>;
}

export function sqliteAuthRows(db: Db): AuthRows {
  const statements = new Map<string, Statement<unknown[]>>();
  const prepared = (sql: string) => {
    let s = statements.get(sql);
    if (!s) statements.set(sql, (s = db.prepare<unknown[]>(sql)));
    return s;
  };
  return {
    shared: false,
    write(sql, params) {
      prepared(sql).run(...(params as unknown[]));
    },
    change: async (sql, params) => prepared(sql).run(...(params as unknown[])).changes,
    one: async <T>(sql: string, params: Params) => prepared(sql).get(...(params as unknown[])) as T | undefined,
    all: async <T>(sql: string, params: Params) => prepared(sql).all(...(params as unknown[])) as T[],
    settled: () => Promise.resolve(),
  };
}

const TABLES = /\bgateway_(tokens|sign_in_links|invites|passkey_challenges|push_subscriptions|conversation_mutes)\b/g;

/** A statement in SQLite's form, for PostgreSQL: `$n` placeholders and the `gateway` schema. */
function toPgSql(sql: string): string {
  let n = 0;
  return sql.replace(TABLES, "gateway.$1").replace(/\?/g, () => `$${++n}`);
}

export function pgAuthRows(deps: { pool: pg.Pool; onError: (err: unknown) => void }): AuthRows {
  const { pool } = deps;
  const texts = new Map<string, string>();
  const text = (sql: string) => {
    let t = texts.get(sql);
    if (!t) texts.set(sql, (t = toPgSql(sql)));
    return t;
  };
  // One chain keeps queued writes in the order they were made (a token is issued before it is revoked).
  let queue: Promise<void> = Promise.resolve();
  return {
    shared: true,
    write(sql, params) {
      queue = queue.then(() => pool.query(text(sql), [...params])).then(() => {}, deps.onError);
    },
    change: async (sql, params) => (await pool.query(text(sql), [...params])).rowCount ?? 0,
    one: async <T>(sql: string, params: Params) => (await pool.query(text(sql), [...params])).rows[0] as T | undefined,
    all: async <T>(sql: string, params: Params) => (await pool.query(text(sql), [...params])).rows as T[],
    settled: () => queue,
  };
}
