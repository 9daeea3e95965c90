/**
 * Requests in flight, so a shutdown can wait for them before connections are closed: an append
 * that has started is answered, not cut off. Event streams return from their handler at once
 * (they write to the raw response) and so never hold a drain up.
 */
export interface RequestDrain {
  /** Marks one request in flight; call the returned function when it has its response. */
  enter(): () => void;
  inFlight(): number;
  isDraining(): boolean;
  /** From now on new requests are refused; resolves when none is in flight or after `timeoutMs`. */
  drain(timeoutMs: number): Promise<{ drained: boolean; left: number }>;
}

export function createRequestDrain(): RequestDrain {
  let inFlight = 0;
  let draining = false;
  let wake: (() => void) | undefined;
  return {
    enter() {
      inFlight++;
      let left = false;
      return () => {
        if (left) return;
        left = true;
        inFlight--;
        if (inFlight === 0) wake?.();
      };
    },
    inFlight: () => inFlight,
    isDraining: () => draining,
    async drain(timeoutMs) {
      draining = true;
      if (inFlight === 0) return { drained: true, left: 0 };
      let timer: NodeJS.Timeout | undefined;
      const drained = await new Promise<boolean>((resolve) => {
        wake = () => resolve(true);
        timer = setTimeout(() => resolve(false), timeoutMs);
      });
      clearTimeout(timer);
      wake = undefined;
      return { drained, left: inFlight };
    },
  };
}
