import { createPrivateKey, generateKeyPairSync } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync } from "node:fs";
import { join } from "node:path";
import writeFileAtomic from "write-file-atomic";
import type { Db } from "../shared/db.js";
import { DataKeyError } from "../shared/errors.js";
import { createSigner, NEXT_SIGNING_KEY_FILE, RETIRED_KEYS_DIR, SIGNING_KEY_FILE } from "./signing.js";

interface SigningKeyRotation {
  retired: string;
  current: string;
  /** Tenants that got a checkpoint signed with the new key. */
  tenants: number;
}

/**
 * Replaces the ledger's signing key, with the server stopped. Every step leaves a data dir that
 * boots and verifies:
 *  1. the new key is written beside the old one (`ledger-signing-key.pem.next`);
 *  2. the old key's public half is kept in `retired-signing-keys/`, so the checkpoints it signed
 *     still verify (and `/v1/ledger/keys` keeps publishing it); its private half goes;
 *  3. in one transaction, every tenant gets a checkpoint of its current head signed with the new
 *     key — from then on the ledger says it is signed with the new key;
 *  4. the new key file takes the old one's name.
 * A start after a stop between 3 and 4 finishes step 4 itself; after a stop before 3 it drops
 * the unused new key.
 */
export function rotateSigningKey(opts: { dataDir: string; db: Db; now: string }): SigningKeyRotation {
  const file = join(opts.dataDir, SIGNING_KEY_FILE);
  if (!existsSync(file))
    throw new DataKeyError(`${file} is missing: there is no key to rotate (restore it from a backup first).`);
  const old = createSigner(createPrivateKey(readFileSync(file)));
  const signedWith = opts.db.prepare("SELECT key_id FROM ledger_checkpoints ORDER BY id DESC LIMIT 1").pluck().get() as
    | string
    | undefined;
  if (signedWith && signedWith !== old.keyId) {
    throw new DataKeyError(
      `${file} holds key ${old.keyId}, but this ledger was signed with ${signedWith}: put back the original file before rotating.`,
    );
  }
  const fresh = generateKeyPairSync("ed25519").privateKey;
  const next = createSigner(fresh);

  writeFileAtomic.sync(join(opts.dataDir, NEXT_SIGNING_KEY_FILE), fresh.export({ type: "pkcs8", format: "pem" }), {
    mode: 0o600,
  });
  const retiredDir = join(opts.dataDir, RETIRED_KEYS_DIR);
  mkdirSync(retiredDir, { recursive: true });
  // Named by when it was retired, so the directory lists keys in the order they served.
  const stamp = opts.now.replace(/[^0-9]/g, "").slice(0, 14);
  writeFileAtomic.sync(join(retiredDir, `${stamp}-${old.keyId.replace(":", "-")}.pub.pem`), old.publicKeyPem, {
    mode: 0o644,
  });

  const heads = opts.db
    .prepare("SELECT tenant_id, MAX(tenant_seq) AS tenant_seq FROM ledger_events GROUP BY tenant_id ORDER BY tenant_id")
    .all() as Array<{
    tenant_id: string;
    tenant_seq: number;
  }>;
  const hashAt = opts.db.prepare("SELECT hash FROM ledger_events WHERE tenant_id = ? AND tenant_seq = ?").pluck();
  const insert = opts.db.prepare(
    "INSERT INTO ledger_checkpoints (tenant_id, tenant_seq, head_hash, signature, key_id, ts) VALUES (?, ?, ?, ?, ?, ?)",
  );
  opts.db.transaction(() => {
    for (const h of heads) {
      const claim = {
        tenant_id: h.tenant_id,
        tenant_seq: h.tenant_seq,
        head_hash: hashAt.get(h.tenant_id, h.tenant_seq) as string,
      };
      insert.run(claim.tenant_id, claim.tenant_seq, claim.head_hash, next.signCheckpoint(claim), next.keyId, opts.now);
    }
  })();

  renameSync(join(opts.dataDir, NEXT_SIGNING_KEY_FILE), file);
  return { retired: old.keyId, current: next.keyId, tenants: heads.length };
}
