import { actionPhrase, LIMITS } from "../../../contracts/facts.js";
import type { TCardAction } from "../../../contracts/cards.js";
import type { TJobActionRequest } from "../../../contracts/office.js";
import { AppError } from "../../shared/errors.js";
import type { Principal } from "../auth/token-store.js";
import type { Core } from "../core.js";
import type { IdemScope, StoredResponse } from "../idempotency.js";
import { memberConversation, memberJob } from "../conversations/conversations.js";
import { postText } from "../conversations/post-message.js";

export interface JobActionInput {
  conversation_id?: string | undefined;
  card_id: string;
  button_id: string;
  action: TCardAction;
  input?: Record<string, string | number | boolean> | undefined;
  trace_id?: string | undefined;
}

/**
 * A card button click. The gateway checks that the button was really offered (provenance,
 * against its own projection of card messages), lets Office pre-check the input so the modal
 * can show field errors at once, writes the readable action bubble, answers 202, and then hands
 * the click to Office, which alone decides what it does to the job. POST /v1/jobs/:job_id/actions,
 * and POST /v1/conversations/:id/messages with a `card_action`.
 */
export async function submitJobAction(
  core: Core,
  p: Principal,
  jobId: string,
  a: JobActionInput,
  idem?: IdemScope,
): Promise<StoredResponse> {
  const state = core.tenant(p.tenantId);
  const job = memberJob(core, p, jobId);
  const conversationId = a.conversation_id ?? job.conversation_id;
  memberConversation(core, p, conversationId);
  const card = state.cards.get(a.card_id);
  const button = card?.buttons.find((b) => b.button_id === a.button_id);
  if (
    !card ||
    card.job_id !== jobId ||
    card.conversation_id !== conversationId ||
    conversationId !== job.conversation_id
  ) {
    throw new AppError("INVALID_PROVENANCE", "That card was never posted for this job in this conversation", {
      card_id: a.card_id,
    });
  }
  if (!button) throw new AppError("INVALID_PROVENANCE", "That button is not on this card", { button_id: a.button_id });
  if (button.action.type !== a.action.type) {
    throw new AppError("INVALID_PROVENANCE", "The action does not match the button", {
      expected: button.action.type,
      got: a.action.type,
    });
  }
  if ("job_id" in a.action && a.action.job_id !== undefined && a.action.job_id !== jobId) {
    throw new AppError("INVALID_PROVENANCE", "The action names another job than the one clicked", {
      expected_job_id: jobId,
      got_job_id: a.action.job_id,
    });
  }

  // "Ask in chat" is a question, not a transition: it becomes the person's own message.
  if (a.action.type === "chat.ask") {
    const prompt =
      typeof a.input?.text === "string" && a.input.text
        ? a.input.text
        : (button.action as { prompt_text: string }).prompt_text;
    return postText(core, p, conversationId, { body_text: prompt, trace_id: a.trace_id }, idem);
  }

  const traceId = a.trace_id ?? core.ids("trc");
  const req: TJobActionRequest = {
    tenant_id: p.tenantId,
    trace_id: traceId,
    conversation_id: conversationId,
    job_id: jobId,
    actor_entity_id: p.entityId,
    card_id: a.card_id,
    button_id: a.button_id,
    action: a.action,
    ...(a.input ? { input: a.input } : {}),
  };
  core.office.checkJobAction(req);

  const me = core.me(p);
  const bubble = core.event(
    p.tenantId,
    "message.sent",
    conversationId,
    { entity_id: p.entityId, actor_type: "human" },
    {
      message_id: core.ids("msg"),
      kind: "system",
      body_text: actionPhrase(me.display_name, a.action.type, job.title).slice(0, LIMITS.messageChars),
      action: { card_id: a.card_id, button_id: a.button_id, type: a.action.type, job_id: jobId },
    },
    { job_id: jobId, trace_id: traceId },
  );
  // Office carries the click out from its durable inbox, taken in the same commit as the bubble.
  return core.commit(p.tenantId, [bubble], {
    idem,
    extra: () => core.office.accept({ kind: "job_action", request: { ...req, causation_id: bubble.event_id } }),
    body: (r) => ({
      accepted: true,
      job_id: jobId,
      conversation_id: conversationId,
      client_action: a.action.type,
      created_event_ids: r.accepted_event_ids,
      cursor: r.cursor,
    }),
  });
}
