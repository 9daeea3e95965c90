/**
 * Who may call what: every route of the server, and the status each kind of caller gets. The
 * access test drives each row over real HTTP against a running server, fails when the server
 * has a route this table does not list, and checks that "Who can see and do what" in
 * docs/api/access.md is exactly `renderAccessTable()`.
 *
 * Callers (demo workspace): anonymous (no credentials); revoked (a signed-out token); other
 * tenant (the owner and admin of another workspace); member (Ana: a member, in her direct chat
 * with Dan, not in Dan's chat with the agent); admin (Dan: admin and approver, in both). Agents
 * hold no token: Office acts for them inside the conversations they are in.
 *
 * Paths name Dan's chat with the agent (`cnv_9f2a`) and what lives there (its job, the invite
 * file), so the member column is "someone else's conversation"; rows marked (own) name Ana's
 * own direct chat.
 */

export type Caller = "anonymous" | "revoked" | "other" | "member" | "admin";
export const CALLERS: Caller[] = ["anonymous", "revoked", "other", "member", "admin"];
const CALLER_LABEL: Record<Caller, string> = {
  anonymous: "anonymous",
  revoked: "revoked token",
  other: "other workspace",
  member: "member",
  admin: "admin",
};

export interface AccessRow {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** The route as the server registers it. */
  route: string;
  /** A few words for the documentation. */
  what: string;
  /** Which case of the route this row drives, when one route has several rows. */
  variant?: string;
  expect: Record<Caller, number>;
}

const all = (n: number): Record<Caller, number> => ({ anonymous: n, revoked: n, other: n, member: n, admin: n });
const signedIn = (other: number, member: number, admin: number): Record<Caller, number> => ({
  anonymous: 401,
  revoked: 401,
  other,
  member,
  admin,
});

export const ACCESS: AccessRow[] = [
  // Public: no session needed.
  { method: "GET", route: "/healthz", what: "liveness", expect: all(200) },
  { method: "GET", route: "/readyz", what: "readiness", expect: all(200) },
  { method: "GET", route: "/metrics", what: "Prometheus metrics (this machine, or METRICS_TOKEN)", expect: all(200) },
  { method: "GET", route: "/v1/openapi.json", what: "the API description (OpenAPI 3.1)", expect: all(200) },
  { method: "GET", route: "/docs", what: "the API reference page", expect: all(200) },
  {
    method: "POST",
    route: "/v1/admin/workspaces",
    what: "create a workspace whatever SIGNUP says (this machine, with the secret in DATA_DIR/admin.json)",
    expect: all(403),
  },
  {
    method: "POST",
    route: "/v1/admin/tokens/rotate",
    what: "rotate a person's tokens (this machine, with the secret in DATA_DIR/admin.json)",
    expect: all(403),
  },
  {
    method: "POST",
    route: "/v1/workspaces",
    what: "create a workspace (sign-up; closed once one exists, SIGNUP)",
    expect: all(403),
  },
  { method: "GET", route: "/v1/invites/:invite", what: "read an invite (unknown code)", expect: all(404) },
  { method: "POST", route: "/v1/invites/:invite/accept", what: "join with an invite (unknown code)", expect: all(404) },
  {
    method: "POST",
    route: "/v1/session",
    what: "exchange a token for the session cookie",
    expect: { anonymous: 401, revoked: 401, other: 200, member: 200, admin: 200 },
  },
  {
    method: "GET",
    route: "/signin",
    what: "one-click sign-in link (a bad token lands on the sign-in page)",
    expect: all(302),
  },
  { method: "GET", route: "/v1/sign-in-options", what: "what the sign-in page offers", expect: all(200) },
  {
    method: "POST",
    route: "/v1/sign-in-links/redeem",
    what: "sign in with a one-time link (unknown code)",
    expect: all(404),
  },
  {
    method: "POST",
    route: "/v1/sign-in-links/email",
    what: "email me a sign-in link (no mail configured here)",
    expect: all(503),
  },
  { method: "POST", route: "/v1/passkeys/sign-in-options", what: "start signing in with a passkey", expect: all(200) },
  {
    method: "POST",
    route: "/v1/passkeys/sign-in",
    what: "sign in with a passkey (a challenge this server did not make)",
    expect: all(400),
  },
  // Who am I.
  { method: "GET", route: "/v1/session", what: "who am I", expect: signedIn(200, 200, 200) },
  { method: "DELETE", route: "/v1/session", what: "sign out (revokes the token)", expect: signedIn(200, 200, 200) },
  { method: "PUT", route: "/v1/me/email", what: "set my own email", expect: signedIn(200, 200, 200) },
  {
    method: "POST",
    route: "/v1/sign-in-links",
    what: "a one-time link and QR code for another device of mine",
    expect: signedIn(201, 201, 201),
  },
  { method: "GET", route: "/v1/sessions", what: "my sessions", expect: signedIn(200, 200, 200) },
  {
    method: "DELETE",
    route: "/v1/sessions/:session_id",
    what: "end one of my sessions",
    expect: signedIn(200, 200, 200),
  },
  {
    method: "POST",
    route: "/v1/passkeys/registration-options",
    what: "start adding a passkey",
    expect: signedIn(200, 200, 200),
  },
  {
    method: "POST",
    route: "/v1/passkeys",
    what: "add a passkey (a challenge this server did not make)",
    expect: signedIn(400, 400, 400),
  },
  { method: "GET", route: "/v1/passkeys", what: "my passkeys", expect: signedIn(200, 200, 200) },
  {
    method: "DELETE",
    route: "/v1/passkeys/:passkey_id",
    what: "remove one of my passkeys",
    expect: signedIn(200, 200, 200),
  },
  {
    method: "PUT",
    route: "/v1/me/profile",
    what: "change my name, time zone or language",
    expect: signedIn(200, 200, 200),
  },
  {
    method: "POST",
    route: "/v1/me/avatar",
    what: "set my profile picture (a checked picture, served from here)",
    expect: signedIn(200, 200, 200),
  },
  { method: "DELETE", route: "/v1/me/avatar", what: "remove my profile picture", expect: signedIn(200, 200, 200) },
  {
    method: "GET",
    route: "/v1/avatars/:id",
    what: "a profile picture of someone in my workspace",
    expect: signedIn(404, 200, 200),
  },
  {
    method: "GET",
    route: "/v1/me/digest",
    what: "my e-mail digest setting, and whether it is available",
    expect: signedIn(200, 200, 200),
  },
  {
    method: "PUT",
    route: "/v1/entities/:id/profile",
    what: "change a profile: my own, or (admins) anyone's name",
    expect: signedIn(404, 403, 200),
  },
  // Workspace administration.
  { method: "POST", route: "/v1/invites", what: "invite a person", expect: signedIn(201, 403, 201) },
  { method: "POST", route: "/v1/agents", what: "add an agent coworker", expect: signedIn(201, 403, 201) },
  { method: "GET", route: "/v1/admin/mcp", what: "MCP servers and their tools", expect: signedIn(200, 403, 200) },
  {
    method: "GET",
    route: "/v1/agents/:id/tools",
    what: "an agent's tools and modes (unknown agent)",
    expect: signedIn(404, 403, 404),
  },
  {
    method: "PUT",
    route: "/v1/agents/:id/tools",
    what: "set an agent's tool modes (unknown agent)",
    expect: signedIn(404, 403, 404),
  },
  { method: "GET", route: "/v1/outbox", what: "the Outbox", expect: signedIn(200, 403, 200) },
  { method: "GET", route: "/v1/admin/inbound-mail", what: "refused inbound mails", expect: signedIn(200, 403, 200) },
  {
    method: "POST",
    route: "/v1/outbox/:id/resend",
    what: "resend an email (unknown id)",
    expect: signedIn(404, 403, 404),
  },
  // The Admin screens (owners and admins; anyone else's write is refused by the policy pack and recorded).
  { method: "GET", route: "/v1/admin/members", what: "people and their access", expect: signedIn(200, 403, 200) },
  {
    method: "PUT",
    route: "/v1/admin/members/:id/access",
    what: "make someone owner, admin or member (unknown person)",
    expect: signedIn(404, 403, 404),
  },
  {
    method: "POST",
    route: "/v1/admin/members/:id/deactivate",
    what: "deactivate a person (unknown person)",
    expect: signedIn(404, 403, 404),
  },
  {
    method: "POST",
    route: "/v1/admin/members/:id/reactivate",
    what: "reactivate a person (unknown person)",
    expect: signedIn(404, 403, 404),
  },
  {
    method: "POST",
    route: "/v1/admin/members/:id/rotate-tokens",
    what: "end a person's sign-ins, new link (unknown person)",
    expect: signedIn(404, 403, 404),
  },
  {
    method: "GET",
    route: "/v1/admin/agents",
    what: "agents, their tools, paused or not",
    expect: signedIn(200, 403, 200),
  },
  {
    method: "PUT",
    route: "/v1/admin/agents/:id",
    what: "edit an agent (unknown agent)",
    expect: signedIn(404, 403, 404),
  },
  {
    method: "POST",
    route: "/v1/admin/agents/:id/pause",
    what: "pause an agent (unknown agent)",
    expect: signedIn(404, 403, 404),
  },
  {
    method: "POST",
    route: "/v1/admin/agents/:id/resume",
    what: "resume an agent (unknown agent)",
    expect: signedIn(404, 403, 404),
  },
  {
    method: "DELETE",
    route: "/v1/admin/agents/:id",
    what: "remove an agent (unknown agent)",
    expect: signedIn(404, 403, 404),
  },
  {
    method: "GET",
    route: "/v1/admin/tokens",
    what: "sign-in tokens: whose, created, last used",
    expect: signedIn(200, 403, 200),
  },
  {
    method: "DELETE",
    route: "/v1/admin/tokens/:id",
    what: "revoke a token (unknown token)",
    expect: signedIn(404, 403, 404),
  },
  {
    method: "GET",
    route: "/v1/admin/policies",
    what: "policies: pack mode, mode in force, what may change",
    expect: signedIn(200, 403, 200),
  },
  {
    method: "POST",
    route: "/v1/admin/policies/preview",
    what: "what a set of policy overrides would change",
    expect: signedIn(200, 403, 200),
  },
  {
    method: "PUT",
    route: "/v1/admin/policies",
    what: "set the workspace's policy overrides",
    expect: signedIn(200, 403, 200),
  },
  // The directory.
  { method: "GET", route: "/v1/entities", what: "people and agents of my workspace", expect: signedIn(200, 200, 200) },
  { method: "GET", route: "/v1/presence", what: "their presence", expect: signedIn(200, 200, 200) },
  { method: "GET", route: "/v1/contacts", what: "contacts", expect: signedIn(200, 200, 200) },
  { method: "POST", route: "/v1/contacts", what: "add a contact", expect: signedIn(201, 201, 201) },
  { method: "POST", route: "/v1/contacts/import", what: "import contacts (CSV)", expect: signedIn(201, 201, 201) },
  {
    method: "PATCH",
    route: "/v1/contacts/:id",
    what: "edit a contact of my workspace",
    expect: signedIn(404, 200, 200),
  },
  {
    method: "DELETE",
    route: "/v1/contacts/:id",
    what: "delete a contact (erases its addresses)",
    expect: signedIn(404, 403, 200),
  },
  // Conversations.
  { method: "GET", route: "/v1/conversations", what: "my conversations", expect: signedIn(200, 200, 200) },
  {
    method: "POST",
    route: "/v1/conversations",
    what: "start a conversation I am in (with the agent)",
    expect: signedIn(404, 202, 202),
  },
  { method: "GET", route: "/v1/conversations/:id", what: "a conversation", expect: signedIn(404, 404, 200) },
  {
    method: "GET",
    route: "/v1/conversations/:id",
    variant: "own",
    what: "my own conversation",
    expect: signedIn(404, 200, 200),
  },
  { method: "GET", route: "/v1/conversations/:id/timeline", what: "its timeline", expect: signedIn(404, 404, 200) },
  { method: "GET", route: "/v1/conversations/:id/messages", what: "its messages", expect: signedIn(404, 404, 200) },
  { method: "POST", route: "/v1/conversations/:id/messages", what: "post a message", expect: signedIn(404, 404, 202) },
  {
    method: "POST",
    route: "/v1/conversations/:id/messages",
    variant: "own",
    what: "post in my own conversation",
    expect: signedIn(404, 202, 202),
  },
  { method: "POST", route: "/v1/conversations/:id/read", what: "mark it read", expect: signedIn(404, 404, 202) },
  {
    method: "POST",
    route: "/v1/conversations/:id/typing",
    what: "show its members I am typing",
    expect: signedIn(404, 404, 200),
  },
  {
    method: "PATCH",
    route: "/v1/conversations/:id/messages/:message_id",
    what: "edit my message (within MESSAGE_EDIT_WINDOW_SECONDS)",
    expect: signedIn(404, 404, 202),
  },
  {
    method: "DELETE",
    route: "/v1/conversations/:id/messages/:message_id",
    what: "delete a message (my own; any, as an admin)",
    expect: signedIn(404, 404, 202),
  },
  {
    method: "POST",
    route: "/v1/conversations/:id/messages/:message_id/reactions",
    what: "react to a message",
    expect: signedIn(404, 404, 202),
  },
  {
    method: "GET",
    route: "/v1/conversations/:id/messages/:message_id",
    what: "one message (a link to it)",
    expect: signedIn(404, 404, 200),
  },
  {
    method: "POST",
    route: "/v1/conversations/:id/messages/:message_id/pin",
    what: "pin a message, or unpin it",
    expect: signedIn(404, 404, 202),
  },
  {
    method: "POST",
    route: "/v1/conversations/:id/messages/:message_id/previews/remove",
    what: "take a link preview off my message",
    expect: signedIn(404, 404, 202),
  },
  {
    method: "POST",
    route: "/v1/conversations/:id/messages/:message_id/forward",
    what: "forward a message to a chat I am in",
    expect: signedIn(404, 404, 202),
  },
  { method: "GET", route: "/v1/conversations/:id/pins", what: "its pinned messages", expect: signedIn(404, 404, 200) },
  {
    method: "GET",
    route: "/v1/conversations/:id/threads",
    what: "the threads of it I follow",
    expect: signedIn(404, 404, 200),
  },
  {
    method: "POST",
    route: "/v1/conversations/:id/call",
    what: "start a call (503 without JITSI_BASE_URL)",
    expect: signedIn(404, 404, 503),
  },
  {
    method: "GET",
    route: "/v1/conversations/:id/threads/:message_id",
    what: "a thread: its root and replies",
    expect: signedIn(404, 404, 200),
  },
  {
    method: "POST",
    route: "/v1/conversations/:id/threads/:message_id/follow",
    what: "follow a thread, or stop",
    expect: signedIn(404, 404, 202),
  },
  {
    method: "POST",
    route: "/v1/conversations/:id/threads/:message_id/read",
    what: "my read mark on a thread",
    expect: signedIn(404, 404, 202),
  },
  {
    method: "POST",
    route: "/v1/conversations/:id/attachments",
    what: "attach a file",
    expect: signedIn(404, 404, 202),
  },
  { method: "GET", route: "/v1/artifacts/:id", what: "download a file of it", expect: signedIn(404, 404, 200) },
  { method: "GET", route: "/v1/conversations/:id/context", what: "its job context", expect: signedIn(404, 404, 200) },
  {
    method: "GET",
    route: "/v1/conversations/:id/tools",
    what: "the tools its agent may use (the /run form)",
    expect: signedIn(404, 404, 200),
  },
  { method: "POST", route: "/v1/conversations/:id/context/pin", what: "pin a job", expect: signedIn(404, 404, 200) },
  {
    method: "POST",
    route: "/v1/conversations/:id/context/target",
    what: "target a job",
    expect: signedIn(404, 404, 200),
  },
  { method: "PUT", route: "/v1/conversations/:id/mute", what: "mute it for me", expect: signedIn(404, 404, 200) },
  {
    method: "GET",
    route: "/v1/search",
    what: "search the messages of my conversations",
    expect: signedIn(200, 200, 200),
  },
  {
    method: "GET",
    route: "/v1/search",
    variant: "in it",
    what: "search within one conversation",
    expect: signedIn(404, 404, 200),
  },
  {
    method: "POST",
    route: "/v1/conversations/:id/members",
    what: "add a person or agent to it (any member)",
    expect: signedIn(404, 404, 202),
  },
  {
    method: "DELETE",
    route: "/v1/conversations/:id/members/:entity_id",
    what: "remove someone from it (its creator or an admin)",
    expect: signedIn(404, 404, 202),
  },
  {
    method: "DELETE",
    route: "/v1/conversations/:id/members/:entity_id",
    variant: "leave",
    what: "leave a group I am in",
    expect: signedIn(404, 202, 202),
  },
  { method: "GET", route: "/v1/channels", what: "the workspace's public channels", expect: signedIn(200, 200, 200) },
  {
    method: "POST",
    route: "/v1/conversations/:id/join",
    what: "join it (a private conversation: not found to everyone)",
    expect: signedIn(404, 404, 404),
  },
  {
    method: "POST",
    route: "/v1/conversations/:id/join",
    variant: "public",
    what: "join a public channel (once; its creator is in it)",
    expect: signedIn(404, 202, 409),
  },
  {
    method: "POST",
    route: "/v1/conversations/:id/scheduled",
    what: "send a message in it later (members)",
    expect: signedIn(404, 404, 201),
  },
  {
    method: "POST",
    route: "/v1/conversations/:id/messages/:message_id/remind",
    what: "remind me of a message of it (members)",
    expect: signedIn(404, 404, 201),
  },
  {
    method: "GET",
    route: "/v1/scheduled",
    what: "my scheduled messages and reminders",
    expect: signedIn(200, 200, 200),
  },
  {
    method: "PATCH",
    route: "/v1/scheduled/:schedule_id",
    what: "change one of my scheduled messages (someone else's: not found)",
    expect: signedIn(404, 404, 200),
  },
  {
    method: "DELETE",
    route: "/v1/scheduled/:schedule_id",
    what: "cancel one of my scheduled messages (someone else's: not found)",
    expect: signedIn(404, 404, 200),
  },
  {
    method: "PUT",
    route: "/v1/conversations/:id/title",
    what: "rename it (any member of a group)",
    expect: signedIn(404, 404, 202),
  },
  // Notifications (each person's own browsers).
  {
    method: "GET",
    route: "/v1/push/vapid-public-key",
    what: "the key to subscribe a browser with",
    expect: signedIn(200, 200, 200),
  },
  {
    method: "POST",
    route: "/v1/push/subscriptions",
    what: "send my notifications to this browser",
    expect: signedIn(201, 201, 201),
  },
  {
    method: "DELETE",
    route: "/v1/push/subscriptions",
    what: "stop sending them to a browser",
    expect: signedIn(200, 200, 200),
  },
  // Jobs (read and acted on through their conversation).
  { method: "GET", route: "/v1/jobs/:job_id", what: "a job", expect: signedIn(404, 404, 200) },
  {
    method: "GET",
    route: "/v1/jobs/:job_id/receipt",
    what: "a job's receipt (events with inclusion proofs)",
    expect: signedIn(404, 404, 200),
  },
  {
    method: "POST",
    route: "/v1/jobs/:job_id/actions",
    what: "click a card button (Approve)",
    expect: signedIn(404, 404, 202),
  },
  {
    method: "POST",
    route: "/v1/jobs/:job_id/hand-over",
    what: "hand a job over to a person of its conversation (to its agent: refused)",
    expect: signedIn(404, 404, 400),
  },
  {
    method: "GET",
    route: "/v1/jobs/:job_id/why",
    what: "a job's causal chain (Why?)",
    expect: signedIn(404, 404, 200),
  },
  { method: "GET", route: "/v1/jobs/:job_id/assist", what: "Assist suggestions", expect: signedIn(404, 404, 200) },
  {
    method: "POST",
    route: "/v1/jobs/:job_id/assist/:suggestion_id/apply",
    what: "apply a suggestion (unknown id)",
    expect: signedIn(404, 404, 404),
  },
  { method: "GET", route: "/v1/stream", what: "my live updates (SSE)", expect: signedIn(200, 200, 200) },
  // The ledger and Office.
  {
    method: "GET",
    route: "/v1/ledger/query",
    what: "ledger events (only those I may read)",
    expect: signedIn(403, 200, 200),
  },
  {
    method: "GET",
    route: "/v1/ledger/stream",
    what: "ledger tail (only what I may read)",
    expect: signedIn(403, 200, 200),
  },
  { method: "GET", route: "/v1/ledger/keys", what: "public signing keys", expect: signedIn(200, 200, 200) },
  {
    method: "GET",
    route: "/v1/ledger/verifier-key",
    what: "signed-note verifier keys",
    expect: signedIn(200, 200, 200),
  },
  {
    method: "GET",
    route: "/v1/ledger/proof/inclusion",
    what: "Merkle inclusion proof",
    expect: signedIn(403, 200, 200),
  },
  {
    method: "GET",
    route: "/v1/ledger/proof/consistency",
    what: "Merkle consistency proof",
    expect: signedIn(403, 200, 200),
  },
  {
    method: "GET",
    route: "/v1/ledger/leaves",
    what: "leaf bytes (only what I may read)",
    expect: signedIn(403, 200, 200),
  },
  { method: "GET", route: "/v1/ledger/checkpoint", what: "signed checkpoint", expect: signedIn(403, 200, 200) },
  { method: "GET", route: "/v1/ledger/verify", what: "verify the whole log", expect: signedIn(403, 403, 200) },
  {
    method: "GET",
    route: "/v1/ledger/policies",
    what: "the policy pack as it judges my workspace",
    expect: signedIn(403, 403, 200),
  },
  { method: "POST", route: "/v1/ledger/append", what: "append events as myself", expect: signedIn(403, 404, 200) },
  {
    method: "POST",
    route: "/v1/ledger/append",
    variant: "own",
    what: "append a message to my own conversation",
    expect: signedIn(403, 200, 200),
  },
  {
    method: "POST",
    route: "/v1/office/ingest_message",
    what: "hand a message to Office",
    expect: signedIn(403, 404, 200),
  },
  {
    method: "POST",
    route: "/v1/office/job_action",
    what: "act on a job through Office (a card never offered)",
    expect: signedIn(403, 404, 422),
  },
  { method: "GET", route: "/v1/office/affordances", what: "what an entity can do", expect: signedIn(403, 200, 200) },
  {
    method: "GET",
    route: "/v1/agents/:entity_id/trajectory",
    what: "an agent's record (jobs I may read)",
    expect: signedIn(404, 200, 200),
  },
  // The web app.
  { method: "GET", route: "/*", what: "the web app's pages and files", expect: all(200) },
];

/** The documented table (docs/api/access.md), rendered from ACCESS. */
export function renderAccessTable(): string {
  const head = `| route | what | ${CALLERS.map((c) => CALLER_LABEL[c]).join(" | ")} |`;
  const rule = `|${"---|".repeat(CALLERS.length + 2)}`;
  const rows = ACCESS.map(
    (r) =>
      `| \`${r.method} ${r.route}\`${r.variant ? ` (${r.variant})` : ""} | ${r.what} | ${CALLERS.map((c) => r.expect[c]).join(" | ")} |`,
  );
  return [head, rule, ...rows].join("\n");
}
