import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { blake3 } from "@noble/hashes/blake3.js";
import { and, eq, isNull } from "drizzle-orm";
import { drizzle } from "drizzle-orm/better-sqlite3";
import type { Clock } from "../shared/clock.js";
import { DataKeyError } from "../shared/errors.js";
import type { Db } from "../shared/db.js";
import type { IdGenerator } from "../shared/ids.js";
import type { VaultApi } from "./office-api.js";
import { digitsOf, redactEmail, redactPhone } from "./pii.js";
import { officeVault } from "./schema.js";

export interface VaultDeps {
  db: Db;
  dataDir: string;
  clock: Clock;
  ids: IdGenerator;
  /**
   * Called with the value while it can still be read, before it is erased: whoever holds copies
   * (Office's invite files and outbox) replaces them with `redacted`. If it throws, nothing is
   * erased, so the erase can be retried without leaving a copy behind.
   */
  onErase?: (tenantId: string, vaultRef: string, value: string, redacted: string) => void;
}

export type Vault = VaultApi & {
  /** The tenant-salted BLAKE3 hash the ledger stores instead of the value. */
  hashOf(tenantId: string, kind: "email" | "phone" | "text", value: string): string;
  /**
   * Encrypts a short-lived value Office keeps in its own tables (the durable inbox's requests)
   * with the vault key; `label` is bound as associated data, so it opens only under the same
   * tenant and label.
   */
  seal(tenantId: string, label: string, value: string): string;
  /** The reverse of `seal`; throws when the key or label does not match. */
  unseal(tenantId: string, label: string, sealed: string): string;
};

/**
 * The key lives in a file next to the database, not in it: a copy of the database alone does
 * not reveal the PII. Created once with mode 0600.
 */
function loadKey(dataDir: string, hasEntries: boolean): Buffer {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, "office-vault.key");
  if (!existsSync(path) && hasEntries) {
    throw new DataKeyError(
      `${path} is missing, but the vault holds encrypted entries: restore the file from a backup (npm run backup copies it) before starting; a new key could not open them.`,
    );
  }
  if (!existsSync(path)) {
    writeFileSync(path, randomBytes(32).toString("hex"), { mode: 0o600, flag: "wx" });
    chmodSync(path, 0o600);
  }
  const key = Buffer.from(readFileSync(path, "utf8").trim(), "hex");
  if (key.length !== 32) throw new Error(`${path} does not hold a 32-byte hex key`);
  return key;
}

function canonical(kind: "email" | "phone" | "text", value: string): string {
  if (kind === "email") return value.trim().toLowerCase();
  if (kind === "phone") return digitsOf(value);
  return value;
}

export function createVault(deps: VaultDeps): Vault {
  const orm = drizzle(deps.db);
  const sample = orm.select().from(officeVault).where(isNull(officeVault.erasedAt)).limit(1).get();
  const key = loadKey(deps.dataDir, sample !== undefined);
  if (sample) {
    try {
      read(sample.tenantId, sample.vaultRef);
    } catch {
      throw new DataKeyError(
        `${join(deps.dataDir, "office-vault.key")} does not open the vault's entries (it is not the key they were written with): put back the original file from a backup.`,
      );
    }
  }
  const salts = new Map<string, Buffer>();

  // The per-tenant salt is derived from the vault key, so the same address hashes differently in
  // two tenants (no cross-tenant linking) and nothing extra has to be stored.
  const saltOf = (tenantId: string) => {
    let s = salts.get(tenantId);
    if (!s) salts.set(tenantId, (s = createHmac("sha256", key).update(`tenant-salt:${tenantId}`).digest()));
    return s;
  };

  const hashOf = (tenantId: string, kind: "email" | "phone" | "text", value: string) => {
    const bytes = Buffer.concat([saltOf(tenantId), Buffer.from(canonical(kind, value), "utf8")]);
    return `blake3:${Buffer.from(blake3(bytes)).toString("hex")}`;
  };

  const redact = (kind: "email" | "phone" | "text", value: string) => (kind === "email" ? redactEmail(value) : kind === "phone" ? redactPhone(value) : `${value.slice(0, 1)}***`);

  return {
    hashOf,
    seal(tenantId, label, value) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      cipher.setAAD(Buffer.from(`${tenantId}|sealed|${label}`));
      const ct = Buffer.concat([cipher.update(value, "utf8"), cipher.final()]);
      return [iv, cipher.getAuthTag(), ct].map((b) => b.toString("base64")).join(".");
    },
    unseal(tenantId, label, sealed) {
      const [iv, tag, ct] = sealed.split(".").map((part) => Buffer.from(part, "base64"));
      if (!iv || !tag || !ct) throw new Error("not a sealed value");
      const decipher = createDecipheriv("aes-256-gcm", key, iv);
      decipher.setAAD(Buffer.from(`${tenantId}|sealed|${label}`));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(ct), decipher.final()]).toString("utf8");
    },
    put(tenantId, kind, value) {
      const hash = hashOf(tenantId, kind, value);
      const redacted = redact(kind, value);
      const existing = orm
        .select({ ref: officeVault.vaultRef })
        .from(officeVault)
        .where(and(eq(officeVault.tenantId, tenantId), eq(officeVault.hash, hash), isNull(officeVault.erasedAt)))
        .get();
      if (existing) return { redacted, hash, vault_ref: existing.ref };
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      // The tenant and reference are bound as associated data: a row copied to another tenant
      // or reference fails to decrypt.
      const ref = `vault_ref:${deps.ids("vlt")}`;
      cipher.setAAD(Buffer.from(`${tenantId}|${ref}`));
      const ct = Buffer.concat([cipher.update(value, "utf8"), cipher.final()]);
      orm
        .insert(officeVault)
        .values({
          vaultRef: ref,
          tenantId,
          kind,
          hash,
          iv: iv.toString("base64"),
          tag: cipher.getAuthTag().toString("base64"),
          ciphertext: ct.toString("base64"),
          createdAt: deps.clock.iso(),
        })
        .run();
      return { redacted, hash, vault_ref: ref };
    },
    get(tenantId, vaultRef) {
      return read(tenantId, vaultRef)?.value ?? null;
    },
    erase(tenantId, vaultRef) {
      const entry = read(tenantId, vaultRef);
      if (!entry) return false;
      deps.onErase?.(tenantId, vaultRef, entry.value, redact(entry.kind, entry.value));
      const res = orm
        .update(officeVault)
        .set({ ciphertext: "", iv: "", tag: "", erasedAt: deps.clock.iso() })
        .where(and(eq(officeVault.tenantId, tenantId), eq(officeVault.vaultRef, vaultRef), isNull(officeVault.erasedAt)))
        .run();
      return res.changes > 0;
    },
  };

  function read(tenantId: string, vaultRef: string): { kind: "email" | "phone" | "text"; value: string } | null {
    const row = orm
      .select()
      .from(officeVault)
      .where(and(eq(officeVault.tenantId, tenantId), eq(officeVault.vaultRef, vaultRef)))
      .get();
    if (!row || row.erasedAt) return null;
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(row.iv, "base64"));
    decipher.setAAD(Buffer.from(`${tenantId}|${vaultRef}`));
    decipher.setAuthTag(Buffer.from(row.tag, "base64"));
    const value = Buffer.concat([decipher.update(Buffer.from(row.ciphertext, "base64")), decipher.final()]).toString("utf8");
    return { kind: row.kind as "email" | "phone" | "text", value };
  }
}
