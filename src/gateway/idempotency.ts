import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import type { Db } from "../shared/db.js";
import type { Clock } from "../shared/clock.js";
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

type IdemBegin = { kind: "new"; release(): void } | { kind: "replay"; response: StoredResponse };

export interface IdempotencyStore {
  /**
   * Claims a key. A stored response with the same request hash is a replay; a different hash
   * is IDEMPOTENCY_KEY_REUSED; a key still running in this process is IDEMPOTENCY_IN_PROGRESS.
   */
  begin(scope: IdemScope): IdemBegin;
  /** Stores the response. Call inside the transaction that commits the request's effects. */
  record(scope: IdemScope, response: StoredResponse): void;
  /** Drops rows older than the retention (24 h by default). */
  prune(): number;
}

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
  const iv = randomBytes(12);
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

export function createIdempotencyStore(deps: { db: Db; clock: Clock; retentionMs?: number }): IdempotencyStore {
  const { db, clock } = deps;
  const retentionMs = deps.retentionMs ?? 24 * 3600_000;
  const select = db.prepare<
    [string, string, string],
    { request_hash: string; status: number; sealed_response: string }
  >(
    "SELECT request_hash, status, sealed_response FROM gateway_idempotency_keys WHERE tenant_id = ? AND entity_id = ? AND key_hash = ?",
  );
  const insert = db.prepare(
    "INSERT INTO gateway_idempotency_keys (tenant_id, entity_id, key_hash, request_hash, status, sealed_response, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
  );
  const del = db.prepare("DELETE FROM gateway_idempotency_keys WHERE created_at < ?");
  // One process owns the database, so "still running" is an in-memory fact.
  const inFlight = new Map<string, string>();

  return {
    begin(scope) {
      const { keyHash, aesKey } = scopeMaterial(scope);
      const slot = `${scope.tenantId}\0${scope.entityId}\0${keyHash}`;
      const running = inFlight.get(slot);
      if (running !== undefined) {
        if (running !== scope.requestHash)
          throw new AppError("IDEMPOTENCY_KEY_REUSED", "This Idempotency-Key was used for a different request");
        throw new AppError(
          "IDEMPOTENCY_IN_PROGRESS",
          "A request with this Idempotency-Key is still running; retry shortly",
        );
      }
      const row = select.get(scope.tenantId, scope.entityId, keyHash);
      if (row) {
        if (row.request_hash !== scope.requestHash)
          throw new AppError("IDEMPOTENCY_KEY_REUSED", "This Idempotency-Key was used for a different request");
        return {
          kind: "replay",
          response: { status: row.status, body: JSON.parse(unseal(aesKey, row.sealed_response)) },
        };
      }
      inFlight.set(slot, scope.requestHash);
      return { kind: "new", release: () => void inFlight.delete(slot) };
    },
    record(scope, response) {
      const { keyHash, aesKey } = scopeMaterial(scope);
      insert.run(
        scope.tenantId,
        scope.entityId,
        keyHash,
        scope.requestHash,
        response.status,
        seal(aesKey, JSON.stringify(response.body)),
        clock.now(),
      );
    },
    prune() {
      return del.run(clock.now() - retentionMs).changes;
    },
  };
}
