import type { TRedactedValue } from "../../contracts/events.js";
import type { TTimelineItem } from "../../contracts/gateway.js";
import { findPhones, type VaultApi } from "../office/index.js";

// The lookbehind makes the pattern start only at the edge of a run, keeping scans linear on
// long runs of letters or digits (an unanchored run-then-@ pattern is quadratic without an @).
const EMAIL = /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
// Office's phone finder: never inside an id, pointer or ISO timestamp, and from 8 digits up,
// like the ledger's no_raw_pii policy — what that policy would refuse is vaulted here instead,
// and members read the original back through resolveText.
const PHONE_MIN_DIGITS = 8;

/**
 * Moves emails and phone numbers typed into chat to the vault before anything reaches the
 * ledger; the text keeps their redacted form, in order, and `pii_refs` points at the vault.
 */
export function scrubText(tenantId: string, text: string, vault: VaultApi): { text: string; refs: TRedactedValue[] } {
  const found: Array<{ start: number; end: number; kind: "email" | "phone"; value: string }> = [];
  if (text.includes("@"))
    for (const m of text.matchAll(EMAIL))
      found.push({ start: m.index, end: m.index + m[0].length, kind: "email", value: m[0] });
  for (const p of findPhones(text, PHONE_MIN_DIGITS)) {
    if (found.some((f) => p.start < f.end && p.end > f.start)) continue;
    found.push({ ...p, kind: "phone" });
  }
  if (found.length === 0) return { text, refs: [] };
  found.sort((a, b) => a.start - b.start);
  let out = "";
  let at = 0;
  const refs: TRedactedValue[] = [];
  for (const f of found.slice(0, 50)) {
    const r = vault.put(tenantId, f.kind, f.value);
    out += text.slice(at, f.start) + r.redacted;
    at = f.end;
    refs.push({ redacted: r.redacted, hash: r.hash, vault_ref: r.vault_ref });
  }
  return { text: out + text.slice(at), refs };
}

/**
 * A timeline item as members read it, on every path (the live stream, a reload, a restart):
 * the text as typed, its addresses and numbers read back from the vault. The ledger and the
 * projections keep only the redacted forms; an erased value stays redacted.
 */
export function presentTimelineItem(tenantId: string, item: TTimelineItem, vault: VaultApi): TTimelineItem {
  const refs = item.message.pii_refs as TRedactedValue[] | undefined;
  if (!refs?.length || !item.message.body_text) return item;
  return {
    ...item,
    message: { ...item.message, body_text: resolveText(tenantId, item.message.body_text, refs, vault) },
  };
}

/** The reverse, for members of the tenant: each redacted form, in order, back to its value. */
function resolveText(tenantId: string, text: string, refs: readonly TRedactedValue[], vault: VaultApi): string {
  let out = "";
  let rest = text;
  for (const r of refs) {
    const i = rest.indexOf(r.redacted);
    if (i < 0 || !r.vault_ref) continue;
    const value = vault.get(tenantId, r.vault_ref);
    if (value === null) continue; // erased: the redacted form is all that is left
    out += rest.slice(0, i) + value;
    rest = rest.slice(i + r.redacted.length);
  }
  return out + rest;
}
