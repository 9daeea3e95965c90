import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { randomBytesPooled } from "../shared/random.js";
import type { Db } from "../shared/db.js";
import { AppError } from "../shared/errors.js";

export interface IdemScope {
  tenantId: string;
  entityId: string;
  key: string;
  /** Hash of method, path and raw body: "the same request". */
  requestHash: string;
}

export interface StoredResponse {
  status: number;
  body: unknown;
}

/** A value now (SQLite) or later (PostgreSQL). */
type Awaitable<T> = T | Promise<T>;

export type IdemBegin =
  | {
      kind: "new";
      /**
       * Ends the request's claim. Unless it `succeeded` with its response recorded, the claim
       * row is deleted if still running (nothing committed for it), so a retry runs at once.
       */
      release(succeeded?: boolean): Awaitable<void>;
    }
  | { kind: "replay"; response: StoredResponse };

/**
 * Idempotency-Keys as rows, so every process on one database sees the same claims. `Tx` is the
 * handle of the transaction `record` writes in (SQLite's connection, a PostgreSQL client), `Done`
 * what `record` returns (nothing on SQLite, a promise on PostgreSQL).
 */
export interface IdempotencyStore<Tx = Db, Done = void> {
  /**
   * Claims a key for CLAIM_MS (state `running`). A key already done with the same request hash
   * is a replay; a different hash is IDEMPOTENCY_KEY_REUSED; a claim still running is
   * IDEMPOTENCY_IN_PROGRESS; one that expired (its process died or stalled) is taken over.
   */
  begin(scope: IdemScope): Awaitable<IdemBegin>;
  /**
   * Marks this request's claim `done` with its sealed response, on `tx`: call it inside the
   * transaction that commits the request's effects. Throws IDEMPOTENCY_IN_PROGRESS when the
   * claim is no longer this request's (it expired and another took it over), rolling back.
   */
  record(scope: IdemScope, response: StoredResponse, tx: Tx): Done;
  /** Drops rows older than the retention (24 h by default). */
  prune(): Awaitable<number>;
}

/** How long a claim holds a key before another request may take it over. */
export const CLAIM_MS = 30_000;

const MAX_IDEMPOTENCY_KEY = 255;

/** Validates the header; keys are scoped per tenant and entity, so they need not be global. */
export function parseIdempotencyKey(raw: string | undefined): string {
  if (raw === undefined)
    throw new AppError("VALIDATION_ERROR", "Idempotency-Key header is required on every write", {
      field: "Idempotency-Key",
    });
  const key = raw.trim();
  if (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY || /[\u0000-\u001f\u007f]/.test(key)) {
    throw new AppError("VALIDATION_ERROR", `Idempotency-Key must be 1–${MAX_IDEMPOTENCY_KEY} printable characters`, {
      field: "Idempotency-Key",
    });
  }
  return key;
}

export function hashRequest(method: string, path: string, body: Uint8Array | string): string {
  return createHash("sha256").update(method).update("\0").update(path).update("\0").update(body).digest("hex");
}

// begin() and record() of one request get the same scope object: its key material is derived once.
const materialOf = new WeakMap<IdemScope, { key: string; keyHash: string; aesKey: Buffer }>();

function scopeMaterial(scope: IdemScope): { key: string; keyHash: string; aesKey: Buffer } {
  let m = materialOf.get(scope);
  if (!m || m.key !== scope.key) materialOf.set(scope, (m = { ...keyMaterial(scope.key), key: scope.key }));
  return m;
}

function keyMaterial(key: string): { keyHash: string; aesKey: Buffer } {
  const keyHash = createHash("sha256").update("idem-id\0").update(key).digest("hex");
  const aesKey = createHash("sha256").update("idem-seal\0").update(key).digest();
  return { keyHash, aesKey };
}

function seal(aesKey: Buffer, plain: string): string {
  const iv = randomBytesPooled(12);
  const c = createCipheriv("aes-256-gcm", aesKey, iv);
  const ct = Buffer.concat([c.update(plain, "utf8"), c.final()]);
  return Buffer.concat([iv, c.getAuthTag(), ct]).toString("base64");
}

function unseal(aesKey: Buffer, sealed: string): string {
  const buf = Buffer.from(sealed, "base64");
  const d = createDecipheriv("aes-256-gcm", aesKey, buf.subarray(0, 12));
  d.setAuthTag(buf.subarray(12, 28));
  return Buffer.concat([d.update(buf.subarray(28)), d.final()]).toString("utf8");
}

/** A key's row as every store reads it. */
export interface IdemRow {
  request_hash: string;
  state: "running" | "done";
  claimed_by: string | null;
  claim_expires: number | null;
  status: number | null;
  sealed_response: string | null;
}

/**
 * What a taken key means for a new request (the same for every store): a replay, a refusal,
 * or `takeover` when the claim is dead (expired, or `isDead` says so).
 */
export function judgeTaken(
  scope: IdemScope,
  row: IdemRow,
  now: number,
  isDead: (claimedBy: string) => boolean,
): { kind: "replay"; response: StoredResponse } | { kind: "takeover" } {
  if (row.state === "running" && ((row.claim_expires ?? 0) <= now || isDead(row.claimed_by ?? ""))) {
    return { kind: "takeover" };
  }
  if (row.request_hash !== scope.requestHash)
    throw new AppError("IDEMPOTENCY_KEY_REUSED", "This Idempotency-Key was used for a different request");
  if (row.state === "running")
    throw new AppError(
      "IDEMPOTENCY_IN_PROGRESS",
      "A request with this Idempotency-Key is still running; retry shortly",
    );
  const { aesKey } = scopeMaterial(scope);
  return {
    kind: "replay",
    response: { status: row.status ?? 200, body: JSON.parse(unseal(aesKey, row.sealed_response ?? "")) },
  };
}

/** The refusal `record` throws when the claim is gone: nothing of the request may commit. */
export function claimLost(): AppError {
  return new AppError(
    "IDEMPOTENCY_IN_PROGRESS",
    "This request's claim on its Idempotency-Key was taken over by a retry; retry shortly",
  );
}

/** The hashed key and sealed response `record` writes. */
export function sealedFor(scope: IdemScope, response: StoredResponse): { keyHash: string; sealed: string } {
  const { keyHash, aesKey } = scopeMaterial(scope);
  return { keyHash, sealed: seal(aesKey, JSON.stringify(response.body)) };
}

export const keyHashOf = (scope: IdemScope): string => scopeMaterial(scope).keyHash;

/**
 * The claims one store holds: each has an id unique to this store (its `claimed_by`), and the
 * ids of requests still running here. A running row claimed by this store but no longer held by
 * any of its requests is dead (its release could not delete it), so a retry here takes it over
 * at once instead of waiting for it to expire.
 */
export function createClaims() {
  const owner = randomBytes(9).toString("base64url");
  let next = 0;
  const live = new Set<string>();
  const recorded = new Set<string>();
  const ofScope = new WeakMap<IdemScope, string>();
  return {
    take(scope: IdemScope): string {
      const id = `${owner}.${++next}`;
      live.add(id);
      ofScope.set(scope, id);
      return id;
    },
    of: (scope: IdemScope): string => ofScope.get(scope) ?? "",
    recorded: (id: string) => void recorded.add(id),
    /** Ends a claim here; true when its row may still be running (it needs a delete). */
    end(id: string, succeeded: boolean): boolean {
      live.delete(id);
      return !recorded.delete(id) || !succeeded;
    },
    isDead: (claimedBy: string): boolean => claimedBy.startsWith(`${owner}.`) && !live.has(claimedBy),
  };
}
