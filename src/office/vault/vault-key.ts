import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { randomBytesPooled } from "../../shared/random.js";
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import writeFileAtomic from "write-file-atomic";
import type { Db } from "../../shared/db.js";
import { DataKeyError } from "../../shared/errors.js";

const VAULT_KEY_FILE = "office-vault.key";
const NEXT_VAULT_KEY_FILE = `${VAULT_KEY_FILE}.next`;

/**
 * The vault's two secrets. `enc` encrypts entries (AES-256-GCM) and is what a rotation replaces;
 * `hash` salts the hashes the ledger keeps of each value (`blake3:` per tenant) and the meeting
 * room names, so it never changes — a new one would make every stored hash unmatched. A file
 * from before rotation existed holds one key, used for both.
 */
export interface VaultKeys {
  enc: Buffer;
  hash: Buffer;
}

function parse(path: string): VaultKeys {
  const [first = "", ...rest] = readFileSync(path, "utf8").trim().split(/\r?\n/);
  const enc = Buffer.from(first.trim(), "hex");
  const hashLine = rest.find((l) => l.startsWith("hash:"));
  const hash = hashLine ? Buffer.from(hashLine.slice(5).trim(), "hex") : enc;
  if (enc.length !== 32 || hash.length !== 32) {
    throw new DataKeyError(
      `${path} does not hold a 32-byte hex key: it is damaged. Put back the file from a backup (npm run backup copies it); without it the vault's contents cannot be read.`,
    );
  }
  return { enc, hash };
}

const serialize = (k: VaultKeys): string => `${k.enc.toString("hex")}\nhash:${k.hash.toString("hex")}\n`;

/** AES-256-GCM with `aad` bound: a value copied under another tenant or reference fails to open. */
export function encrypt(key: Buffer, aad: string, value: string): { iv: string; tag: string; ciphertext: string } {
  const iv = randomBytesPooled(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(aad));
  const ct = Buffer.concat([cipher.update(value, "utf8"), cipher.final()]);
  return { iv: iv.toString("base64"), tag: cipher.getAuthTag().toString("base64"), ciphertext: ct.toString("base64") };
}

export function decrypt(key: Buffer, aad: string, box: { iv: string; tag: string; ciphertext: string }): string {
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(box.iv, "base64"));
  decipher.setAAD(Buffer.from(aad));
  decipher.setAuthTag(Buffer.from(box.tag, "base64"));
  return Buffer.concat([decipher.update(Buffer.from(box.ciphertext, "base64")), decipher.final()]).toString("utf8");
}

/** An entry to try a key on: the vault's AAD for a row is `${tenant}|${vault_ref}`. */
export interface Probe {
  aad: string;
  box: { iv: string; tag: string; ciphertext: string };
}

const opens = (key: Buffer, probe: Probe): boolean => {
  try {
    decrypt(key, probe.aad, probe.box);
    return true;
  } catch {
    return false;
  }
};

/**
 * The vault's keys from DATA_DIR, created on first use. Once the vault holds entries, a missing
 * file or one that does not open them stops the start (DataKeyError): a new key could not read
 * them. A rotation stopped between its commit and its rename is finished here.
 */
export function loadVaultKeys(dataDir: string, probe: Probe | undefined): VaultKeys {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, VAULT_KEY_FILE);
  const next = join(dataDir, NEXT_VAULT_KEY_FILE);
  if (existsSync(next)) {
    // The rotation committed when its new key opens the entries (or there are none to open).
    if (!probe || opens(parse(next).enc, probe)) renameSync(next, path);
    else rmSync(next, { force: true });
  }
  if (!existsSync(path) && probe) {
    throw new DataKeyError(
      `${path} is missing, but the vault holds encrypted entries: restore the file from a backup (npm run backup copies it) before starting; a new key could not open them.`,
    );
  }
  if (!existsSync(path)) {
    const key = randomBytes(32);
    writeFileSync(path, serialize({ enc: key, hash: key }), { mode: 0o600, flag: "wx" });
    chmodSync(path, 0o600);
  }
  const keys = parse(path);
  if (probe && !opens(keys.enc, probe)) {
    throw new DataKeyError(
      `${path} does not open the vault's entries (it is not the key they were written with): put back the original file from a backup.`,
    );
  }
  return keys;
}

/**
 * A new encryption key for the vault, with the server stopped: every entry and every waiting
 * inbox request is re-encrypted in one transaction, then the new key file takes the old one's
 * place. The hashing secret is carried over unchanged. A stop at any point leaves a data dir
 * that starts: before the commit with the old key, after it with the new one.
 */
export function rotateVaultKey(opts: { dataDir: string; db: Db }): { entries: number; waiting: number } {
  const path = join(opts.dataDir, VAULT_KEY_FILE);
  if (!existsSync(path))
    throw new DataKeyError(`${path} is missing: there is no key to rotate (restore it from a backup first).`);
  const old = parse(path);
  const fresh: VaultKeys = { enc: randomBytes(32), hash: old.hash };
  const rows = opts.db
    .prepare("SELECT vault_ref, tenant_id, iv, tag, ciphertext FROM office_vault WHERE erased_at IS NULL")
    .all() as Array<{
    vault_ref: string;
    tenant_id: string;
    iv: string;
    tag: string;
    ciphertext: string;
  }>;
  const inbox = opts.db.prepare("SELECT id, tenant_id, event_id, kind, request FROM office_inbox").all() as Array<{
    id: number;
    tenant_id: string;
    event_id: string;
    kind: string;
    request: string;
  }>;
  // Every value is opened before anything is written: a key that does not open them all stops here.
  const values = rows.map((r) => {
    try {
      return decrypt(old.enc, `${r.tenant_id}|${r.vault_ref}`, r);
    } catch {
      throw new DataKeyError(
        `${path} does not open vault entry ${r.vault_ref}: put back the original key file before rotating.`,
      );
    }
  });
  const requests = inbox.map((r) => unsealWith(old.enc, r.tenant_id, inboxLabel(r.kind, r.event_id), r.request));

  writeFileAtomic.sync(join(opts.dataDir, NEXT_VAULT_KEY_FILE), serialize(fresh), { mode: 0o600 });
  const updateEntry = opts.db.prepare(
    "UPDATE office_vault SET iv = ?, tag = ?, ciphertext = ? WHERE vault_ref = ? AND tenant_id = ?",
  );
  const updateInbox = opts.db.prepare("UPDATE office_inbox SET request = ? WHERE id = ?");
  opts.db.transaction(() => {
    rows.forEach((r, i) => {
      const box = encrypt(fresh.enc, `${r.tenant_id}|${r.vault_ref}`, values[i] as string);
      updateEntry.run(box.iv, box.tag, box.ciphertext, r.vault_ref, r.tenant_id);
    });
    inbox.forEach((r, i) => {
      updateInbox.run(sealWith(fresh.enc, r.tenant_id, inboxLabel(r.kind, r.event_id), requests[i] as string), r.id);
    });
  })();
  renameSync(join(opts.dataDir, NEXT_VAULT_KEY_FILE), path);
  return { entries: rows.length, waiting: inbox.length };
}

/** The label an inbox request is sealed under (see src/office/inbox.ts). */
export const inboxLabel = (kind: string, eventId: string): string => `inbox:${kind}:${eventId}`;

/** Short-lived values kept in Office's own tables (`iv.tag.ciphertext`), bound to tenant and label. */
export function sealWith(key: Buffer, tenantId: string, label: string, value: string): string {
  const box = encrypt(key, `${tenantId}|sealed|${label}`, value);
  return [box.iv, box.tag, box.ciphertext].join(".");
}

export function unsealWith(key: Buffer, tenantId: string, label: string, sealed: string): string {
  const [iv, tag, ciphertext] = sealed.split(".");
  if (!iv || !tag || !ciphertext) throw new Error("not a sealed value");
  return decrypt(key, `${tenantId}|sealed|${label}`, { iv, tag, ciphertext });
}
