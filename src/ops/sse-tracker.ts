import type { ServerResponse } from "node:http";
import type { Gauge } from "./metrics.js";

export interface SseTracker {
  /** Starts counting a stream; it stops counting itself when the connection closes. */
  track(res: ServerResponse): void;
  open(): number;
  /**
   * Ends every stream still open with a `retry:` hint, so EventSource clients reconnect (with
   * their Last-Event-ID) once the server is back, instead of treating the close as final.
   * A stream whose owner already ended it is left alone.
   */
  closeAll(retryMs: number): number;
}

export function createSseTracker(gauge?: Gauge): SseTracker {
  const open = new Set<ServerResponse>();
  return {
    track(res) {
      if (open.has(res) || res.writableEnded) return;
      open.add(res);
      gauge?.inc();
      res.once("close", () => {
        if (open.delete(res)) gauge?.dec();
      });
    },
    open: () => open.size,
    closeAll(retryMs) {
      let closed = 0;
      for (const res of open) {
        if (res.writableEnded || res.destroyed) continue;
        // A frame of its own between whole frames: SSE frames end with a blank line and each is
        // written in one call, so this never lands inside another frame.
        res.write(`retry: ${Math.max(0, Math.round(retryMs))}\n\n`);
        res.end();
        closed++;
      }
      return closed;
    },
  };
}
