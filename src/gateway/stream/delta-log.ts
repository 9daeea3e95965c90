import type { Delta } from "../projections/state.js";

/** The deltas one ledger event produced (seq), or that time alone produced (seq null). */
export interface DeltaGroup {
  seq: number | null;
  frames: Array<{
    event: string;
    json: string;
    audience?: ReadonlySet<string> | undefined;
    carries?: readonly string[] | undefined;
  }>;
}

export function toGroup(seq: number | null, deltas: Delta[]): DeltaGroup {
  return {
    seq,
    frames: deltas.map((d) => ({
      event: d.event,
      json: JSON.stringify(d.data),
      audience: d.audience,
      ...(d.carries ? { carries: d.carries } : {}),
    })),
  };
}

/**
 * Per-tenant, cursor-addressable log of recent delta groups: what serves `Last-Event-ID`
 * resume. It is derived from the ledger (rebuilt on boot by replay), so losing it loses nothing.
 */
export interface DeltaLog {
  push(group: DeltaGroup & { seq: number }): void;
  /** Groups after `cursor`, or "too_old" when some were already evicted. */
  since(cursor: number): DeltaGroup[] | "too_old";
  /** Rewrites every held frame that carries the message's text (a deleted message), in place. */
  redact(messageId: string, rewrite: (event: string, json: string) => string): void;
}

export function createDeltaLog(maxGroups: number): DeltaLog {
  const groups: Array<DeltaGroup & { seq: number }> = [];
  let start = 0;
  /** Every group with seq > floor is still held. */
  let floor = 0;
  return {
    push(g) {
      if (g.frames.length === 0) return;
      groups.push(g);
      if (groups.length - start > maxGroups) {
        floor = groups[start]!.seq;
        start++;
        // compact now and then instead of shifting on every push
        if (start > 4096) {
          groups.splice(0, start);
          start = 0;
        }
      }
    },
    since(cursor) {
      if (cursor < floor) return "too_old";
      let lo = start;
      let hi = groups.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (groups[mid]!.seq <= cursor) lo = mid + 1;
        else hi = mid;
      }
      return groups.slice(lo);
    },
    redact(messageId, rewrite) {
      for (let i = start; i < groups.length; i++) {
        for (const f of groups[i]!.frames) if (f.carries?.includes(messageId)) f.json = rewrite(f.event, f.json);
      }
    },
  };
}

/**
 * Serializes groups for one viewer. The `id:` goes on the viewer's last frame of each group, so
 * a connection cut in the middle of a group resumes before it (the client dedupes by event_id)
 * instead of after it (losing the rest). JSON.stringify never emits CR, LF or NUL raw, so a
 * `data:` line can't be split or forged by content.
 */
export function renderGroups(groups: readonly DeltaGroup[], viewer: string, afterSeq: number): string {
  let out = "";
  for (const g of groups) {
    if (g.seq !== null && g.seq <= afterSeq) continue;
    const visible = g.frames.filter((f) => !f.audience || f.audience.has(viewer));
    for (let i = 0; i < visible.length; i++) {
      const f = visible[i]!;
      const id = g.seq !== null && i === visible.length - 1 ? `id: seq:${g.seq}\n` : "";
      out += `${id}event: ${f.event}\ndata: ${f.json}\n\n`;
    }
  }
  return out;
}

export function renderFrame(event: string, data: unknown, id?: string): string {
  return `${id ? `id: ${id}\n` : ""}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}
