import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import webpush from "web-push";
import { DataKeyError } from "../../shared/errors.js";

/** The server's Web Push identity (VAPID, RFC 8292), kept beside the other keys in DATA_DIR. */
const VAPID_KEY_FILE = "push-vapid-keys.json";

export interface VapidKeys {
  /** base64url P-256 public key: the `applicationServerKey` browsers subscribe with. */
  publicKey: string;
  privateKey: string;
}

/**
 * The VAPID key pair from DATA_DIR, generated on first use and reused on every restart: each
 * browser's subscription is bound to this public key, so a new pair would silently orphan every
 * subscription. A file that does not parse stops the start instead of being replaced.
 */
export function loadVapidKeys(dataDir: string): VapidKeys {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, VAPID_KEY_FILE);
  if (!existsSync(path)) {
    const fresh = webpush.generateVAPIDKeys();
    writeFileSync(path, `${JSON.stringify({ publicKey: fresh.publicKey, privateKey: fresh.privateKey }, null, 2)}\n`, {
      mode: 0o600,
      flag: "wx",
    });
    chmodSync(path, 0o600);
  }
  let keys: Partial<VapidKeys>;
  try {
    keys = JSON.parse(readFileSync(path, "utf8")) as Partial<VapidKeys>;
  } catch {
    throw new DataKeyError(
      `${path} is not valid JSON: restore it from a backup, or delete it to make a new pair (every browser then subscribes again).`,
    );
  }
  // P-256: a 65-byte uncompressed public key (87 base64url characters), a 32-byte private one (43).
  if (
    typeof keys.publicKey !== "string" ||
    !/^[A-Za-z0-9_-]{87}$/.test(keys.publicKey) ||
    typeof keys.privateKey !== "string" ||
    !/^[A-Za-z0-9_-]{43}$/.test(keys.privateKey)
  ) {
    throw new DataKeyError(
      `${path} does not hold a VAPID key pair: restore it from a backup, or delete it to make a new pair (every browser then subscribes again).`,
    );
  }
  return { publicKey: keys.publicKey, privateKey: keys.privateKey };
}
