import type { LookupAddress } from "node:dns";
import type { TStoredEvent } from "../../../contracts/events.js";
import type { Clock } from "../../shared/clock.js";
import { GATEWAY_SYSTEM_ACTOR, type Core } from "../core.js";
import { parseAllowList } from "./address.js";
import { DEFAULT_FETCH_LIMITS, fetchPageFacts, type FetchLimits, type FetchOutcome } from "./fetcher.js";
import { linksOf } from "./links.js";

/** How link previews are fetched: on or off, what else may be reached, and the bounds. */
export interface PreviewSettings {
  /** LINK_PREVIEWS: off by default (the server contacts no site a person names until an operator says so). */
  enabled: boolean;
  /** LINK_PREVIEW_ALLOW_CIDRS: non-public ranges the fetcher may reach all the same (an intranet, tests on loopback). */
  allowCidrs?: readonly string[];
  /** Previews per message at most (the first links of its text). */
  maxPerMessage?: number;
  /** Fetches at once. */
  concurrency?: number;
  /** Links waiting at most; beyond, a new link gets no preview (the log says so). */
  maxQueued?: number;
  /** How long a fetched page (or a refusal) is reused for the same URL. */
  cacheTtlMs?: number;
  /** URLs remembered at most (the oldest go first). */
  cacheMax?: number;
  limits?: Partial<FetchLimits>;
  /** Tests: a resolver in place of the system's (to prove a name resolving to a private address is refused). */
  resolve?: (
    host: string,
    opts: { all: true; family: number },
    cb: (err: NodeJS.ErrnoException | null, a: LookupAddress[]) => void,
  ) => void;
}

export interface LinkPreviews {
  /** Follows the ledger: a person's new text message with links, or an edit that adds one, gets its previews fetched, later. */
  note(ev: TStoredEvent): void;
  /** Resolves once nothing is queued or being fetched. */
  idle(): Promise<void>;
  close(): void;
}

/** How long a refusal (a slow page, a page gone) is remembered: five minutes. */
const FAILURE_TTL_MS = 5 * 60_000;

interface Task {
  tenantId: string;
  conversationId: string;
  messageId: string;
  url: string;
}

/**
 * The link-preview worker. It never delays a send: the message is committed first, and the
 * worker, following the ledger, queues its links (a bounded queue, a few fetches at once, a
 * cache by URL). Each preview fetched becomes one `message.preview_added` written by the system,
 * so the stream, a reload and a restart show the same card; nothing is written for a link whose
 * page could not be read, for a message deleted meanwhile, for a link its author took off, or
 * for one an edit took out of the text. An edit that adds a link gets its preview the same way
 * (the projection drops the preview of a link an edit took out).
 */
export function createLinkPreviews(core: Core, clock: Clock, s: PreviewSettings): LinkPreviews {
  const allow = parseAllowList(s.allowCidrs ?? []);
  const limits = { ...DEFAULT_FETCH_LIMITS, ...s.limits };
  const maxPerMessage = s.maxPerMessage ?? 3;
  const concurrency = s.concurrency ?? 2;
  const maxQueued = s.maxQueued ?? 100;
  const ttl = s.cacheTtlMs ?? 60 * 60_000;
  const cacheMax = s.cacheMax ?? 1_000;
  const cache = new Map<string, { at: number; outcome: FetchOutcome }>();
  const inFlight = new Map<string, Promise<FetchOutcome>>();
  const queue: Task[] = [];
  const aborter = new AbortController();
  let running = 0;
  let closed = false;
  let waiters: (() => void)[] = [];

  const settle = () => {
    if (running || queue.length) return;
    const w = waiters;
    waiters = [];
    for (const f of w) f();
  };

  function outcomeFor(url: string): Promise<FetchOutcome> {
    const hit = cache.get(url);
    // A page that could not be read is tried again sooner than a page read is re-read.
    if (hit && clock.now() - hit.at < (hit.outcome.ok ? ttl : Math.min(ttl, FAILURE_TTL_MS)))
      return Promise.resolve(hit.outcome);
    let p = inFlight.get(url);
    if (!p) {
      p = fetchPageFacts(url, allow, limits, s.resolve as never, aborter.signal).then((outcome) => {
        inFlight.delete(url);
        cache.delete(url);
        cache.set(url, { at: clock.now(), outcome });
        while (cache.size > cacheMax) cache.delete(cache.keys().next().value as string);
        return outcome;
      });
      inFlight.set(url, p);
    }
    return p;
  }

  async function run(t: Task): Promise<void> {
    const outcome = await outcomeFor(t.url);
    if (closed) return;
    if (!outcome.ok) {
      core.logger.info({ url_host: hostOf(t.url), refused: outcome.refused }, "no link preview");
      return;
    }
    // Written only while it still means something: the message is there and its author has not taken this link off.
    const state = core.tenant(t.tenantId);
    const item = state.messages.get(t.messageId);
    if (!item || item.deleted || state.previewsOff.get(t.messageId)?.has(t.url)) return;
    if (item.previews?.some((x) => x.url === t.url)) return;
    if (!linksOf((item.message as { body_text?: string }).body_text ?? "").includes(t.url)) return;
    const ev = core.event(t.tenantId, "message.preview_added", t.conversationId, GATEWAY_SYSTEM_ACTOR, {
      message_id: t.messageId,
      url: t.url,
      ...outcome.facts,
    });
    await core.commit(t.tenantId, [ev], { body: () => ({}) });
  }

  function pump(): void {
    while (!closed && running < concurrency && queue.length) {
      const t = queue.shift()!;
      running++;
      run(t)
        .catch((err: unknown) => core.logger.warn({ err, message_id: t.messageId }, "link preview not recorded"))
        .finally(() => {
          running--;
          pump();
          settle();
        });
    }
    settle();
  }

  return {
    note(ev) {
      if (!s.enabled || closed || ev.actor.actor_type !== "human") return;
      let text: string;
      let shown: readonly { url: string }[] = [];
      if (ev.event_type === "message.sent") {
        const p = ev.payload;
        if (p.kind !== "text" || !p.body_text || p.call) return;
        text = p.body_text;
      } else if (ev.event_type === "message.edited") {
        // Only the links the edit brought: the ones already previewed keep their card.
        text = ev.payload.body_text;
        shown = core.tenant(ev.tenant_id).messages.get(ev.payload.message_id)?.previews ?? [];
      } else return;
      const messageId = ev.payload.message_id;
      for (const url of linksOf(text, maxPerMessage)) {
        if (shown.some((x) => x.url === url)) continue;
        if (queue.length >= maxQueued) {
          core.logger.warn({ message_id: messageId }, "link preview queue full: link skipped");
          break;
        }
        queue.push({ tenantId: ev.tenant_id, conversationId: ev.conversation_id, messageId, url });
      }
      pump();
    },
    idle() {
      if (!running && !queue.length) return Promise.resolve();
      return new Promise((r) => waiters.push(r));
    },
    close() {
      closed = true;
      queue.length = 0;
      aborter.abort();
      settle();
    },
  };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "";
  }
}
