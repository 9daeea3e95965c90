import type { TIngestMessageRequest } from "../../../contracts/office.js";
import type { ContextBuilder, EntityProfile } from "../context-builder.js";

/**
 * Whether an agent speaks at all. In a conversation with one person, the agent answers every
 * message (as a direct chat with it always has). With more than one person, people talk to each
 * other too, so an agent answers only when the message is for it:
 * - it is mentioned (the message's `mentions`, or `@Name` typed without the picker);
 * - the message replies to one of its messages (`reply_to_message_id`);
 * - it is continuing its own job: one of its jobs here is waiting for input from this person.
 * Everything is read from what the ledger recorded: the message's event, the agent's messages,
 * the job's latest Tracking card.
 */
export type GroupVerdict =
  | { agent: EntityProfile; why: "one_person" | "mentioned" | "replied_to" | "own_job" }
  | { agent: undefined; why: "no_agent" | "not_addressed" };

export function whoAnswers(
  context: Pick<
    ContextBuilder,
    "participants" | "profile" | "answeringAgent" | "conversationJobs" | "job" | "agentAuthorOf"
  >,
  req: Pick<
    TIngestMessageRequest,
    "tenant_id" | "conversation_id" | "actor_entity_id" | "body_text" | "mentions" | "reply_to_message_id"
  >,
): GroupVerdict {
  const t = req.tenant_id;
  const members = context.participants(t, req.conversation_id).map((id) => context.profile(t, id));
  const people = members.filter((m) => m?.actor_type === "human").length;
  const agents = members.filter(
    (m): m is EntityProfile => m?.actor_type === "agent" && m.entity_id !== req.actor_entity_id,
  );
  if (agents.length === 0) return { agent: undefined, why: "no_agent" };
  if (people <= 1) {
    const agent = context.answeringAgent(t, req.conversation_id, req.body_text, req.actor_entity_id);
    return agent ? { agent, why: "one_person" } : { agent: undefined, why: "no_agent" };
  }
  const byId = (id: string | undefined) => agents.find((a) => a.entity_id === id);
  for (const id of req.mentions ?? []) {
    const a = byId(id);
    if (a) return { agent: a, why: "mentioned" };
  }
  const typed = agents.find((a) => typedMention(req.body_text, a.display_name));
  if (typed) return { agent: typed, why: "mentioned" };
  const repliedTo = req.reply_to_message_id ? byId(context.agentAuthorOf(t, req.reply_to_message_id)) : undefined;
  if (repliedTo) return { agent: repliedTo, why: "replied_to" };
  for (const a of agents)
    if (waitsOn(context, t, req.conversation_id, a.entity_id, req.actor_entity_id)) return { agent: a, why: "own_job" };
  return { agent: undefined, why: "not_addressed" };
}

/** `@Office` or `@Office Scheduler` in the text, as a word of its own. */
function typedMention(text: string, name: string): boolean {
  const lower = text.toLowerCase();
  const first = name.split(/\s+/)[0]!.toLowerCase();
  for (const candidate of new Set([name.toLowerCase(), first])) {
    let at = lower.indexOf(`@${candidate}`);
    while (at !== -1) {
      const next = lower[at + 1 + candidate.length];
      if (next === undefined || !/[\p{L}\p{N}_]/u.test(next)) return true;
      at = lower.indexOf(`@${candidate}`, at + 1);
    }
  }
  return false;
}

/** One of the agent's jobs here waits for input, and its latest Tracking card waits on this person (or names nobody and this person asked for it). */
function waitsOn(
  context: Pick<ContextBuilder, "conversationJobs" | "job">,
  t: string,
  conversationId: string,
  agentId: string,
  personId: string,
): boolean {
  for (const summary of context.conversationJobs(t, conversationId)) {
    if (summary.owner_entity_id !== agentId || summary.state !== "waiting_input") continue;
    const job = context.job(t, summary.job_id);
    if (!job) continue;
    const tracking = job.latest["job.tracking"];
    const waiting = tracking?.card_type === "job.tracking" ? (tracking.progress.waiting_on ?? []) : [];
    if (waiting.some((w) => w.entity_id === personId)) return true;
    if (waiting.length === 0 && (job.slots.requested_by === personId || job.approvals.some((a) => a.by === personId)))
      return true;
  }
  return false;
}

/**
 * The message without the agent's mention in front ("@Office Scheduler please order paper" →
 * "please order paper"): addressed to the agent, it is read as the same words in a direct chat.
 * A mention anywhere else stays, and a message that is only the mention is kept as it is.
 */
export function withoutLeadingMention(text: string, name: string): string {
  const trimmed = text.trimStart();
  const lower = trimmed.toLowerCase();
  const first = name.split(/\s+/)[0]!.toLowerCase();
  for (const candidate of [name.toLowerCase(), first]) {
    if (!lower.startsWith(`@${candidate}`)) continue;
    const next = lower[1 + candidate.length];
    if (next !== undefined && /[\p{L}\p{N}_]/u.test(next)) continue;
    let at = 1 + candidate.length;
    while (at < trimmed.length && " \t\n,:;—–-".includes(trimmed[at]!)) at++;
    const rest = trimmed.slice(at);
    return rest ? rest : text;
  }
  return text;
}
