import webpush from "web-push";
import type { TNotification } from "../../../contracts/notifications.js";
import type { Logger } from "../logger.js";
import type { PushSubscriptionRow } from "./subscriptions.js";
import type { VapidKeys } from "./vapid-keys.js";

/** Push sends are fire-and-forget work after the commit, bounded so a slow push service never piles up. */
export interface PushLimits {
  /** Requests in flight at once, across every person. */
  concurrency: number;
  /** Waiting sends beyond this are dropped (and logged): a notification late by minutes is worth less than memory. */
  maxQueued: number;
  /** Deadline of one request to a push service. */
  timeoutMs: number;
  /** How long a push service keeps a message for an offline device (the TTL header), seconds. */
  ttlSeconds: number;
}

export const DEFAULT_PUSH_LIMITS: PushLimits = {
  concurrency: 4,
  maxQueued: 1000,
  timeoutMs: 10_000,
  ttlSeconds: 24 * 3600,
};

export interface PushSender {
  /** Queues one notification for one subscription; returns at once. */
  enqueue(sub: PushSubscriptionRow, n: TNotification): void;
  /** Resolves when nothing is queued or in flight (tests, shutdown). */
  idle(): Promise<void>;
  close(): void;
}

/**
 * Encrypts with `web-push` (RFC 8291 aes128gcm and the VAPID header, RFC 8292) and sends the
 * request with fetch, so every send has a deadline, follows no redirect, and a 404 or 410 —
 * the push service saying the subscription is gone — removes it.
 */
export function createPushSender(deps: {
  keys: VapidKeys;
  subject: () => string;
  limits: PushLimits;
  logger: Logger;
  onGone: (subscriptionId: string) => void;
}): PushSender {
  const queue: Array<{ sub: PushSubscriptionRow; n: TNotification }> = [];
  let inFlight = 0;
  let closed = false;
  let waiters: Array<() => void> = [];

  const settle = () => {
    if (queue.length === 0 && inFlight === 0) {
      const w = waiters;
      waiters = [];
      for (const f of w) f();
    }
  };

  async function send(sub: PushSubscriptionRow, n: TNotification): Promise<void> {
    const payload = JSON.stringify({
      title: n.title,
      body: n.body,
      url: n.url,
      tag: n.event_id,
      kind: n.kind,
      conversation_id: n.conversation_id,
      ...(n.job_id ? { job_id: n.job_id } : {}),
    });
    const details = webpush.generateRequestDetails(
      { endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } },
      payload,
      {
        vapidDetails: { subject: deps.subject(), publicKey: deps.keys.publicKey, privateKey: deps.keys.privateKey },
        contentEncoding: "aes128gcm",
        TTL: deps.limits.ttlSeconds,
        urgency: "high",
      },
    );
    const headers = new Headers();
    // fetch computes Content-Length itself from the body.
    for (const [k, v] of Object.entries(details.headers))
      if (k.toLowerCase() !== "content-length") headers.set(k, String(v));
    const res = await fetch(details.endpoint, {
      method: "POST",
      headers,
      body: new Uint8Array(details.body),
      redirect: "manual",
      signal: AbortSignal.timeout(deps.limits.timeoutMs),
    });
    await res.body?.cancel().catch(() => undefined);
    if (res.status === 404 || res.status === 410) deps.onGone(sub.subscription_id);
    else if (res.status < 200 || res.status > 299)
      deps.logger.warn(
        { status: res.status, subscription_id: sub.subscription_id },
        "push service refused a notification",
      );
  }

  function pump(): void {
    while (!closed && inFlight < deps.limits.concurrency && queue.length > 0) {
      const job = queue.shift()!;
      inFlight++;
      send(job.sub, job.n)
        .catch((err: unknown) =>
          deps.logger.warn(
            { err: (err as Error).message, subscription_id: job.sub.subscription_id },
            "push send failed",
          ),
        )
        .finally(() => {
          inFlight--;
          pump();
          settle();
        });
    }
  }

  return {
    enqueue(sub, n) {
      if (closed) return;
      if (queue.length >= deps.limits.maxQueued) {
        deps.logger.warn({ queued: queue.length }, "push queue full: a notification was dropped");
        return;
      }
      queue.push({ sub, n });
      // After the current turn: the commit that caused it has already answered its caller.
      setImmediate(pump);
    },
    idle() {
      if (queue.length === 0 && inFlight === 0) return Promise.resolve();
      return new Promise((resolve) => waiters.push(resolve));
    },
    close() {
      closed = true;
      queue.length = 0;
      settle();
    },
  };
}
