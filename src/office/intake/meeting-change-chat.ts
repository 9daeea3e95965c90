import type { TIngestMessageRequest, TJobActionRequest } from "../../../contracts/office.js";
import { AppError } from "../../shared/errors.js";
import type { ContextBuilder, EntityProfile } from "../context-builder.js";
import type { Draft, EmitContext } from "../emitter.js";
import type { JobView } from "../job-machine.js";
import { bookedOf, isChangeable } from "../jobs/meeting-change.js";
import type { MeetingChangeWords } from "../planner/meeting-change-words.js";
import { mentionsTime } from "../planner/slots.js";
import type { Translate } from "../speak.js";

/**
 * "Move it to Thursday 10am" / "cancel the call with Maria" in the chat: the same click as the
 * booked meeting's Move… or Cancel meeting button, made as the person who wrote it, so it passes
 * the same checks and proposes the same follow-up job for approval. Which meeting: the newest
 * version of each booked meeting in this conversation that can still change, narrowed to the
 * attendee named; of several, the most recent (the proposal names it before anyone approves).
 */
export function createMeetingChangeChat(deps: {
  context: ContextBuilder;
  emit: (ec: EmitContext, d: Draft[]) => Promise<string[]>;
  say: (agentId: string, text: string, jobId?: string) => Draft;
  handleClick: (req: TJobActionRequest) => Promise<{ ids: string[]; notes?: string; job_id?: string }>;
}) {
  const { context } = deps;

  /** The meetings of the conversation that can be moved or cancelled now, oldest first. */
  function changeable(tenantId: string, conversationId: string): JobView[] {
    const latest = new Map<string, { job: JobView; sequence: number }>();
    for (const s of context.conversationJobs(tenantId, conversationId)) {
      const job = context.job(tenantId, s.job_id);
      const b = job ? bookedOf(job) : undefined;
      if (!job || !b) continue;
      const cur = latest.get(b.event_uid);
      if (!cur || b.sequence > cur.sequence) latest.set(b.event_uid, { job, sequence: b.sequence });
    }
    return [...latest.values()].map((x) => x.job).filter(isChangeable);
  }

  const named = (job: JobView, who: string) => {
    const w = who.toLowerCase();
    return (
      (job.slots.attendee_name ?? "").toLowerCase().split(/\s+/)[0] === w ||
      (job.slots.title ?? job.title).toLowerCase().includes(w)
    );
  };

  return async function handle(
    req: TIngestMessageRequest,
    agent: EntityProfile,
    ec: EmitContext,
    words: MeetingChangeWords,
    t: Translate,
  ) {
    const reply = async (text: string, notes: string, jobId?: string) => ({
      ids: await deps.emit(ec, [deps.say(agent.entity_id, text, jobId)]),
      notes,
    });
    const all = changeable(req.tenant_id, req.conversation_id);
    const fits = words.who ? all.filter((j) => named(j, words.who!)) : all;
    const job = fits.at(-1);
    const key = words.kind === "move" ? "office.change.chat.noneMove" : "office.change.chat.noneCancel";
    const none = () =>
      reply(
        t(key, { who: words.who ? t("office.change.chat.with", { name: words.who }) : "" }).replace(/\s{2,}/g, " "),
        "No booked meeting to change",
      );
    if (!job) return none();
    const card = job.latest["job.finished"];
    const button = card?.buttons.find((b) => b.action.type === "job.follow_up" && b.action.change === words.kind);
    if (!card || !button) return none();
    if (
      words.kind === "move" &&
      !(mentionsTime(words.time ?? "", words.locale) || mentionsTime(words.time ?? "", job.slots.locale))
    ) {
      return reply(t("office.change.chat.when"), "Asked when to move it", job.job_id);
    }
    try {
      const r = await deps.handleClick({
        tenant_id: req.tenant_id,
        trace_id: req.trace_id,
        conversation_id: req.conversation_id,
        job_id: job.job_id,
        actor_entity_id: req.actor_entity_id,
        card_id: card.card_id,
        button_id: button.button_id,
        action: button.action,
        ...(words.kind === "move" ? { input: { time_window: words.time ?? "" } } : {}),
        ...(req.message_event_id ? { causation_id: req.message_event_id } : {}),
      });
      return {
        ids: r.ids,
        notes: r.notes ?? "Proposed a change to the meeting",
        ...(r.job_id ? { job_id: r.job_id } : {}),
      };
    } catch (err) {
      // A refusal (already cancelled, a time that does not parse) is said in the chat, not thrown at the sender.
      if (err instanceof AppError && (err.code === "CONFLICT" || err.code === "INVALID_INPUT"))
        return reply(err.message.replace(/^time_window: /, ""), "Change refused", job.job_id);
      throw err;
    }
  };
}
