import { WORKSPACE_CONVERSATION_ID, type TStoredEvent } from "../../contracts/events.js";
import type { Principal } from "./auth/token-store.js";
import type { Core } from "./core.js";

/**
 * Who may read what, in one place. A person reads the events of the conversations they belong
 * to, and the workspace events every member needs (who the people and agents are, the
 * contacts); jobs, tool calls and their cards live in a conversation, so they are read through
 * it. The whole tenant log — every conversation, policy violations — is for admins and
 * auditors (export, verification). The same rule serves ledger queries, ledger streams, the
 * agent trajectory and, through the projections, the Messenger's own reads and stream.
 */

/** Roles that read the whole tenant log. */
const WHOLE_LOG_ROLES = ["admin", "auditor"] as const;

/** Workspace events a member reads; anything else in the workspace conversation is whole-log only. */
const MEMBER_WORKSPACE_EVENTS = new Set<string>(["entity.registered", "contact.upserted", "conversation.created"]);

export function readsWholeLog(core: Core, p: Principal): boolean {
  const roles = core.me(p).roles;
  return WHOLE_LOG_ROLES.some((r) => roles.includes(r));
}

/** True when `entityId` is a participant of the conversation (as the projections have it now). */
export function isParticipant(core: Core, tenantId: string, conversationId: string, entityId: string): boolean {
  return core.tenant(tenantId).conversations.get(conversationId)?.participants.has(entityId) ?? false;
}

/** The conversations a reader may read, or undefined for a whole-log reader. */
export function conversationFilterFor(core: Core, p: Principal): ((conversationId: string) => boolean) | undefined {
  if (readsWholeLog(core, p)) return undefined;
  return (conversationId) => isParticipant(core, p.tenantId, conversationId, p.entityId);
}

/**
 * The reader's filter, or undefined for a whole-log reader. It consults the projections at each
 * call, so someone added to a conversation sees it from then on, and someone removed stops.
 */
export function eventFilterFor(
  core: Core,
  p: Principal,
):
  | ((e: Pick<TStoredEvent, "tenant_id" | "conversation_id" | "event_type"> & { payload?: unknown }) => boolean)
  | undefined {
  if (readsWholeLog(core, p)) return undefined;
  return (e) => {
    if (e.tenant_id !== p.tenantId) return false;
    if (e.conversation_id === WORKSPACE_CONVERSATION_ID) return MEMBER_WORKSPACE_EVENTS.has(e.event_type);
    if (!isParticipant(core, p.tenantId, e.conversation_id, p.entityId)) return false;
    return !isWithdrawnText(core, p.tenantId, e);
  };
}

/**
 * A deleted message's own text (its message.sent and edits) is no longer read by members; the
 * whole-log readers (admins, auditors) still read every event, as the chain needs them kept.
 */
function isWithdrawnText(core: Core, tenantId: string, e: { event_type: string; payload?: unknown }): boolean {
  if (e.event_type !== "message.sent" && e.event_type !== "message.edited") return false;
  const id = (e.payload as { message_id?: unknown } | undefined)?.message_id;
  return typeof id === "string" && core.tenant(tenantId).messages.get(id)?.deleted === true;
}
