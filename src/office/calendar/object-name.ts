import { createHash } from "node:crypto";

const PLAIN = /^[A-Za-z0-9-]$/;

/**
 * The resource name an event with this UID is stored under: the same UID always gives the same
 * name (that is what makes `put` idempotent) and different UIDs never share one. Only
 * `[A-Za-z0-9_-]` appear, because servers disagree on how they decode `@`, `/`, `%` or a
 * leading dot (Radicale hides dot files); every other UTF-8 byte becomes `_XX`. Names past 200
 * characters are replaced by `~` + SHA-256 (no escaped name contains `~`, so none collide).
 */
export function objectName(uid: string): string {
  const escaped = [...Buffer.from(uid, "utf8")]
    .map((b) => {
      const c = String.fromCharCode(b);
      return PLAIN.test(c) ? c : `_${b.toString(16).toUpperCase().padStart(2, "0")}`;
    })
    .join("");
  const base = escaped.length <= 200 ? escaped : `~${createHash("sha256").update(uid, "utf8").digest("hex")}`;
  return `${base}.ics`;
}
