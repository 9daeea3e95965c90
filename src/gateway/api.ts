import { agentTools, setAgentTools } from "./jobs/agent-tools.js";
import { readFile } from "node:fs/promises";
import { createAdminApi } from "./admin/admin-api.js";
import { createPasskeyApi } from "./passkeys/passkey-api.js";
import { AppError } from "../shared/errors.js";
import type { Principal } from "./auth/token-store.js";
import { attachFile, findArtifact } from "./conversations/attachments.js";
import { contactsFromCsv, deleteContact, existingContact, listContacts, upsertContacts } from "./people/contacts.js";
import {
  createConversation,
  markRead,
  memberConversation,
  memberJob,
  postText,
} from "./conversations/conversations.js";
import { submitJobAction } from "./jobs/job-action.js";
import { applySuggestion, llmAudit, setThreadContext } from "./jobs/assist.js";
import { setMute, subscribePush, unsubscribePush } from "./notify/notifications.js";
import {
  createDeviceLink,
  emailLink,
  endSession,
  listSessions,
  redeemLink,
  signInOptions,
} from "./sessions/sessions.js";
import { handOverJob } from "./jobs/hand-over.js";
import { digestSettings, updateProfile } from "./people/profile.js";
import { findAvatar, removeAvatar, setAvatar } from "./people/avatar.js";
import { addMember, removeMember, renameConversation } from "./conversations/members.js";
import { joinChannel, listChannels } from "./conversations/channels.js";
import {
  cancelScheduled,
  editScheduled,
  listScheduled,
  remindMe,
  scheduleMessage,
} from "./scheduled/scheduled-messages.js";
import type { Scheduler } from "./scheduled/scheduler.js";
import { deleteMessage, editMessage, reactToMessage } from "./conversations/messages.js";
import { forwardMessage, getMessage, listPins, pinMessage } from "./conversations/message-links.js";
import { removePreview } from "./previews/remove-preview.js";
import { followThread, getThread, listThreadMarks, readThread } from "./conversations/threads.js";
import { startCall } from "./calls/calls.js";
import {
  acceptInvite,
  createAgent,
  createInvite,
  createWorkspace,
  describeInvite,
  refuseClosedSignup,
  requireAdmin,
  setMyEmail,
} from "./workspaces/workspaces.js";
import type { Core } from "./core.js";
import type { GatewayApi, SessionView } from "./gateway-api.js";
import {
  cursorParam,
  getConversation,
  getJob,
  getTimeline,
  listConversations,
  listEntities,
  listPresence,
} from "./conversations/reads.js";
import type { ServerResponse } from "node:http";
import { searchMessages } from "./search/index.js";
import { signalTyping, type TypingThrottle } from "./conversations/typing.js";

/**
 * The gateway's door over its commands and reads. Each method is what one route does once the
 * request is parsed: the routes (src/gateway/routes/) only parse, call and answer.
 */
export function createGatewayApi(
  core: Core,
  live: { stream(p: Principal, res: ServerResponse, cursor: number | null, tokenHash: string): void },
  scheduler: Scheduler,
): GatewayApi {
  const typing: TypingThrottle = new Map();
  const sessionOf = (p: Principal): SessionView => {
    const me = core.me(p);
    return {
      tenant_id: p.tenantId,
      entity_id: p.entityId,
      display_name: me.display_name,
      actor_type: me.actor_type,
      roles: me.roles,
      email: me.email?.redacted ?? null,
      ...(me.locale ? { locale: me.locale } : {}),
      read_receipts: me.read_receipts !== false,
      calls: core.office.calls,
    };
  };

  return {
    ...createAdminApi(core),
    ...createPasskeyApi(core),
    createWorkspace: (body, idem) => {
      // Checked inside the write (after the idempotency lookup): a retry of a workspace created
      // before sign-up shut still gets its stored 201.
      refuseClosedSignup(core);
      return createWorkspace(core, body, idem);
    },
    describeInvite: (invite) => describeInvite(core, invite),
    acceptInvite: (invite, body, idem) => acceptInvite(core, invite, body, idem),
    openSession(token) {
      const principal = core.tokens.resolve(token);
      if (!principal) throw new AppError("UNAUTHORIZED", "This token is unknown or was revoked");
      return { principal, session: sessionOf(principal) };
    },
    session: sessionOf,
    signOut: (token) => void core.tokens.revoke(token),
    setMyEmail: (p, email, idem) => setMyEmail(core, p, email, idem),

    createSignInLink: (p, idem) => createDeviceLink(core, p, idem),
    redeemSignInLink: (code, device, idem) => redeemLink(core, code, device, idem),
    emailSignInLink: (body, client, idem, wait) => emailLink(core, body, client, idem, wait),
    signInOptions: () => signInOptions(core),
    listSessions: (p, tokenHash) => listSessions(core, p, tokenHash),
    endSession: (p, sessionId, tokenHash, idem) => endSession(core, p, sessionId, tokenHash, idem),

    createInvite: (p, body, idem) => createInvite(core, p, body, idem),
    createAgent: (p, body, idem) => createAgent(core, p, body, idem),
    agentTools: (p, agentId) => agentTools(core, p, agentId),
    setAgentTools: (p, agentId, body, idem) => setAgentTools(core, p, agentId, body, idem),
    mcpStatus(p) {
      requireAdmin(core, p);
      return { servers: core.office.mcpStatus() };
    },
    inboundRefusals(p, limit) {
      requireAdmin(core, p);
      return core.office.inboundRefusals(p.tenantId, limit);
    },
    outbox(p) {
      requireAdmin(core, p);
      return core.office.outbox(p.tenantId);
    },
    async resendOutbox(p, outboxId, idem) {
      requireAdmin(core, p);
      const r = await core.office.resendOutbox(p.tenantId, outboxId);
      const response = {
        status: 202,
        body: { accepted: true, outbox_id: outboxId, job_id: r.job_id, created_event_ids: r.emitted_event_ids },
      };
      core.idem.record(idem, response, core.db);
      return response;
    },

    listEntities: (p) => listEntities(core, p),
    listPresence: (p) => listPresence(core, p),
    listContacts: (p) => listContacts(core, p),
    createContact: (p, body, idem) => upsertContacts(core, p, [{ body }], idem),
    importContacts: (p, body, idem) =>
      upsertContacts(
        core,
        p,
        contactsFromCsv(body.csv).map((row) => ({ body: row })),
        idem,
      ),
    updateContact(p, contactId, patch, idem) {
      const prev = existingContact(core, p, contactId);
      // An edit answers 200 (201 is for a contact created).
      return upsertContacts(
        core,
        p,
        [{ id: prev.contact_id, body: { ...patch, display_name: patch.display_name ?? prev.display_name } }],
        idem,
        200,
      );
    },
    deleteContact(p, contactId, idem) {
      requireAdmin(core, p);
      return deleteContact(core, p, existingContact(core, p, contactId), idem);
    },

    createConversation: (p, body, idem) => createConversation(core, p, body, idem),
    listConversations: (p) => listConversations(core, p),
    getConversation: (p, id) => getConversation(core, p, id),
    timeline: (p, id, query) => getTimeline(core, p, id, query),
    search: (p, query) => searchMessages(core, p, query),
    postMessage(p, conversationId, body, idem) {
      if (body.kind !== "text") return submitJobAction(core, p, { ...body, conversation_id: conversationId }, idem);
      // Tokens are checked before anything is stored: a bad one is a 422, no message, no model call.
      memberConversation(core, p, conversationId);
      core.office.checkMessage({
        tenant_id: p.tenantId,
        conversation_id: conversationId,
        actor_entity_id: p.entityId,
        body_text: body.body_text,
      });
      return postText(core, p, conversationId, body, idem);
    },
    markRead: (p, id, body, idem) => markRead(core, p, id, body, idem),
    signalTyping: (p, id) => signalTyping(core, typing, p, id),
    addMember: (p, id, body, idem) => addMember(core, p, id, body, idem),
    listChannels: (p) => listChannels(core, p),
    joinChannel: (p, id, idem) => joinChannel(core, p, id, idem),
    scheduleMessage: (p, id, body, idem) => scheduleMessage(core, scheduler, p, id, body, idem),
    remindMe: (p, id, messageId, body, idem) => remindMe(core, scheduler, p, id, messageId, body, idem),
    listScheduled: (p) => listScheduled(scheduler, p),
    editScheduled: (p, scheduleId, body, idem) => editScheduled(core, scheduler, p, scheduleId, body, idem),
    cancelScheduled: (p, scheduleId, idem) => cancelScheduled(core, scheduler, p, scheduleId, idem),
    removeMember: (p, id, entityId, idem) => removeMember(core, p, id, entityId, idem),
    renameConversation: (p, id, body, idem) => renameConversation(core, p, id, body, idem),
    attachFile: (p, id, file, idem, caption, durationMs) => attachFile(core, p, id, file, idem, caption, durationMs),
    async artifact(p, artifactId) {
      const found = findArtifact(core, p, artifactId);
      return "path" in found
        ? { filename: found.filename, mime: found.mime, bytes: await readFile(found.path) }
        : found;
    },
    conversationTools(p, conversationId) {
      memberConversation(core, p, conversationId);
      return core.office.conversationTools(p.tenantId, conversationId);
    },
    threadContext(p, conversationId) {
      memberConversation(core, p, conversationId);
      return core.office.threadContext(p.tenantId, conversationId);
    },
    setThreadContext: (p, id, what, jobId, idem) => setThreadContext(core, p, id, what, jobId, idem),

    async getJob(p, jobId) {
      const job = await getJob(core, p, jobId);
      return { ...job, llm: llmAudit(core, p, job.job_id) };
    },
    submitJobAction: (p, jobId, body, idem) => submitJobAction(core, p, { ...body, job_id: jobId }, idem),
    assist(p, jobId, traceId) {
      memberJob(core, p, jobId);
      return core.office.assist(p.tenantId, jobId, traceId);
    },
    applySuggestion: (p, jobId, suggestionId, body, idem) => applySuggestion(core, p, jobId, suggestionId, body, idem),

    vapidPublicKey(p) {
      core.me(p);
      return { public_key: core.notify.vapidPublicKey };
    },
    subscribePush: (p, body, idem) => subscribePush(core, p, body, idem),
    unsubscribePush: (p, body, idem) => unsubscribePush(core, p, body, idem),
    setMute: (p, conversationId, body, idem) => setMute(core, p, conversationId, body, idem),
    editMessage: (p, conversationId, messageId, body, idem) =>
      editMessage(core, p, conversationId, messageId, body, idem),
    deleteMessage: (p, conversationId, messageId, idem) => deleteMessage(core, p, conversationId, messageId, idem),
    reactToMessage: (p, conversationId, messageId, body, idem) =>
      reactToMessage(core, p, conversationId, messageId, body, idem),
    getMessage: (p, conversationId, messageId) => getMessage(core, p, conversationId, messageId),
    forwardMessage: (p, conversationId, messageId, body, idem) =>
      forwardMessage(core, p, conversationId, messageId, body, idem),
    pinMessage: (p, conversationId, messageId, body, idem) =>
      pinMessage(core, p, conversationId, messageId, body, idem),
    removePreview: (p, conversationId, messageId, body, idem) =>
      removePreview(core, p, conversationId, messageId, body, idem),
    listPins: (p, conversationId) => listPins(core, p, conversationId),
    getThread: (p, conversationId, messageId) => getThread(core, p, conversationId, messageId),
    listThreadMarks: (p, conversationId) => listThreadMarks(core, p, conversationId),
    followThread: (p, conversationId, messageId, body, idem) =>
      followThread(core, p, conversationId, messageId, body, idem),
    readThread: (p, conversationId, messageId, body, idem) =>
      readThread(core, p, conversationId, messageId, body, idem),
    startCall: (p, conversationId, idem) => startCall(core, p, conversationId, idem),

    setAvatar: (p, file, idem) => setAvatar(core, p, file, idem),
    removeAvatar: (p, idem) => removeAvatar(core, p, idem),
    async avatar(p, avatarId) {
      const found = findAvatar(core, p, avatarId);
      return { mime: found.mime, bytes: await readFile(found.path) };
    },
    digestSettings: (p) => digestSettings(core, p),
    updateProfile: (p, entityId, body, idem) =>
      updateProfile(core, p, entityId === "me" ? p.entityId : entityId, body, idem),
    handOver: (p, jobId, body, idem) => handOverJob(core, p, jobId, body, idem),
    async why(p, jobId) {
      memberJob(core, p, jobId);
      // Told in the reader's language: their profile's, else the workspace default.
      return core.office.explainJob(p.tenantId, jobId, core.tenant(p.tenantId).entities.get(p.entityId)?.locale);
    },

    stream: (p, res, cursor, tokenHash) => live.stream(p, res, cursor, tokenHash),
    streamCursor: (p, raw, from) => cursorParam(raw, from, core.tenant(p.tenantId).head),
  };
}
