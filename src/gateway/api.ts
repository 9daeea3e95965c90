import { listAgents, removeAgent, setAgentPaused, updateAgent } from "./admin/agents.js";
import { deactivateMember, listMembers, reactivateMember, setAccess } from "./admin/members.js";
import { inboundRefusals, mcpStatus, outbox, resendOutbox } from "./admin/office-status.js";
import { listPolicies, previewOverrides, saveOverrides } from "./admin/policies.js";
import { listTokens, revokeToken, rotateTokens } from "./admin/tokens.js";
import { startCall } from "./calls/calls.js";
import { artifact, attachFile } from "./conversations/attachments.js";
import { joinChannel, listChannels } from "./conversations/channels.js";
import { createConversation, markRead } from "./conversations/conversations.js";
import { addMember, removeMember, renameConversation } from "./conversations/members.js";
import { forwardMessage, getMessage, listPins, pinMessage } from "./conversations/message-links.js";
import { deleteMessage, editMessage, reactToMessage } from "./conversations/messages.js";
import { postMessage } from "./conversations/post-message.js";
import {
  getConversation,
  getJob,
  getTimeline,
  listConversations,
  listEntities,
  listPresence,
} from "./conversations/reads.js";
import { followThread, getThread, listThreadMarks, readThread } from "./conversations/threads.js";
import { signalTyping } from "./conversations/typing.js";
import type { Core } from "./core.js";
import type { GatewayApi } from "./gateway-api.js";
import { agentTools, setAgentTools } from "./jobs/agent-tools.js";
import { applySuggestion, assist, conversationTools, setThreadContext, threadContext, why } from "./jobs/assist.js";
import { handOver } from "./jobs/hand-over.js";
import { submitJobAction } from "./jobs/job-action.js";
import { setMute, subscribePush, unsubscribePush, vapidPublicKey } from "./notify/notifications.js";
import { createPasskeyApi } from "./passkeys/passkey-api.js";
import { avatar, removeAvatar, setAvatar } from "./people/avatar.js";
import { createContact, deleteContact, importContacts, listContacts, updateContact } from "./people/contacts.js";
import { digestSettings, updateProfile } from "./people/profile.js";
import { removePreview } from "./previews/remove-preview.js";
import {
  cancelScheduled,
  editScheduled,
  listScheduled,
  remindMe,
  scheduleMessage,
} from "./scheduled/scheduled-messages.js";
import type { Scheduler } from "./scheduled/scheduler.js";
import { searchMessages } from "./search/index.js";
import {
  createSignInLink,
  emailSignInLink,
  endSession,
  listSessions,
  openSession,
  redeemSignInLink,
  session,
  signInOptions,
  signOut,
} from "./sessions/sessions.js";
import { openStream } from "./stream/open-stream.js";
import {
  acceptInvite,
  createAgent,
  createInvite,
  createWorkspace,
  describeInvite,
  setMyEmail,
} from "./workspaces/workspaces.js";

/**
 * The gateway's door, composed of its features' functions. Each method is the feature's own
 * function with the gateway's state bound (`fn.bind(null, core)`), so a route's call goes straight
 * into the feature's file: nothing here is on a request's path, and a behaviour keeps one name
 * from the route to the function that does it.
 */
export function createGatewayApi(core: Core, scheduler: Scheduler): GatewayApi {
  return {
    listMembers: listMembers.bind(null, core),
    setAccess: setAccess.bind(null, core),
    deactivateMember: deactivateMember.bind(null, core),
    reactivateMember: reactivateMember.bind(null, core),
    rotateTokens: rotateTokens.bind(null, core),
    listAgents: listAgents.bind(null, core),
    updateAgent: updateAgent.bind(null, core),
    setAgentPaused: setAgentPaused.bind(null, core),
    removeAgent: removeAgent.bind(null, core),
    listTokens: listTokens.bind(null, core),
    revokeToken: revokeToken.bind(null, core),
    listPolicies: listPolicies.bind(null, core),
    previewOverrides: previewOverrides.bind(null, core),
    saveOverrides: saveOverrides.bind(null, core),
    ...createPasskeyApi(core),
    createWorkspace: createWorkspace.bind(null, core),
    describeInvite: describeInvite.bind(null, core),
    acceptInvite: acceptInvite.bind(null, core),
    openSession: openSession.bind(null, core),
    session: session.bind(null, core),
    signOut: signOut.bind(null, core),
    setMyEmail: setMyEmail.bind(null, core),

    createSignInLink: createSignInLink.bind(null, core),
    redeemSignInLink: redeemSignInLink.bind(null, core),
    emailSignInLink: emailSignInLink.bind(null, core),
    signInOptions: signInOptions.bind(null, core),
    listSessions: listSessions.bind(null, core),
    endSession: endSession.bind(null, core),

    createInvite: createInvite.bind(null, core),
    createAgent: createAgent.bind(null, core),
    agentTools: agentTools.bind(null, core),
    setAgentTools: setAgentTools.bind(null, core),
    mcpStatus: mcpStatus.bind(null, core),
    inboundRefusals: inboundRefusals.bind(null, core),
    outbox: outbox.bind(null, core),
    resendOutbox: resendOutbox.bind(null, core),

    listEntities: listEntities.bind(null, core),
    listPresence: listPresence.bind(null, core),
    listContacts: listContacts.bind(null, core),
    createContact: createContact.bind(null, core),
    importContacts: importContacts.bind(null, core),
    updateContact: updateContact.bind(null, core),
    deleteContact: deleteContact.bind(null, core),

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
    artifact: artifact.bind(null, core),
    conversationTools: conversationTools.bind(null, core),
    threadContext: threadContext.bind(null, core),
    setThreadContext: setThreadContext.bind(null, core),

    getJob: getJob.bind(null, core),
    submitJobAction: submitJobAction.bind(null, core),
    assist: assist.bind(null, core),
    applySuggestion: applySuggestion.bind(null, core),

    vapidPublicKey: vapidPublicKey.bind(null, core),
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
    avatar: avatar.bind(null, core),
    digestSettings: digestSettings.bind(null, core),
    updateProfile: updateProfile.bind(null, core),
    handOver: handOver.bind(null, core),
    why: why.bind(null, core),

    stream: openStream.bind(null, core),
  };
}
