import type { ServerResponse } from "node:http";

/** A stream this far behind (held here plus Node's queue) is cut; it resumes from its last id. */
const SSE_MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
/**
 * The last bytes a cut stream gets: EventSource reconnects after `retry` ms with the id of the
 * last whole frame it read as Last-Event-ID, and the stream's resume serves what follows.
 */
export const SSE_CUT_HINT = ": too far behind; reconnect with Last-Event-ID\nretry: 1000\n\n";
/** How long a cut stream may take to read what it was already given before its socket is closed. */
const CUT_GRACE_MS = 10_000;

/** Writes whole SSE frames to one response, with a bound on what waits for a slow reader. */
export interface SseOut {
  /** Writes `chunk` (whole frames), or holds it while the socket is full; past the bound, cuts. */
  write(chunk: Buffer | string): void;
  /** True once the stream was cut or ended: nothing more is written. */
  readonly done: boolean;
}

/**
 * While the socket's buffer is full (a write returned false) what comes meanwhile is held and
 * written as one chunk on `drain`, instead of piling up write by write. Past
 * `SSE_MAX_BUFFERED_BYTES` (held plus queued) the stream is cut: `onCut` runs at once (take the
 * reader out of the fan-out), what is held is dropped whole — it all comes after the whole frames
 * already queued, so the reader's last whole frame is before it — and the response ends with
 * `SSE_CUT_HINT`. The queued bytes are the reader's to take; a socket that does not take them
 * within the grace period is closed. Nothing more is buffered for it meanwhile.
 */
export function createSseOut(res: ServerResponse, onCut: () => void, maxBytes = SSE_MAX_BUFFERED_BYTES): SseOut {
  let held: Array<Buffer | string> | null = null;
  let heldBytes = 0;
  let cut = false;

  function cutNow(): void {
    cut = true;
    held = null;
    heldBytes = 0;
    onCut();
    res.end(SSE_CUT_HINT);
    const grace = setTimeout(() => res.destroy(), CUT_GRACE_MS);
    grace.unref();
    res.once("close", () => clearTimeout(grace));
  }

  function write(chunk: Buffer | string): void {
    if (chunk.length === 0 || cut || res.destroyed || res.writableEnded) return;
    if (held) {
      held.push(chunk);
      heldBytes += typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk.length;
      if (heldBytes + res.writableLength > maxBytes) cutNow();
      return;
    }
    if (res.write(chunk)) return;
    if (res.writableLength > maxBytes) return void cutNow();
    held = [];
    heldBytes = 0;
    res.once("drain", () => {
      const list = held;
      held = null;
      if (!list?.length) return;
      write(
        list.length === 1 ? list[0]! : Buffer.concat(list.map((c) => (typeof c === "string" ? Buffer.from(c) : c))),
      );
    });
  }

  return {
    write,
    get done() {
      return cut || res.writableEnded || res.destroyed;
    },
  };
}
