import type { TStoredEvent } from "../../contracts/events.js";
import type { LedgerApi, LedgerDoorApi } from "./ledger-api.js";

interface FollowOptions {
  /** Called once the stored log has been read, before any event committed meanwhile is handed on. */
  onReplayed?: () => void;
  /** Errors thrown by `onEvent` for live events go here (a replayed event's error stops the boot). */
  onError?: (err: unknown) => void;
}

/**
 * How a projection boots on any ledger: every stored event, then every event committed from then
 * on, each exactly once and in tenant_seq order per tenant. It subscribes before it replays and
 * holds live events until the replay is done, so a commit made while a slow replay reads (another
 * process's, or this one's) is neither lost nor handed on twice. On the SQLite ledger, whose
 * replay answers at once, it is done when it returns; on a ledger whose replay answers later,
 * when the promise resolves. Returns the unsubscribe.
 */
export function replayThenFollow(
  ledger: LedgerApi,
  onEvent: (e: TStoredEvent) => void,
  opts?: FollowOptions,
): () => void;
export function replayThenFollow(
  ledger: LedgerDoorApi,
  onEvent: (e: TStoredEvent) => void,
  opts?: FollowOptions,
): (() => void) | Promise<() => void>;
export function replayThenFollow(
  ledger: LedgerDoorApi,
  onEvent: (e: TStoredEvent) => void,
  opts: FollowOptions = {},
): (() => void) | Promise<() => void> {
  const seen = new Map<string, number>();
  const fresh = (e: TStoredEvent) => {
    if ((seen.get(e.tenant_id) ?? 0) >= e.seq) return false;
    seen.set(e.tenant_id, e.seq);
    return true;
  };
  let held: TStoredEvent[] | null = [];
  const live = (e: TStoredEvent) => {
    if (!fresh(e)) return;
    if (!opts.onError) return onEvent(e);
    try {
      onEvent(e);
    } catch (err) {
      opts.onError(err);
    }
  };
  const unsubscribe = ledger.subscribe((e) => (held ? held.push(e) : live(e)));
  const finish = () => {
    opts.onReplayed?.();
    const waiting = held ?? [];
    held = null;
    for (const e of waiting) live(e);
    return unsubscribe;
  };
  let replayed: void | Promise<void>;
  try {
    replayed = ledger.replay((e) => {
      if (fresh(e)) onEvent(e);
    });
  } catch (err) {
    unsubscribe();
    throw err;
  }
  if (!(replayed instanceof Promise)) return finish();
  return replayed.then(finish, (err: unknown) => {
    unsubscribe();
    throw err;
  });
}
