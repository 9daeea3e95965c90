import type { ServerResponse } from "node:http";
import type { z } from "zod";
import type {
  ZAcceptInviteRequest,
  ZCreateAgentRequest,
  ZSetAgentToolsRequest,
  ZCreateConversationRequest,
  ZCreateInviteRequest,
  ZCreateWorkspaceRequest,
  ZImportContactsRequest,
  ZJobActionSubmit,
  ZPatchContactRequest,
  ZEditMessageRequest,
  ZReactRequest,
  ZReadMarkerRequest,
  ZUpsertContactRequest,
} from "../../contracts/gateway.js";
import type { TAssistResponse, TThreadContextView } from "../../contracts/llm.js";
import type { TChannelList, TInboundRefusals } from "../../contracts/gateway-responses.js";
import type {
  ZAddMemberRequest,
  ZFollowThreadRequest,
  ZForwardRequest,
  ZPinRequest,
  ZRemovePreviewRequest,
  ZRenameConversationRequest,
  ZThreadReadRequest,
} from "../../contracts/gateway.js";
import type {
  TScheduledList,
  ZEditScheduleRequest,
  ZRemindRequest,
  ZScheduleMessageRequest,
} from "../../contracts/scheduled.js";
import type { ZMuteRequest, ZPushSubscribeRequest, ZPushUnsubscribeRequest } from "../../contracts/notifications.js";
import type { ZEmailSignInLinkRequest } from "../../contracts/sessions.js";
import type { TDigestSettings, TWhyResponse, ZHandOverRequest, ZProfileUpdateRequest } from "../../contracts/people.js";
import type { TSearchResults } from "../../contracts/search.js";
import type { searchMessages } from "./search/search-messages.js";
import type { Principal } from "./auth/token-store.js";
import type { Core } from "./core.js";
import type { StreamRequest } from "./stream/open-stream.js";
import type { TextMessage } from "./conversations/post-message.js";
import type { AdminApi } from "./admin/admin-api.js";
import type { PasskeyApi } from "./passkeys/passkey-api.js";
import type { ServedFile } from "./conversations/attachments.js";
import type { IdemScope, StoredResponse } from "./idempotency.js";
import type { getMessage, listPins } from "./conversations/message-links.js";
import type { getThread, listThreadMarks } from "./conversations/threads.js";
import type {
  getConversation,
  getJob,
  getTimeline,
  listConversations,
  listEntities,
  listPresence,
} from "./conversations/reads.js";
import type { listContacts } from "./people/contacts.js";
import type { describeInvite } from "./workspaces/workspaces.js";
import type { listSessions, signInOptions, SessionView } from "./sessions/sessions.js";
import type { AgentToolView, ConversationTool, McpServerStatus, OutboxDelivery } from "../office/index.js";

type In<T extends z.ZodType> = z.infer<T>;

/**
 * The gateway's door: one method per REST route of the Messenger (`/v1/...`), taking the caller
 * and the parsed contract body and returning what the route answers. Writes take the request's
 * idempotency scope and resolve with the stored response (status and body), committed with
 * their events. Every method applies the read model (src/gateway/visibility.ts and the member
 * checks): what the caller may not see answers NOT_FOUND, what they may not do FORBIDDEN.
 */
export interface GatewayApi extends AdminApi, PasskeyApi {
  // Workspaces, invites and sessions.
  /** POST /v1/workspaces: a tenant and its owner, signed in (SIGNUP decides whether the web may). */
  createWorkspace(body: In<typeof ZCreateWorkspaceRequest>, idem: IdemScope): Promise<StoredResponse>;
  /** GET /v1/invites/:invite: who invited and to which workspace (NOT_FOUND when used or unknown). */
  describeInvite(invite: string): ReturnType<typeof describeInvite>;
  /** POST /v1/invites/:invite/accept: a new member with a token; the invite is used up. */
  acceptInvite(invite: string, body: In<typeof ZAcceptInviteRequest>, idem: IdemScope): Promise<StoredResponse>;
  /** POST /v1/session: the principal a token stands for (UNAUTHORIZED when unknown or revoked). */
  openSession(token: string): Promise<{ principal: Principal; session: SessionView }>;
  /** GET /v1/session. */
  session(p: Principal): SessionView;
  /** DELETE /v1/session: the token is revoked (its streams close within a second). */
  signOut(token: string): void;
  /** PUT /v1/me/email: my own address, vault-backed (null removes it). */
  setMyEmail(p: Principal, email: string | null, idem: IdemScope): Promise<StoredResponse>;

  // Signing in anywhere.
  /** POST /v1/sign-in-links: a one-time link (and its QR code) that signs me in on another device. */
  createSignInLink(p: Principal, idem: IdemScope): Promise<StoredResponse>;
  /** POST /v1/sign-in-links/redeem: a new session for the link's person; the link is spent (410 when used or expired). */
  redeemSignInLink(code: string, device: string, idem: IdemScope): Promise<StoredResponse>;
  /** POST /v1/sign-in-links/email: the same answer whether or not the address is known; limited per address and per client. */
  emailSignInLink(
    body: In<typeof ZEmailSignInLinkRequest>,
    client: string,
    idem: IdemScope,
    wait: (seconds: number) => Promise<void>,
  ): Promise<StoredResponse>;
  /** GET /v1/sign-in-options. */
  signInOptions(): ReturnType<typeof signInOptions>;
  /** GET /v1/sessions: my live sessions, the current one marked. */
  listSessions(p: Principal, tokenHash: string): ReturnType<typeof listSessions>;
  /** DELETE /v1/sessions/:session_id: one of mine ends now (its token fails, its streams close). */
  endSession(p: Principal, sessionId: string, tokenHash: string, idem: IdemScope): Promise<StoredResponse>;

  // Administration (admins).
  /** POST /v1/invites. */
  createInvite(p: Principal, body: In<typeof ZCreateInviteRequest>, idem: IdemScope): StoredResponse;
  /** POST /v1/agents. */
  createAgent(p: Principal, body: In<typeof ZCreateAgentRequest>, idem: IdemScope): Promise<StoredResponse>;
  /** GET /v1/conversations/:id/tools: the tools its agent may use, for the /run form (members). */
  conversationTools(
    p: Principal,
    conversationId: string,
  ): { agent_entity_id: string | null; tools: ConversationTool[] };
  /** GET /v1/agents/:id/tools (admins). */
  agentTools(p: Principal, agentId: string): { agent_entity_id: string; tools: AgentToolView[] };
  /** PUT /v1/agents/:id/tools (admins): each changed mode is an agent.tool_mode_set. */
  setAgentTools(
    p: Principal,
    agentId: string,
    body: In<typeof ZSetAgentToolsRequest>,
    idem: IdemScope,
  ): Promise<StoredResponse>;
  /** GET /v1/admin/mcp: the MCP servers' state and tools (admins). */
  mcpStatus(p: Principal): { servers: McpServerStatus[] };
  /** GET /v1/admin/inbound-mail (admins): refused inbound mails, newest first, at most `limit`. */
  inboundRefusals(p: Principal, limit: number): TInboundRefusals;
  /** GET /v1/outbox. */
  outbox(p: Principal): { mail_configured: boolean; messages: OutboxDelivery[] };
  /** POST /v1/outbox/:id/resend: the message's job goes back to work, audited as mail.send. */
  resendOutbox(p: Principal, outboxId: string, idem: IdemScope): Promise<StoredResponse>;

  // The directory.
  /** GET /v1/entities. */
  listEntities(p: Principal): ReturnType<typeof listEntities>;
  /** GET /v1/presence. */
  listPresence(p: Principal): ReturnType<typeof listPresence>;
  /** GET /v1/contacts. */
  listContacts(p: Principal): ReturnType<typeof listContacts>;
  /** POST /v1/contacts. */
  createContact(p: Principal, body: In<typeof ZUpsertContactRequest>, idem: IdemScope): Promise<StoredResponse>;
  /** POST /v1/contacts/import (CSV). */
  importContacts(p: Principal, body: In<typeof ZImportContactsRequest>, idem: IdemScope): Promise<StoredResponse>;
  /** PATCH /v1/contacts/:id. */
  updateContact(
    p: Principal,
    contactId: string,
    patch: In<typeof ZPatchContactRequest>,
    idem: IdemScope,
  ): Promise<StoredResponse>;
  /** DELETE /v1/contacts/:id (admins): the contact's addresses are erased for good. */
  deleteContact(p: Principal, contactId: string, idem: IdemScope): Promise<StoredResponse>;

  // Conversations.
  /** POST /v1/conversations: one I am in. */
  createConversation(
    p: Principal,
    body: In<typeof ZCreateConversationRequest>,
    idem: IdemScope,
  ): Promise<StoredResponse>;
  /** GET /v1/conversations. */
  listConversations(p: Principal): ReturnType<typeof listConversations>;
  /** GET /v1/conversations/:id. */
  getConversation(p: Principal, conversationId: string): ReturnType<typeof getConversation>;
  /** GET /v1/conversations/:id/timeline (and …/messages): a page of items and the jobs on it. */
  timeline(
    p: Principal,
    conversationId: string,
    query: Parameters<typeof getTimeline>[3],
  ): ReturnType<typeof getTimeline>;
  /**
   * GET /v1/search: messages whose text has the words, newest first, only from conversations I
   * am in now; a query is words, never search syntax (VALIDATION_ERROR when empty or too long).
   */
  search(p: Principal, query: Parameters<typeof searchMessages>[2]): Promise<TSearchResults>;
  /** POST /v1/conversations/:id/messages: a text (Office answers from its inbox) or a card click. */
  postMessage(p: Principal, conversationId: string, body: TextMessage, idem: IdemScope): Promise<StoredResponse>;
  /** PATCH /v1/conversations/:id/messages/:message_id: the author's new text (within the edit window). */
  editMessage(
    p: Principal,
    conversationId: string,
    messageId: string,
    body: In<typeof ZEditMessageRequest>,
    idem: IdemScope,
  ): Promise<StoredResponse>;
  /** DELETE /v1/conversations/:id/messages/:message_id: the author or an admin withdraws it. */
  deleteMessage(p: Principal, conversationId: string, messageId: string, idem: IdemScope): Promise<StoredResponse>;
  /** POST /v1/conversations/:id/messages/:message_id/reactions: my reaction on or off. */
  reactToMessage(
    p: Principal,
    conversationId: string,
    messageId: string,
    body: In<typeof ZReactRequest>,
    idem: IdemScope,
  ): Promise<StoredResponse>;
  /** GET /v1/conversations/:id/messages/:message_id: one live message, for a link; NOT_FOUND alike for outsiders and for deleted or unknown messages. */
  getMessage(p: Principal, conversationId: string, messageId: string): ReturnType<typeof getMessage>;
  /** POST /v1/conversations/:id/messages/:message_id/forward: a copy of a text message into another conversation of mine, marked forwarded. */
  forwardMessage(
    p: Principal,
    conversationId: string,
    messageId: string,
    body: In<typeof ZForwardRequest>,
    idem: IdemScope,
  ): Promise<StoredResponse>;
  /** POST /v1/conversations/:id/messages/:message_id/pin: pin it to the conversation, or unpin it (members). */
  pinMessage(
    p: Principal,
    conversationId: string,
    messageId: string,
    body: In<typeof ZPinRequest>,
    idem: IdemScope,
  ): Promise<StoredResponse>;
  /** POST /v1/conversations/:id/messages/:message_id/previews/remove: the author takes a link's preview off. */
  removePreview(
    p: Principal,
    conversationId: string,
    messageId: string,
    body: In<typeof ZRemovePreviewRequest>,
    idem: IdemScope,
  ): Promise<StoredResponse>;
  /** GET /v1/conversations/:id/pins: its pinned messages, in the order they were pinned. */
  listPins(p: Principal, conversationId: string): ReturnType<typeof listPins>;
  /** GET /v1/conversations/:id/threads/:message_id: the thread's root, its replies and my mark. */
  getThread(p: Principal, conversationId: string, messageId: string): ReturnType<typeof getThread>;
  /** GET /v1/conversations/:id/threads: the threads of it I follow, with my unread counts. */
  listThreadMarks(p: Principal, conversationId: string): ReturnType<typeof listThreadMarks>;
  /** POST /v1/conversations/:id/threads/:message_id/follow: follow the thread, or stop. */
  followThread(
    p: Principal,
    conversationId: string,
    messageId: string,
    body: In<typeof ZFollowThreadRequest>,
    idem: IdemScope,
  ): Promise<StoredResponse>;
  /** POST /v1/conversations/:id/call: a Jitsi Meet room posted as a message (503 when no Jitsi server is configured). */
  startCall(p: Principal, conversationId: string, idem: IdemScope): Promise<StoredResponse>;
  /** POST /v1/conversations/:id/threads/:message_id/read: my unread mark on the thread. */
  readThread(
    p: Principal,
    conversationId: string,
    messageId: string,
    body: In<typeof ZThreadReadRequest>,
    idem: IdemScope,
  ): Promise<StoredResponse>;
  /** POST /v1/conversations/:id/read. */
  markRead(
    p: Principal,
    conversationId: string,
    body: In<typeof ZReadMarkerRequest>,
    idem: IdemScope,
  ): Promise<StoredResponse>;
  /** POST /v1/conversations/:id/typing: a `typing` frame to its other members (throttled; nothing stored). */
  signalTyping(p: Principal, conversationId: string): { ok: true };
  /** POST /v1/conversations/:id/attachments: one file, with an optional caption as the message's text and, for audio, its length; a declared picture must be one. */
  attachFile(
    p: Principal,
    conversationId: string,
    file: File,
    idem: IdemScope,
    caption?: string,
    durationMs?: number,
  ): Promise<StoredResponse>;
  /** GET /v1/artifacts/:id: an attachment or an Office file, for members of its conversation. */
  artifact(p: Principal, artifactId: string): Promise<ServedFile>;
  /** GET /v1/conversations/:id/context. */
  threadContext(p: Principal, conversationId: string): TThreadContextView;
  /** POST /v1/conversations/:id/context/pin and …/target. */
  setThreadContext(
    p: Principal,
    conversationId: string,
    what: "pin" | "target",
    jobId: string | null,
    idem: IdemScope,
  ): StoredResponse;

  // Jobs.
  /** GET /v1/jobs/:job_id: the Job Drawer. */
  getJob(p: Principal, jobId: string): Promise<Awaited<ReturnType<typeof getJob>> & { llm: unknown }>;
  /** POST /v1/jobs/:job_id/actions: a card click, pre-checked, then carried out by Office. */
  submitJobAction(
    p: Principal,
    jobId: string,
    body: In<typeof ZJobActionSubmit>,
    idem: IdemScope,
  ): Promise<StoredResponse>;
  /** GET /v1/jobs/:job_id/assist. */
  assist(p: Principal, jobId: string, traceId: string): Promise<TAssistResponse>;
  /** POST /v1/jobs/:job_id/assist/:suggestion_id/apply. */
  applySuggestion(
    p: Principal,
    jobId: string,
    suggestionId: string,
    body: { confirm?: boolean | undefined },
    idem: IdemScope,
  ): Promise<StoredResponse>;

  // Notifications.
  /** GET /v1/push/vapid-public-key: the key browsers subscribe with (the same across restarts). */
  vapidPublicKey(p: Principal): { public_key: string };
  /** POST /v1/push/subscriptions: this browser gets my notifications (an endpoint moves to whoever subscribes it last). */
  subscribePush(p: Principal, body: In<typeof ZPushSubscribeRequest>, idem: IdemScope): Promise<StoredResponse>;
  /** DELETE /v1/push/subscriptions: one of my browsers stops getting them. */
  unsubscribePush(p: Principal, body: In<typeof ZPushUnsubscribeRequest>, idem: IdemScope): Promise<StoredResponse>;
  /** PUT /v1/conversations/:id/mute: nothing in it notifies me while muted (members only). */
  setMute(p: Principal, conversationId: string, body: In<typeof ZMuteRequest>, idem: IdemScope): StoredResponse;

  // People.
  /** PUT /v1/me/profile and PUT /v1/entities/:id/profile: an entity.profile_updated (own profile; admins rename anyone). */
  updateProfile(
    p: Principal,
    entityId: string | "me",
    body: In<typeof ZProfileUpdateRequest>,
    idem: IdemScope,
  ): Promise<StoredResponse>;
  /** POST /v1/me/avatar: my profile picture (a checked PNG, JPEG, GIF or WebP), an entity.profile_updated naming /v1/avatars/:id. */
  setAvatar(p: Principal, file: File, idem: IdemScope): Promise<StoredResponse>;
  /** DELETE /v1/me/avatar: back to initials. */
  removeAvatar(p: Principal, idem: IdemScope): Promise<StoredResponse>;
  /** GET /v1/avatars/:id: a profile picture of my workspace. */
  avatar(p: Principal, avatarId: string): Promise<{ mime: string; bytes: Buffer }>;
  /** GET /v1/me/digest: my e-mail digest setting and whether it is available here. */
  digestSettings(p: Principal): TDigestSettings;
  /** POST /v1/jobs/:job_id/hand-over: the job's owner becomes a person of its conversation; its agent stops acting on it. */
  handOver(p: Principal, jobId: string, body: In<typeof ZHandOverRequest>, idem: IdemScope): Promise<StoredResponse>;
  /** GET /v1/jobs/:job_id/why: the job's causal chain from the ledger, each line linking into the Job Drawer. */
  why(p: Principal, jobId: string): Promise<TWhyResponse>;
  // Membership.
  /** POST /v1/conversations/:id/members: any member adds a person or agent of the workspace (an agent then answers the message that mentioned it). */
  addMember(
    p: Principal,
    conversationId: string,
    body: In<typeof ZAddMemberRequest>,
    idem: IdemScope,
  ): Promise<StoredResponse>;
  /** DELETE /v1/conversations/:id/members/:entity_id: leave (my own id) or remove someone (creator or admin); their reads and stream of it end at once. */
  removeMember(p: Principal, conversationId: string, entityId: string, idem: IdemScope): Promise<StoredResponse>;
  /** GET /v1/channels: the workspace's public channels (name, member count, whether I am in it); never their messages. */
  listChannels(p: Principal): TChannelList;
  /** POST /v1/conversations/:id/join: join a public channel myself (once); a private one answers 404. */
  joinChannel(p: Principal, conversationId: string, idem: IdemScope): Promise<StoredResponse>;
  /** POST /v1/conversations/:id/scheduled: send this text here later, as me (a time in my zone, or with an offset). */
  scheduleMessage(
    p: Principal,
    conversationId: string,
    body: In<typeof ZScheduleMessageRequest>,
    idem: IdemScope,
  ): StoredResponse;
  /** POST /v1/conversations/:id/messages/:message_id/remind: remind me of this message then, in my Reminders. */
  remindMe(
    p: Principal,
    conversationId: string,
    messageId: string,
    body: In<typeof ZRemindRequest>,
    idem: IdemScope,
  ): StoredResponse;
  /** GET /v1/scheduled: my scheduled messages and reminders, waiting ones first. */
  listScheduled(p: Principal): TScheduledList;
  /** PATCH /v1/scheduled/:schedule_id: a new text or time for one of mine still waiting. */
  editScheduled(
    p: Principal,
    scheduleId: string,
    body: In<typeof ZEditScheduleRequest>,
    idem: IdemScope,
  ): StoredResponse;
  /** DELETE /v1/scheduled/:schedule_id: cancel one of mine still waiting. */
  cancelScheduled(p: Principal, scheduleId: string, idem: IdemScope): StoredResponse;
  /** PUT /v1/conversations/:id/title: any member renames a group. */
  renameConversation(
    p: Principal,
    conversationId: string,
    body: In<typeof ZRenameConversationRequest>,
    idem: IdemScope,
  ): Promise<StoredResponse>;

  // Live updates.
  /** GET /v1/stream: SSE to the raw Node response (hello, backlog or CURSOR_TOO_OLD, then live); the resume cursor from Last-Event-ID or ?cursor= (INVALID_CURSOR when malformed or ahead). */
  stream(p: Principal, res: ServerResponse | undefined, req: StreamRequest): void;
}

/** What the gateway's route adapters are built from: the api they call and the state they check requests against. */
export interface GatewayInside {
  readonly api: GatewayApi;
  readonly core: Core;
}
