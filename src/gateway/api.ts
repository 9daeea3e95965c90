import { agentTools, setAgentTools } from "./jobs/agent-tools.js";
import { readFile } from "node:fs/promises";
import { createAdminApi } from "./admin/admin-api.js";
import { createPasskeyApi } from "./passkeys/passkey-api.js";
import { AppError } from "../shared/errors.js";
import type { Principal } from "./auth/token-store.js";
import { attachFile, findArtifact } from "./conversations/attachments.js";
import { contactsFromCsv, deleteContact, existingContact, listContacts, upsertContacts } from "./people/contacts.js";
import { createConversation, markRead, memberConversation, memberJob } from "./conversations/conversations.js";
import { postMessage } from "./conversations/post-message.js";
import { openStream } from "./stream/open-stream.js";
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
  getConversation,
  getJob,
  getTimeline,
  listConversations,
  listEntities,
  listPresence,
} from "./conversations/reads.js";
import { searchMessages } from "./search/index.js";
import { signalTyping } from "./conversations/typing.js";

/**
 * The gateway's door, composed of its features' functions. A method is the feature's own function
 * with the gateway's state bound (`fn.bind(null, core)`), so a route's call lands in the feature's
 * file and nothing here is on the request's path; the few methods written out here join two
 * features' answers (a job's drawer and its model audit) or check admin rights first.
 */
export function createGatewayApi(core: Core, scheduler: Scheduler): GatewayApi {
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
    describeInvite: describeInvite.bind(null, core),
    acceptInvite: acceptInvite.bind(null, core),
    openSession(token) {
      const principal = core.tokens.resolve(token);
      if (!principal) throw new AppError("UNAUTHORIZED", "This token is unknown or was revoked");
      return { principal, session: sessionOf(principal) };
    },
    session: sessionOf,
    signOut: (token) => void core.tokens.revoke(token),
    setMyEmail: setMyEmail.bind(null, core),

    createSignInLink: createDeviceLink.bind(null, core),
    redeemSignInLink: redeemLink.bind(null, core),
    emailSignInLink: emailLink.bind(null, core),
    signInOptions: signInOptions.bind(null, core),
    listSessions: listSessions.bind(null, core),
    endSession: endSession.bind(null, core),

    createInvite: createInvite.bind(null, core),
    createAgent: createAgent.bind(null, core),
    agentTools: agentTools.bind(null, core),
    setAgentTools: setAgentTools.bind(null, core),
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

    listEntities: listEntities.bind(null, core),
    listPresence: listPresence.bind(null, core),
    listContacts: listContacts.bind(null, core),
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

    createConversation: createConversation.bind(null, core),
    listConversations: listConversations.bind(null, core),
    getConversation: getConversation.bind(null, core),
    timeline: getTimeline.bind(null, core),
    search: searchMessages.bind(null, core),
    postMessage: postMessage.bind(null, core),
    markRead: markRead.bind(null, core),
    signalTyping: signalTyping.bind(null, core, new Map()),
    addMember: addMember.bind(null, core),
    listChannels: listChannels.bind(null, core),
    joinChannel: joinChannel.bind(null, core),
    scheduleMessage: scheduleMessage.bind(null, core, scheduler),
    remindMe: remindMe.bind(null, core, scheduler),
    listScheduled: listScheduled.bind(null, scheduler),
    editScheduled: editScheduled.bind(null, core, scheduler),
    cancelScheduled: cancelScheduled.bind(null, core, scheduler),
    removeMember: removeMember.bind(null, core),
    renameConversation: renameConversation.bind(null, core),
    attachFile: attachFile.bind(null, core),
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
    setThreadContext: setThreadContext.bind(null, core),

    async getJob(p, jobId) {
      const job = await getJob(core, p, jobId);
      return { ...job, llm: llmAudit(core, p, job.job_id) };
    },
    submitJobAction: submitJobAction.bind(null, core),
    assist(p, jobId, traceId) {
      memberJob(core, p, jobId);
      return core.office.assist(p.tenantId, jobId, traceId);
    },
    applySuggestion: applySuggestion.bind(null, core),

    vapidPublicKey(p) {
      core.me(p);
      return { public_key: core.notify.vapidPublicKey };
    },
    subscribePush: subscribePush.bind(null, core),
    unsubscribePush: unsubscribePush.bind(null, core),
    setMute: setMute.bind(null, core),
    editMessage: editMessage.bind(null, core),
    deleteMessage: deleteMessage.bind(null, core),
    reactToMessage: reactToMessage.bind(null, core),
    getMessage: getMessage.bind(null, core),
    forwardMessage: forwardMessage.bind(null, core),
    pinMessage: pinMessage.bind(null, core),
    removePreview: removePreview.bind(null, core),
    listPins: listPins.bind(null, core),
    getThread: getThread.bind(null, core),
    listThreadMarks: listThreadMarks.bind(null, core),
    followThread: followThread.bind(null, core),
    readThread: readThread.bind(null, core),
    startCall: startCall.bind(null, core),

    setAvatar: setAvatar.bind(null, core),
    removeAvatar: removeAvatar.bind(null, core),
    async avatar(p, avatarId) {
      const found = findAvatar(core, p, avatarId);
      return { mime: found.mime, bytes: await readFile(found.path) };
    },
    digestSettings: digestSettings.bind(null, core),
    updateProfile: (p, entityId, body, idem) =>
      updateProfile(core, p, entityId === "me" ? p.entityId : entityId, body, idem),
    handOver: handOverJob.bind(null, core),
    async why(p, jobId) {
      memberJob(core, p, jobId);
      // Told in the reader's language: their profile's, else the workspace default.
      return core.office.explainJob(p.tenantId, jobId, core.tenant(p.tenantId).entities.get(p.entityId)?.locale);
    },

    stream: openStream.bind(null, core),
  };
}
