import { createECDH, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createOpsRuntime } from "../../src/ops/runtime.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCESS, CALLERS, renderAccessTable, type AccessRow, type Caller } from "../support/access-table.js";
import { getJson, postJson, startTestServer, waitFor, type TestServer, demoPerson } from "../support/server.js";
import { png } from "../support/pictures.js";
import { DEFAULT_INSTANT } from "../support/clock.js";

/**
 * The access table (test/support/access-table.ts), driven over real HTTP: every route × every
 * kind of caller → the status the table says. A route the server has and the table does not
 * list fails the run, so a new route cannot land without deciding who may call it.
 */
let t: TestServer;
const T = "tnt_acme_001";
const tokens = {} as Record<Caller, string | undefined>;
let jobId = "";
let approve: { card_id: string; button_id: string; action: unknown } | undefined;
let artifactId = "";
let avatarUrl = "";
let contactId = "";
/** Dan's messages in his chat with the agent: one to edit and react to, one to delete. */
let danMessage = "";
let danDoomed = "";
/** And one with a link, whose preview Dan takes off (previews are off here: none is fetched). */
let danLinked = "";
let otherTenant = "";
/** An agent added to and removed from Dan's chat by the membership rows, and a group Dan and Ana both leave. */
let helperAgent = "";
let leaveGroup = "";
let publicChannel = "";
let danSchedule = "";
/** A day after the test server's stated start: always ahead of its clock. */
const LATER = new Date(Date.parse(DEFAULT_INSTANT) + 86_400_000).toISOString();

let otherOwner = "";
const issue = (entityId: string, tenantId = T) => t.server.gateway.tokens.issue({ tenantId, entityId });

beforeAll(async () => {
  // With the ops routes (/readyz, /metrics) as `npm start` mounts them.
  const dataDir = mkdtempSync(join(tmpdir(), "logline-access-"));
  const ops = createOpsRuntime({
    logger: quietLogger,
    dataDir,
    planner: () => ({ kind: "rules" }),
    shutdownTimeoutMs: 5000,
  });
  // The production default for sign-up (closed once a workspace exists).
  t = await startTestServer({ dataDir, routes: [ops.routes], signup: undefined });
  ops.setProbeDb(t.server.db);
  ops.markBooted();
  const dan = demoPerson(t, "Dan");
  const ana = demoPerson(t, "Ana");
  tokens.admin = dan.token;
  tokens.member = ana.token;
  const revoked = issue(ana.entity_id);
  t.server.gateway.tokens.revoke(revoked);
  tokens.revoked = revoked;
  const body = await t.server.gateway.createWorkspaceAsOperator("Other Co", "Olga");
  tokens.other = body.token;
  otherTenant = body.tenant_id;
  otherOwner = body.owner_entity_id;

  // Things that live in Dan's chat with the agent: a proposed job and a file.
  await postJson(`${t.url}/v1/conversations/cnv_9f2a/messages`, dan.token, {
    kind: "text",
    body_text: "Can you schedule a 30-min call with Maria next week?",
  });
  const card = await waitFor(
    async () =>
      (await getJson(`${t.url}/v1/conversations/cnv_9f2a/timeline`, dan.token)).body.items
        .map((i: any) => i.message.card)
        .find((c: any) => c?.card_type === "job.formalize"),
    5000,
    "formalize card",
  );
  jobId = card.job_id;
  const b = card.buttons.find((x: any) => x.action.type === "job.approve");
  approve = { card_id: card.card_id, button_id: b.button_id, action: b.action };
  const form = new FormData();
  form.append("file", new Blob(["a,b\n1,2\n"], { type: "text/csv" }), "prices.csv");
  const up = await fetch(`${t.url}/v1/conversations/cnv_9f2a/attachments`, {
    method: "POST",
    headers: { authorization: `Bearer ${dan.token}`, "idempotency-key": "k-setup-upload-1" },
    body: form,
  });
  artifactId = ((await up.json()) as { artifact_id: string }).artifact_id;
  const picture = new FormData();
  picture.append("file", new Blob([png(8, 8)], { type: "image/png" }), "dan.png");
  const pic = await fetch(`${t.url}/v1/me/avatar`, {
    method: "POST",
    headers: { authorization: `Bearer ${dan.token}`, "idempotency-key": "k-setup-avatar-1" },
    body: picture,
  });
  avatarUrl = ((await pic.json()) as { avatar_url: string }).avatar_url;
  contactId = (await postJson(`${t.url}/v1/contacts`, dan.token, { display_name: "Setup Contact" })).body.contact_id;
  helperAgent = (await postJson(`${t.url}/v1/agents`, dan.token, { display_name: "Access Helper", role: "Helper" }))
    .body.entity_id;
  leaveGroup = (
    await postJson(`${t.url}/v1/conversations`, dan.token, {
      title: "Leavers",
      participants: [{ entity_id: ana.entity_id }],
    })
  ).body.conversation_id;
  publicChannel = (
    await postJson(`${t.url}/v1/conversations`, dan.token, {
      title: "Open",
      participants: [{ entity_id: dan.entity_id }],
      visibility: "public",
    })
  ).body.conversation_id;
  danSchedule = (
    await postJson(`${t.url}/v1/conversations/cnv_9f2a/scheduled`, dan.token, { body_text: "later", send_at: LATER })
  ).body.schedule_id;
  danMessage = (
    await postJson(`${t.url}/v1/conversations/cnv_9f2a/messages`, dan.token, { kind: "text", body_text: "thanks" })
  ).body.message_id;
  danLinked = (
    await postJson(`${t.url}/v1/conversations/cnv_9f2a/messages`, dan.token, {
      kind: "text",
      body_text: "the plan: https://example.com/plan",
    })
  ).body.message_id;
  danDoomed = (
    await postJson(`${t.url}/v1/conversations/cnv_9f2a/messages`, dan.token, { kind: "text", body_text: "never mind" })
  ).body.message_id;
}, 30_000);
afterAll(() => t?.close());

const quietLogger = {
  info() {},
  warn() {},
  error() {},
  debug() {},
  child() {
    return quietLogger;
  },
} as never;

let n = 0;
const key = () => `k-access-${++n}-${Date.now()}`;

/** A well-formed WebAuthn answer to a challenge this server never made. */
function passkeyAnswer(type: "webauthn.create" | "webauthn.get") {
  const b = (x: string | Buffer) => Buffer.from(x).toString("base64url");
  const clientDataJSON = b(JSON.stringify({ type, challenge: b(randomBytes(32)), origin: t.url }));
  const id = b(randomBytes(16));
  const response =
    type === "webauthn.create"
      ? { clientDataJSON, attestationObject: b("none") }
      : { clientDataJSON, authenticatorData: b("data"), signature: b("sig") };
  return { id, rawId: id, type: "public-key", clientExtensionResults: {}, response };
}

/** The request a row makes for a caller: a path and fetch options (credentials added by `call`). */
function requestFor(
  row: AccessRow,
  caller: Caller,
): { path: string; init?: RequestInit; token?: string | null | undefined } {
  const own = row.variant === "own";
  const conv = own ? "cnv_dan_ana" : "cnv_9f2a";
  const json = (body: unknown, method = row.method): RequestInit => ({
    method,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const me =
    caller === "admin" ? "ent_human_dan" : caller === "member" || caller === "revoked" ? "ent_human_ana" : "ent_other";
  const message = {
    event_id: `evt_access_${n}_${caller}`,
    event_type: "message.sent",
    ts: new Date().toISOString(),
    tenant_id: T,
    trace_id: "trc_access",
    conversation_id: conv,
    actor: { entity_id: me, actor_type: "human" },
    payload: { message_id: `msg_access_${n}_${caller}`, kind: "text", body_text: "hello" },
  };
  switch (`${row.method} ${row.route}`) {
    case "GET /*":
      return { path: "/" };
    case "POST /v1/admin/workspaces":
      return { path: "/v1/admin/workspaces", init: json({ name: "Sneaky Co", owner: { display_name: "Zed" } }) };
    case "POST /v1/admin/tokens/rotate":
      return { path: "/v1/admin/tokens/rotate", init: json({ tenant_id: T, entity_id: "ent_human_ana" }) };
    case "POST /v1/workspaces":
      return {
        path: "/v1/workspaces",
        init: json({ name: "Another Co", owner: { display_name: "Zed" } }),
        token: null,
      };
    case "GET /v1/invites/:invite":
      return { path: "/v1/invites/inv_unknown" };
    case "POST /v1/invites/:invite/accept":
      return { path: "/v1/invites/inv_unknown/accept", init: json({ display_name: "Zed" }), token: null };
    case "POST /v1/session":
      return { path: "/v1/session", init: json({ token: tokens[caller] ?? "llt_not_a_token" }), token: null };
    case "GET /signin":
      return { path: `/signin?token=${encodeURIComponent(tokens[caller] ?? "llt_not_a_token")}`, token: null };
    case "DELETE /v1/session":
      // Signing out revokes the token: each caller signs out a fresh one of their own.
      return {
        path: "/v1/session",
        init: { method: "DELETE" },
        token:
          caller === "admin"
            ? issue("ent_human_dan")
            : caller === "member"
              ? issue("ent_human_ana")
              : caller === "other"
                ? issue(otherOwner, otherTenant)
                : undefined,
      };
    case "POST /v1/sign-in-links":
      return { path: "/v1/sign-in-links", init: json({}) };
    case "POST /v1/sign-in-links/redeem":
      return { path: "/v1/sign-in-links/redeem", init: json({ code: `lnk_${"A".repeat(43)}` }), token: null };
    case "POST /v1/sign-in-links/email":
      return { path: "/v1/sign-in-links/email", init: json({ email: "someone@example.com" }), token: null };
    case "DELETE /v1/sessions/:session_id": {
      // Each caller ends a fresh session of their own.
      const who =
        caller === "admin"
          ? "ent_human_dan"
          : caller === "member" || caller === "revoked"
            ? "ent_human_ana"
            : undefined;
      const p = who ? { tenantId: T, entityId: who } : { tenantId: otherTenant, entityId: otherOwner };
      return { path: `/v1/sessions/${t.server.gateway.tokens.issueSession(p).sessionId}`, init: { method: "DELETE" } };
    }
    case "POST /v1/passkeys/sign-in-options":
    case "POST /v1/passkeys/registration-options":
      return { path: row.route, init: json({}), ...(row.route.includes("sign-in") ? { token: null } : {}) };
    case "POST /v1/passkeys/sign-in":
      return { path: row.route, init: json({ response: passkeyAnswer("webauthn.get") }), token: null };
    case "POST /v1/passkeys":
      return { path: row.route, init: json({ response: passkeyAnswer("webauthn.create") }) };
    case "DELETE /v1/passkeys/:passkey_id": {
      // Each caller removes a passkey of their own (stored as registration would store it).
      const who =
        caller === "admin"
          ? "ent_human_dan"
          : caller === "member" || caller === "revoked"
            ? "ent_human_ana"
            : undefined;
      const p = who ? { tenantId: T, entityId: who } : { tenantId: otherTenant, entityId: otherOwner };
      const id = `pk_${randomBytes(12).toString("hex")}`;
      t.server.db
        .prepare(
          "INSERT INTO gateway_passkeys (passkey_id, credential_id, tenant_id, entity_id, public_key, counter, created_at) VALUES (?, ?, ?, ?, 'x', 0, ?)",
        )
        .run(id, randomBytes(16).toString("base64url"), p.tenantId, p.entityId, new Date().toISOString());
      return { path: `/v1/passkeys/${id}`, init: { method: "DELETE" } };
    }
    case "PUT /v1/me/email":
      return { path: "/v1/me/email", init: json({ email: "me@example.com" }) };
    case "PUT /v1/me/profile":
      return { path: "/v1/me/profile", init: json({ time_zone: "Europe/Lisbon" }) };
    case "PUT /v1/entities/:id/profile":
      return { path: "/v1/entities/ent_human_dan/profile", init: json({ display_name: "Dan" }) };
    case "POST /v1/jobs/:job_id/hand-over":
      // Never actually moved: the agent is not a person, so even the admin is refused (422).
      return { path: `/v1/jobs/${jobId}/hand-over`, init: json({ to_entity_id: "ent_agent_scheduler" }) };
    case "GET /v1/jobs/:job_id/why":
      return { path: `/v1/jobs/${jobId}/why` };
    case "POST /v1/invites":
      return { path: "/v1/invites", init: json({ display_name: "Newcomer" }) };
    case "POST /v1/agents":
      return { path: "/v1/agents", init: json({ display_name: "Helper", role: "Assistant" }) };
    case "PUT /v1/admin/members/:id/access":
      return { path: "/v1/admin/members/ent_nobody/access", init: json({ access: "admin" }) };
    case "POST /v1/admin/members/:id/deactivate":
    case "POST /v1/admin/members/:id/reactivate":
    case "POST /v1/admin/members/:id/rotate-tokens":
      return { path: row.route.replace(":id", "ent_nobody"), init: { method: "POST" } };
    case "PUT /v1/admin/agents/:id":
      return { path: "/v1/admin/agents/ent_agent_nobody", init: json({ role: "Helper" }) };
    case "POST /v1/admin/agents/:id/pause":
    case "POST /v1/admin/agents/:id/resume":
      return { path: row.route.replace(":id", "ent_agent_nobody"), init: { method: "POST" } };
    case "DELETE /v1/admin/agents/:id":
      return { path: "/v1/admin/agents/ent_agent_nobody", init: { method: "DELETE" } };
    case "DELETE /v1/admin/tokens/:id":
      return { path: "/v1/admin/tokens/tok_00000000000000000000", init: { method: "DELETE" } };
    case "POST /v1/admin/policies/preview":
    case "PUT /v1/admin/policies":
      return { path: row.route, init: json({ modes: {}, params: { message_edit_window_seconds: 86_399 } }) };
    case "POST /v1/outbox/:id/resend":
      return { path: "/v1/outbox/obx_unknown/resend", init: json({}) };
    case "GET /v1/agents/:id/tools":
      return { path: "/v1/agents/ent_agent_unknown/tools" };
    case "PUT /v1/agents/:id/tools":
      return {
        path: "/v1/agents/ent_agent_unknown/tools",
        init: json({ tools: [{ name: "calendar.create_invite", mode: "off" }] }),
      };
    case "POST /v1/contacts":
      return { path: "/v1/contacts", init: json({ display_name: "Ann Other" }) };
    case "POST /v1/contacts/import":
      return { path: "/v1/contacts/import", init: json({ csv: "name,email\nBea,bea@example.com\n" }) };
    case "PATCH /v1/contacts/:id":
      return { path: `/v1/contacts/${contactId}`, init: json({ display_name: "Setup Contact", company: "Acme" }) };
    case "DELETE /v1/contacts/:id":
      return { path: `/v1/contacts/${contactId}`, init: { method: "DELETE" } };
    case "POST /v1/conversations":
      return {
        path: "/v1/conversations",
        init: json({ title: "Pair", participants: [{ entity_id: me }, { entity_id: "ent_agent_scheduler" }] }),
      };
    case "POST /v1/conversations/:id/messages":
      return { path: `/v1/conversations/${conv}/messages`, init: json({ kind: "text", body_text: "hello" }) };
    case "PATCH /v1/conversations/:id/messages/:message_id":
      return { path: `/v1/conversations/${conv}/messages/${danMessage}`, init: json({ body_text: "thanks!" }) };
    case "DELETE /v1/conversations/:id/messages/:message_id":
      return { path: `/v1/conversations/${conv}/messages/${danDoomed}`, init: { method: "DELETE" } };
    case "POST /v1/conversations/:id/messages/:message_id/reactions":
      return {
        path: `/v1/conversations/${conv}/messages/${danMessage}/reactions`,
        init: json({ emoji: "👍", on: true }),
      };
    case "GET /v1/conversations/:id/messages/:message_id":
      return { path: `/v1/conversations/${conv}/messages/${danMessage}` };
    case "POST /v1/conversations/:id/messages/:message_id/pin":
      return { path: `/v1/conversations/${conv}/messages/${danMessage}/pin`, init: json({ on: true }) };
    case "POST /v1/conversations/:id/messages/:message_id/previews/remove":
      return {
        path: `/v1/conversations/${conv}/messages/${danLinked}/previews/remove`,
        init: json({ url: "https://example.com/plan" }),
      };
    case "POST /v1/conversations/:id/messages/:message_id/forward":
      return {
        path: `/v1/conversations/${conv}/messages/${danMessage}/forward`,
        init: json({ to_conversation_id: conv }),
      };
    case "POST /v1/conversations/:id/call":
      return { path: `/v1/conversations/${conv}/call`, init: json({}) };
    case "GET /v1/conversations/:id/threads":
      return { path: `/v1/conversations/${conv}/threads` };
    case "GET /v1/conversations/:id/threads/:message_id":
      return { path: `/v1/conversations/${conv}/threads/${danMessage}` };
    case "POST /v1/conversations/:id/threads/:message_id/follow":
      return { path: `/v1/conversations/${conv}/threads/${danMessage}/follow`, init: json({ on: true }) };
    case "POST /v1/conversations/:id/threads/:message_id/read":
      return { path: `/v1/conversations/${conv}/threads/${danMessage}/read`, init: json({ cursor: "seq:1" }) };
    case "POST /v1/conversations/:id/read":
      return { path: `/v1/conversations/${conv}/read`, init: json({ cursor: "seq:1" }) };
    case "POST /v1/conversations/:id/typing":
      return { path: `/v1/conversations/${conv}/typing`, init: json({}) };
    case "POST /v1/conversations/:id/attachments": {
      const form = new FormData();
      form.append("file", new Blob(["x"], { type: "text/plain" }), "note.txt");
      return { path: `/v1/conversations/${conv}/attachments`, init: { method: "POST", body: form } };
    }
    case "POST /v1/me/avatar": {
      const form = new FormData();
      form.append("file", new Blob([png(4, 4)], { type: "image/png" }), "me.png");
      return { path: "/v1/me/avatar", init: { method: "POST", body: form } };
    }
    case "DELETE /v1/me/avatar":
      return { path: "/v1/me/avatar", init: { method: "DELETE" } };
    case "GET /v1/avatars/:id":
      return { path: avatarUrl };
    case "GET /v1/me/digest":
      return { path: "/v1/me/digest" };
    case "GET /v1/artifacts/:id":
      return { path: `/v1/artifacts/${artifactId}` };
    case "POST /v1/conversations/:id/context/pin":
    case "POST /v1/conversations/:id/context/target":
      return { path: row.route.replace(":id", conv), init: json({ job_id: jobId }) };
    case "POST /v1/conversations/:id/members":
      return { path: `/v1/conversations/${conv}/members`, init: json({ entity_id: helperAgent }) };
    case "DELETE /v1/conversations/:id/members/:entity_id":
      // Removing: the helper agent the row before added. Leaving: each caller leaves a group of their own.
      return row.variant === "leave"
        ? { path: `/v1/conversations/${leaveGroup}/members/${me}`, init: { method: "DELETE" } }
        : { path: `/v1/conversations/${conv}/members/${helperAgent}`, init: { method: "DELETE" } };
    case "POST /v1/conversations/:id/scheduled":
      return { path: `/v1/conversations/${conv}/scheduled`, init: json({ body_text: "later", send_at: LATER }) };
    case "POST /v1/conversations/:id/messages/:message_id/remind":
      return { path: `/v1/conversations/${conv}/messages/${danMessage}/remind`, init: json({ send_at: LATER }) };
    case "GET /v1/scheduled":
      return { path: "/v1/scheduled" };
    case "PATCH /v1/scheduled/:schedule_id":
      return { path: `/v1/scheduled/${danSchedule}`, init: json({ body_text: "later still" }) };
    case "DELETE /v1/scheduled/:schedule_id":
      return { path: `/v1/scheduled/${danSchedule}`, init: { method: "DELETE" } };
    case "GET /v1/channels":
      return { path: "/v1/channels" };
    case "POST /v1/conversations/:id/join":
      return {
        path: `/v1/conversations/${row.variant === "public" ? publicChannel : conv}/join`,
        init: { method: "POST" },
      };
    case "PUT /v1/conversations/:id/title":
      return { path: `/v1/conversations/${conv}/title`, init: json({ title: "Scheduling" }) };
    case "PUT /v1/conversations/:id/mute":
      return { path: `/v1/conversations/${conv}/mute`, init: json({ muted: true }) };
    case "POST /v1/push/subscriptions": {
      const device = createECDH("prime256v1");
      device.generateKeys();
      const keys = { p256dh: device.getPublicKey().toString("base64url"), auth: randomBytes(16).toString("base64url") };
      return {
        path: "/v1/push/subscriptions",
        init: json({ endpoint: `https://push.example.net/${caller}-${n}`, keys }),
      };
    }
    case "DELETE /v1/push/subscriptions":
      return { path: "/v1/push/subscriptions", init: json({ endpoint: `https://push.example.net/${caller}-${n}` }) };
    case "GET /v1/jobs/:job_id":
    case "GET /v1/jobs/:job_id/assist":
    case "GET /v1/jobs/:job_id/receipt":
      return { path: row.route.replace(":job_id", jobId) };
    case "POST /v1/jobs/:job_id/actions":
      return { path: `/v1/jobs/${jobId}/actions`, init: json({ conversation_id: "cnv_9f2a", ...approve }) };
    case "POST /v1/jobs/:job_id/assist/:suggestion_id/apply":
      return { path: `/v1/jobs/${jobId}/assist/sug_unknown/apply`, init: json({}) };
    case "GET /v1/ledger/query":
    case "GET /v1/ledger/stream":
    case "GET /v1/ledger/checkpoint":
    case "GET /v1/ledger/verify":
    case "GET /v1/ledger/policies":
      return { path: `${row.route}?tenant_id=${T}` };
    case "GET /v1/ledger/proof/inclusion":
      return { path: `${row.route}?tenant_id=${T}&seq=1` };
    case "GET /v1/ledger/proof/consistency":
      return { path: `${row.route}?tenant_id=${T}&from=1&to=2` };
    case "GET /v1/ledger/leaves":
      return { path: `${row.route}?tenant_id=${T}&start=1&end=2` };
    case "POST /v1/ledger/append":
      return { path: "/v1/ledger/append", init: json({ tenant_id: T, events: [message] }) };
    case "POST /v1/office/ingest_message":
      return {
        path: "/v1/office/ingest_message",
        init: json({
          tenant_id: T,
          trace_id: "trc_access",
          conversation_id: conv,
          actor_entity_id: me,
          body_text: "hello",
        }),
      };
    case "POST /v1/office/job_action":
      return {
        path: "/v1/office/job_action",
        init: json({
          tenant_id: T,
          trace_id: "trc_access",
          conversation_id: conv,
          actor_entity_id: me,
          job_id: jobId,
          card_id: "card_unknown",
          button_id: "btn_unknown",
          action: { type: "job.approve", job_id: jobId },
        }),
      };
    case "GET /v1/search":
      return { path: row.variant === "in it" ? `/v1/search?q=hello&conversation_id=${conv}` : "/v1/search?q=hello" };
    case "GET /v1/office/affordances":
      return { path: `/v1/office/affordances?tenant_id=${T}&entity_id=ent_agent_scheduler` };
    case "GET /v1/agents/:entity_id/trajectory":
      return { path: "/v1/agents/ent_agent_scheduler/trajectory" };
    default:
      return { path: row.route.replace(":id", conv) };
  }
}

async function call(row: AccessRow, caller: Caller): Promise<number> {
  const r = requestFor(row, caller);
  const token = r.token === null ? undefined : (r.token ?? tokens[caller]);
  const headers = new Headers(r.init?.headers);
  if (token && caller !== "anonymous") headers.set("authorization", `Bearer ${token}`);
  if (r.init?.method && r.init.method !== "GET") headers.set("idempotency-key", key());
  const ctl = new AbortController();
  const res = await fetch(`${t.url}${r.path}`, { ...r.init, headers, redirect: "manual", signal: ctl.signal });
  // Streams stay open: the status is the answer.
  if ((res.headers.get("content-type") ?? "").startsWith("text/event-stream")) ctl.abort();
  else await res.arrayBuffer();
  return res.status;
}

describe("who may call what (test/support/access-table.ts)", () => {
  it("lists every route the server has", () => {
    const served = new Set(t.server.app.routes.filter((r) => r.method !== "ALL").map((r) => `${r.method} ${r.path}`));
    const listed = new Set(ACCESS.map((r) => `${r.method} ${r.route}`));
    expect([...served].filter((r) => !listed.has(r)).sort()).toEqual([]);
    expect([...listed].filter((r) => !served.has(r)).sort()).toEqual([]);
  });

  it.each(ACCESS.map((r) => [`${r.method} ${r.route}${r.variant ? ` (${r.variant})` : ""}`, r] as const))(
    "%s",
    async (_name, row) => {
      const got: Record<string, number> = {};
      for (const caller of CALLERS) got[caller] = await call(row, caller);
      expect(got).toEqual(row.expect);
    },
  );

  it("docs/api/access.md, “Who can see and do what”, is this table", () => {
    const readme = readFileSync(new URL("../../docs/api/access.md", import.meta.url), "utf8");
    expect(readme).toContain(renderAccessTable());
  });
});
