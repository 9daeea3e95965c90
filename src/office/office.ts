import { pickLocale } from "../shared/i18n.js";
import { words } from "./speak.js";
import { ZAffordancesRequest, ZJobActionRequest } from "../../contracts/office.js";
import { systemClock } from "../shared/clock.js";
import { AppError, validationError } from "../shared/errors.js";
import { defaultIds } from "../shared/ids.js";
import { createArtifactStore, type ArtifactStore } from "./artifact-store.js";
import { createContextBuilder } from "./context-builder.js";
import { createOfficeView } from "./views/office-view.js";
import { createEmitter } from "./emitter.js";
import { createAnswerMarker, createInbox, createSqliteInboxStore } from "./inbox.js";
import { createIngest } from "./intake/ingest.js";
import { createJobEngine } from "./engine/job-engine.js";
import { createJobClicks } from "./jobs/clicks.js";
import { migrateOffice } from "./migrate.js";
import type { OfficeApi } from "./office-api.js";
import { createAssist } from "./assist/assist.js";
import { createAssistStore } from "./llm/assist-store.js";
import { createContextAwareRules } from "./llm/context-aware-rules.js";
import type { LlmPlanner } from "./llm/llm-planner.js";
import { createLlmStore } from "./llm/store.js";
import { createThreadApi } from "./thread-api.js";
import type { Planner } from "./planner/planner.js";
import { createRulesPlanner } from "./planner/rules.js";
import { createCircuitBreaker, DEFAULT_RETRY_SCHEDULE_MS } from "./engine/retry-policy.js";
import { createMcpHub } from "./mcp/hub.js";
import { agentToolsView, usableTools } from "./mcp/agent-tools.js";
import { createCalendarInviteTool } from "./tools/calendar-create-invite.js";
import { createRecordAnswerTool } from "./tools/calendar-record-answer.js";
import {
  createCancelInviteTool,
  createDeclineCounterTool,
  createMoveInviteTool,
} from "./tools/calendar-change-invite.js";
import { createInviteReplies, type InboundRecord } from "./mail/invite-replies.js";
import { createMeetingReminders } from "./calendar/meeting-reminders.js";
import { createImapReader, type ImapReaderStatus } from "./mail/imap-reader.js";
import { createJitsiRooms } from "./tools/meeting-rooms.js";
import { MAIL_TOOL_INFO } from "./mail/job-mail.js";
import { createToolRouter } from "./tools/tool-router.js";
import { buildAffordances, buildTrajectory } from "./views/trajectory.js";
import { createVault } from "./vault/vault.js";

import { explainJob } from "./views/why.js";
import type { CreateOfficeDeps } from "./office-deps.js";

export type Office = OfficeApi & {
  artifacts: ArtifactStore;
  planner: Planner;
  /** Resolves when work started by retry timers or boot has finished (tests, graceful shutdown). */
  idle(): Promise<void>;
  /** Invitees' answers read from the organizer's mailbox (IMAP_URL). */
  inbound: {
    /** Reads the mailbox now; resolves when what was unread is recorded (a no-op without IMAP_URL). */
    check(): Promise<void>;
    status(): (ImapReaderStatus & { configured: true }) | { configured: false };
    /** The mails recorded for a tenant (or one job), answers and refusals. */
    list(tenantId: string, jobId?: string): InboundRecord[];
    /** Every mail recorded, refusals that matched no job included. */
    all(): InboundRecord[];
  };
};

/**
 * Office with its life (the door's start and close): `start` re-derives pending retries from the
 * ledger, arms their timers, resumes the mail worker and answers what the inbox holds; `stop`
 * stops every timer and worker (pending work stays recorded and resumes at the next start).
 */
export type OfficeRuntime = Office & { start(): Promise<void>; stop(): void };

export function createOfficeRuntime(deps: CreateOfficeDeps): OfficeRuntime {
  const clock = deps.clock ?? systemClock;
  const ids = deps.ids ?? defaultIds;
  const defaultTimezone = deps.defaultTimezone ?? "Europe/Lisbon";
  const onError = (err: unknown, where: string) => deps.logger?.error({ err, where }, "office error");
  migrateOffice(deps.db);
  const mcp = createMcpHub({ servers: deps.mcpServers ?? [], clock, clientVersion: "0.1.0", onError });

  const artifacts = createArtifactStore({ db: deps.db, dataDir: deps.dataDir, clock });
  // Erasing a vault entry also rewrites every Office-held copy of its value (invite files, outbox).
  const vault = createVault({
    db: deps.db,
    dataDir: deps.dataDir,
    clock,
    ids,
    onErase: (t, ref, value, redacted) => void artifacts.forget(t, ref, value, redacted),
  });
  // Meeting rooms are named from a keyed hash (the vault's secret): unguessable, stable per job.
  const rooms = createJitsiRooms({
    baseUrl: deps.jitsiBaseUrl ?? "https://meet.jit.si",
    keyedHash: (v) => vault.hashOf("meeting-rooms", "text", v),
  });
  const inviteTool = createCalendarInviteTool({
    vault,
    artifacts,
    rooms,
    ...(deps.calendarProvider ? { calendar: deps.calendarProvider } : {}),
    ...(deps.mail ? { organizerAddress: deps.mail.from } : {}),
  });
  const answerTool = createRecordAnswerTool({
    vault,
    ...(deps.calendarProvider ? { calendar: deps.calendarProvider } : {}),
  });
  const changeDeps = { artifacts, vault, ...(deps.calendarProvider ? { calendar: deps.calendarProvider } : {}) };
  const router = createToolRouter({
    clock,
    tools: [
      inviteTool,
      answerTool,
      createMoveInviteTool(changeDeps),
      createCancelInviteTool(changeDeps),
      createDeclineCounterTool(changeDeps),
    ],
    runElsewhere: [MAIL_TOOL_INFO],
    mcp,
  });
  // Built here, not in start(): requests can reach Office before start() re-arms the retries.
  const reminders = createMeetingReminders({ clock });
  const view = createOfficeView({
    ledger: deps.ledger,
    onError,
    also: reminders.index,
    keepJobEvents: deps.sharedInbox !== undefined,
  });
  const context = createContextBuilder({ ledger: deps.ledger, view });
  const answering = deps.sharedInbox?.marker ?? createAnswerMarker(deps.db);
  const emitter = createEmitter({
    ledger: deps.ledger,
    clock,
    ids,
    answering,
    onOwnRefusal: (details) =>
      deps.logger?.error(details, "the ledger refused events Office wrote on its own: this is a bug in Office"),
  });
  const engine = createJobEngine({
    ledger: deps.ledger,
    clock,
    ids,
    emitter,
    context,
    router,
    vault,
    breaker: createCircuitBreaker({ clock, ...deps.breaker }),
    schedule: deps.retrySchedule ?? DEFAULT_RETRY_SCHEDULE_MS,
    defaultTimezone,
    onError,
    db: deps.db,
    artifacts,
    mcp,
    calendarConnected: Boolean(deps.calendarProvider),
    ...(deps.mail ? { mail: deps.mail } : {}),
    ...(deps.mailTransport ? { mailTransport: deps.mailTransport } : {}),
    ...(deps.mailSchedule ? { mailSchedule: deps.mailSchedule } : {}),
  });
  const replies = createInviteReplies({
    ledger: deps.ledger,
    db: deps.db,
    clock,
    vault,
    context,
    run: engine.run,
    withLock: engine.withLock,
    jobKey: engine.jobKey,
    maxBytes: deps.imap?.maxBytes ?? 1_000_000,
    scrub: (t, text) => engine.sanitizeText(t, text).text,
    onError,
  });
  const reader = deps.imap
    ? createImapReader({
        config: deps.imap,
        clock,
        maxBytes: deps.imap.maxBytes,
        handle: async (mail) => void (await replies.handle(mail)),
        ...(deps.imapPollMs ? { pollMs: deps.imapPollMs } : {}),
        ...(deps.imapBackoffMs ? { backoffMs: deps.imapBackoffMs } : {}),
        ...(deps.logger ? { logger: deps.logger } : {}),
      })
    : undefined;
  const rules = createRulesPlanner();
  const llmStore = createLlmStore(deps.db);
  const chosen = deps.planner ?? rules;
  const llm = chosen.name === "llm" && "suggest" in chosen ? (chosen as LlmPlanner) : undefined;
  // The rules get the same token and ThreadContext handling as the LLM planner (see context-aware-rules).
  const planner = chosen.name === "rules" ? createContextAwareRules({ rules: chosen, store: llmStore, clock }) : chosen;
  const emit = emitter.emit;
  const threads = createThreadApi({ context, store: llmStore, clock, defaultTimezone });
  const assist = createAssist({
    ledger: deps.ledger,
    context,
    engine,
    emit,
    clock,
    store: createAssistStore(deps.db),
    ...(llm ? { llm } : {}),
  });
  const actions = createJobClicks({
    engine,
    context,
    ...(deps.defaultLocale ? { defaultLocale: deps.defaultLocale } : {}),
  });
  const ingest = createIngest({
    mcpTools: () => mcp.tools(),
    handleClick: (r) => actions.handle(r),
    handOver: (r) => actions.handOver(r),
    ledger: deps.ledger,
    clock,
    context,
    engine,
    planner,
    fallback: rules,
    emit,
    defaultTimezone,
    ...(deps.defaultLocale ? { defaultLocale: deps.defaultLocale } : {}),
    onError,
  });

  const inbox = createInbox({
    store: deps.sharedInbox?.store ?? createSqliteInboxStore(deps.db),
    vault,
    clock,
    marker: answering,
    handlers: {
      message: (r) => ingest(r),
      job_action: (r) => actions.handle(parseAction(r)),
      suggestion: (r) => assist.apply(r),
      hand_over: (r) => actions.afterHandOver(r),
    },
    onError,
    onWarn: (msg, details) => deps.logger?.info?.(details, msg),
  });

  let unfollowInbox: (() => void) | undefined;

  const parseAction = (raw: unknown) => {
    const r = ZJobActionRequest.safeParse(raw);
    if (!r.success) throw validationError(r.error.issues);
    return r.data;
  };

  return {
    planner,
    artifacts,
    vault,
    callRoomUrl: (key) => (deps.calls ? rooms.roomUrl(`call|${key}`) : null),
    calls: deps.calls === true,
    async ingestMessage(req) {
      const r = await ingest(req);
      return { ok: true, emitted_event_ids: r.ids, notes: r.notes, ...(r.job_id ? { job_id: r.job_id } : {}) };
    },
    async jobAction(req) {
      const parsed = parseAction(req);
      const r = await actions.handle(parsed);
      return {
        ok: true,
        emitted_event_ids: r.ids,
        job_id: r.job_id ?? parsed.job_id,
        ...(r.notes ? { notes: r.notes } : {}),
      };
    },
    checkJobAction(req) {
      actions.check(parseAction(req));
    },
    handOver: (req, opts) => actions.handOver(req, opts),
    async affordances(req) {
      const r = ZAffordancesRequest.safeParse(req);
      if (!r.success) throw validationError(r.error.issues);
      return buildAffordances(context, router, r.data);
    },
    async trajectory(tenantId, entityId, canSee) {
      return buildTrajectory(context, tenantId, entityId, canSee);
    },
    artifact: (tenantId, artifactId) => artifacts.get(tenantId, artifactId),
    checkMessage: (req) => threads.checkMessage(req),
    threadContext: (t, c) => threads.get(t, c),
    setThreadContext: (t, c, what, jobId) => threads.set(t, c, what, jobId),
    assist: (t, j, trace) => assist.list(t, j, trace),
    checkSuggestion: (req) => void assist.check(req),
    claimSuggestion: (req) => assist.claim(req).preview,
    llmPackets: (t, jobId) =>
      llmStore.listPackets(t, { jobId, limit: 20 }).map((p) => ({
        id: p.id,
        turn: p.turn,
        created_at: p.created_at,
        packet_type: p.packet_type,
        model_id: p.model_id,
        outcome: p.outcome,
        redaction: p.redaction,
        packet: p.packet,
      })),
    outbox: (tenantId) => ({
      mail_configured: engine.mail.mailer.enabled,
      messages: engine.mail.list(tenantId).reverse(),
    }),
    async resendOutbox(tenantId, outboxId) {
      const row = engine.mail.list(tenantId).find((m) => m.outbox_id === outboxId);
      if (!row) throw new AppError("NOT_FOUND", "No such outgoing message.", { outbox_id: outboxId });
      if (row.status === "sent")
        throw new AppError("CONFLICT", "This message was sent already.", { outbox_id: outboxId });
      const r = await actions.resendOutbox(tenantId, row.job_id);
      return { ok: true, emitted_event_ids: r.ids, job_id: r.job_id, notes: "Resending" };
    },
    accept: (work) => inbox.accept(work),
    inboxPending: () => inbox.pending(),
    drain: (ms) => inbox.drain(ms),
    async idle() {
      await inbox.idle();
      await engine.idle();
      await reminders.idle();
    },
    inbound: {
      check: async () => reader?.check(),
      status: () => (reader ? { configured: true as const, ...reader.status() } : { configured: false as const }),
      list: (tenantId, jobId) => replies.list(tenantId, jobId),
      all: () => replies.all(),
    },
    inboundRefusals: (tenantId, limit) => ({
      mailbox_configured: Boolean(reader),
      refusals: replies.refusals(tenantId, limit).map((r) => ({
        key: r.key,
        reason: r.reason ?? "unknown",
        detail: r.detail ?? null,
        job_id: r.tenant_id === tenantId ? (r.job_id ?? null) : null,
        received_at: r.received_at,
      })),
    }),
    mcpStatus: () => mcp.status(),
    explainJob: (tenantId, jobId, readerLocale) =>
      explainJob(
        { ledger: deps.ledger, name: (t, id) => context.profile(t, id)?.display_name ?? id },
        tenantId,
        jobId,
        words(pickLocale(readerLocale, deps.defaultLocale)),
      ),
    conversationTools(tenantId, conversationId) {
      const agent = context.answeringAgent(tenantId, conversationId, "", "");
      return { agent_entity_id: agent?.entity_id ?? null, tools: agent ? usableTools(agent, mcp.tools()) : [] };
    },
    agentTools(tenantId, agentEntityId) {
      const agent = context.profile(tenantId, agentEntityId);
      return agent?.actor_type === "agent" ? agentToolsView(agent, router.list(), mcp.tools()) : null;
    },
    async start() {
      await view.ready;
      engine.rearm(deps.ledger.tenants());
      engine.mail.start();
      inbox.start();
      // A shared inbox also holds rows other processes accepted: each commit followed here may have brought one.
      if (deps.sharedInbox) unfollowInbox = deps.ledger.subscribe(() => inbox.kick());
      reminders.start({ context, emitter, withLock: engine.withLock, jobKey: engine.jobKey, onError });
      // Answers are only read with a mailbox configured; without one nothing replays the ledger for them.
      if (reader) {
        replies.start();
        reader.start();
      }
      // MCP servers connect in the background: a slow or dead one never holds up the boot.
      void mcp.start().catch((e) => onError(e, "mcp.start"));
    },
    stop() {
      unfollowInbox?.();
      inbox.stop();
      reminders.stop();
      replies.stop();
      void reader?.stop();
      engine.stopAll();
      void mcp.stop();
    },
  };
}
