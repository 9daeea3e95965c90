/** Injected wherever time matters, so tests can run a five-minute retry schedule in milliseconds. */
export interface Clock {
  now(): number;
  /** ISO-8601 UTC with milliseconds. */
  iso(): string;
  setTimeout(fn: () => void, ms: number): { cancel(): void };
}

export const systemClock: Clock = {
  now: () => Date.now(),
  iso: () => new Date().toISOString(),
  setTimeout(fn, ms) {
    const t = setTimeout(fn, ms);
    t.unref?.();
    return { cancel: () => clearTimeout(t) };
  },
};

/**
 * A clock that only moves when told to; timers fire in due order on `advance`. `settle`, when
 * given, is awaited before the first timer and after each one, so work a timer starts (and the
 * timers that work arms) is done before the clock moves past them.
 */
export function createManualClock(startMs = Date.parse("2025-12-27T10:15:00.000Z")): Clock & {
  advance(ms: number, settle?: () => Promise<void>): Promise<void>;
  set(ms: number): void;
} {
  let now = startMs;
  let nextId = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  return {
    now: () => now,
    iso: () => new Date(now).toISOString(),
    setTimeout(fn, ms) {
      const id = nextId++;
      timers.set(id, { at: now + Math.max(0, ms), fn });
      return { cancel: () => void timers.delete(id) };
    },
    set(ms) {
      now = ms;
    },
    async advance(ms, settle) {
      const target = now + ms;
      await settle?.();
      for (;;) {
        let dueId = -1;
        let due: { at: number; fn: () => void } | undefined;
        for (const [id, t] of timers) if (t.at <= target && (!due || t.at < due.at)) [dueId, due] = [id, t];
        if (!due) break;
        timers.delete(dueId);
        now = Math.max(now, due.at);
        due.fn();
        // let promise chains started by the timer settle before the next one fires
        for (let i = 0; i < 20; i++) await Promise.resolve();
        await new Promise((r) => setImmediate(r));
        await settle?.();
      }
      now = target;
    },
  };
}
