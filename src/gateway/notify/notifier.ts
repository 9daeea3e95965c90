import type { TStoredEvent } from "../../../contracts/events.js";
import type { Locale } from "../../shared/i18n.js";
import type { Delta, TenantState } from "../projections/state.js";
import { decideNotifications, type JobBefore, type Recipient } from "./decide.js";
import type { MuteStore } from "./mutes.js";
import type { PushSender } from "./push-sender.js";
import type { SubscriptionStore } from "./subscriptions.js";

/** How far back in a conversation's timeline the message that led to a job is looked for. */
const CAUSE_LOOKBACK = 200;

export interface Notifier {
  /** Before the projector folds `ev`: what the decision needs to compare against. */
  before(state: TenantState | undefined, ev: TStoredEvent): JobBefore | undefined;
  /**
   * After the fold. On boot replay (`live` false) it only keeps its own index (who requested
   * each job); live, it decides who is told and returns their SSE `notification` deltas, and
   * queues the Web Push sends (only where `pushes()` says so: on PostgreSQL, the lease holder).
   * Nothing here waits on the network.
   */
  after(state: TenantState, ev: TStoredEvent, jobBefore: JobBefore | undefined, live: boolean, nowMs: number): Delta[];
}

export function createNotifier(deps: {
  mutes: MuteStore;
  subscriptions: SubscriptionStore;
  push: PushSender;
  defaultLocale?: Locale | undefined;
  /** Whether this process sends Web Push now (absent: always). */
  pushes?: () => boolean;
  onError?: (err: unknown) => void;
}): Notifier {
  /** tenant\0job → the person whose message led to the job. */
  const requester = new Map<string, string>();

  function rememberRequester(state: TenantState, ev: TStoredEvent): void {
    if (ev.event_type !== "job.created") return;
    const jobId = ev.payload.job_id;
    if (ev.actor.actor_type === "human") {
      requester.set(`${ev.tenant_id}\0${jobId}`, ev.actor.entity_id);
      return;
    }
    // Office names the person's message as the cause of the job it creates.
    const items = state.timeline.get(ev.conversation_id) ?? [];
    for (let i = items.length - 1, n = 0; i >= 0 && n < CAUSE_LOOKBACK; i--, n++) {
      const it = items[i]!;
      if (it.event_id !== ev.causation_id) continue;
      if (state.entities.get(it.sender.entity_id)?.actor_type === "human")
        requester.set(`${ev.tenant_id}\0${jobId}`, it.sender.entity_id);
      return;
    }
  }

  return {
    before(state, ev) {
      if (ev.event_type !== "job.progress" || !ev.job_id || !state) return undefined;
      return { waiting_on: (state.jobs.get(ev.job_id)?.waiting_on ?? []).map((w) => w.entity_id) };
    },
    after(state, ev, jobBefore, live, nowMs) {
      rememberRequester(state, ev);
      if (!live) return [];
      const recipients: Recipient[] = decideNotifications(state, ev, {
        jobBefore,
        defaultLocale: deps.defaultLocale,
        requestedBy: ev.job_id ? requester.get(`${ev.tenant_id}\0${ev.job_id}`) : undefined,
      })
        .filter((r) => !deps.mutes.isMuted(ev.tenant_id, r.entity_id, ev.conversation_id))
        // Do not disturb: nothing now (no frame, no push) and nothing later (the digest follows these).
        .filter((r) => !(Date.parse(state.entities.get(r.entity_id)?.dnd_until ?? "") > nowMs));
      const deltas: Delta[] = [];
      const pushing = deps.pushes?.() ?? true;
      for (const r of recipients) {
        deltas.push({
          event: "notification",
          data: { tenant_id: ev.tenant_id, entity_id: r.entity_id, notification: r.notification },
          audience: new Set([r.entity_id]),
        });
        if (!pushing) continue;
        deps.subscriptions.forEntity(ev.tenant_id, r.entity_id, nowMs).then(
          (subs) => {
            for (const sub of subs) deps.push.enqueue(sub, r.notification);
          },
          (err: unknown) => deps.onError?.(err),
        );
      }
      return deltas;
    },
  };
}
