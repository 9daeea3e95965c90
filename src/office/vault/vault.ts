import { createHmac } from "node:crypto";
import { blake3 } from "@noble/hashes/blake3.js";
import { and, eq, isNull } from "drizzle-orm";
import { drizzle } from "drizzle-orm/better-sqlite3";
import type { Clock } from "../../shared/clock.js";
import type { Db } from "../../shared/db.js";
import type { IdGenerator } from "../../shared/ids.js";
import type { VaultApi } from "../office-api.js";
import { digitsOf, redactEmail, redactPhone } from "../pii.js";
import { officeVault } from "../schema.js";
import { decrypt, encrypt, loadVaultKeys, sealWith, unsealWith } from "./vault-key.js";

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

function canonical(kind: "email" | "phone" | "text", value: string): string {
  if (kind === "email") return value.trim().toLowerCase();
  if (kind === "phone") return digitsOf(value);
  return value;
}

export function createVault(deps: VaultDeps): Vault {
  const orm = drizzle(deps.db);
  // The key lives in a file next to the database, not in it: a copy of the database alone does
  // not reveal the PII. One live entry is enough to tell whether the file is the right key.
  const sample = orm.select().from(officeVault).where(isNull(officeVault.erasedAt)).limit(1).get();
  const keys = loadVaultKeys(
    deps.dataDir,
    sample ? { aad: `${sample.tenantId}|${sample.vaultRef}`, box: sample } : undefined,
  );
  const key = keys.enc;
  const salts = new Map<string, Buffer>();

  // The per-tenant salt is derived from the vault key, so the same address hashes differently in
  // two tenants (no cross-tenant linking) and nothing extra has to be stored.
  const saltOf = (tenantId: string) => {
    let s = salts.get(tenantId);
    if (!s) salts.set(tenantId, (s = createHmac("sha256", keys.hash).update(`tenant-salt:${tenantId}`).digest()));
    return s;
  };

  const hashOf = (tenantId: string, kind: "email" | "phone" | "text", value: string) => {
    const bytes = Buffer.concat([saltOf(tenantId), Buffer.from(canonical(kind, value), "utf8")]);
    return `blake3:${Buffer.from(blake3(bytes)).toString("hex")}`;
  };

  const redact = (kind: "email" | "phone" | "text", value: string) =>
    kind === "email" ? redactEmail(value) : kind === "phone" ? redactPhone(value) : `${value.slice(0, 1)}***`;

  return {
    hashOf,
    seal: (tenantId, label, value) => sealWith(key, tenantId, label, value),
    unseal: (tenantId, label, sealed) => unsealWith(key, tenantId, label, sealed),
    put(tenantId, kind, value) {
      const hash = hashOf(tenantId, kind, value);
      const redacted = redact(kind, value);
      const existing = orm
        .select({ ref: officeVault.vaultRef })
        .from(officeVault)
        .where(and(eq(officeVault.tenantId, tenantId), eq(officeVault.hash, hash), isNull(officeVault.erasedAt)))
        .get();
      if (existing) return { redacted, hash, vault_ref: existing.ref };
      // The tenant and reference are bound as associated data: a row copied to another tenant
      // or reference fails to decrypt.
      const ref = `vault_ref:${deps.ids("vlt")}`;
      const box = encrypt(key, `${tenantId}|${ref}`, value);
      orm
        .insert(officeVault)
        .values({ vaultRef: ref, tenantId, kind, hash, ...box, createdAt: deps.clock.iso() })
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
        .where(
          and(eq(officeVault.tenantId, tenantId), eq(officeVault.vaultRef, vaultRef), isNull(officeVault.erasedAt)),
        )
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
    return { kind: row.kind as "email" | "phone" | "text", value: decrypt(key, `${tenantId}|${vaultRef}`, row) };
  }
}
