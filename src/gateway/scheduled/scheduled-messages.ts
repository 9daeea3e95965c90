import type { z } from "zod";
import { LIMITS } from "../../../contracts/facts.js";
import type {
  TScheduledList,
  ZEditScheduleRequest,
  ZRemindRequest,
  ZScheduleMessageRequest,
} from "../../../contracts/scheduled.js";
import { AppError } from "../../shared/errors.js";
import type { Principal } from "../auth/token-store.js";
import type { Core } from "../core.js";
import type { IdemScope, StoredResponse } from "../idempotency.js";
import { FALLBACK_TIME_ZONE, parseSendAt } from "./send-at.js";
import { type Scheduler, view } from "./scheduler.js";
import { memberConversation } from "../conversations/conversations.js";
import { liveMessage } from "../conversations/messages.js";

/**
 * Send later and Remind me: a person's own schedule, kept by the gateway until it falls due
 * (nobody else reads it, so it is not in the ledger); what it sends then is a ledger event like
 * any message. Each write stores its idempotent response in the same transaction as the change.
 */

/** How long the text of a reminder's message is quoted. */
const REMINDER_QUOTE = 200;

function recorded(core: Core, idem: IdemScope, status: number, change: () => unknown): StoredResponse {
  let stored: StoredResponse | undefined;
  core.db.transaction(() => {
    stored = { status, body: change() };
    core.idem.record(idem, stored, core.db);
  })();
  return stored!;
}

const zoneOf = (core: Core, p: Principal) => core.me(p).time_zone ?? FALLBACK_TIME_ZONE;

/** When it is due: `in_minutes` from the server's now, or `send_at` read in the person's zone. */
function dueAt(core: Core, tz: string, b: { send_at?: string | undefined; in_minutes?: number | undefined }): number {
  if (b.in_minutes !== undefined) return core.clock.now() + b.in_minutes * 60_000;
  return parseSendAt(b.send_at ?? "", tz, core.clock.now());
}

function roomFor(scheduler: Scheduler, p: Principal): void {
  if (scheduler.pendingCount(p.tenantId, p.entityId) >= LIMITS.schedulesPending)
    throw new AppError("CONFLICT", `You already have ${LIMITS.schedulesPending} messages and reminders waiting`, {
      limit: LIMITS.schedulesPending,
    });
}

export function scheduleMessage(
  core: Core,
  scheduler: Scheduler,
  p: Principal,
  conversationId: string,
  body: z.infer<typeof ZScheduleMessageRequest>,
  idem: IdemScope,
): StoredResponse {
  memberConversation(core, p, conversationId);
  if (body.body_text.trim() === "")
    throw new AppError("VALIDATION_ERROR", "The message is empty", { field: "body_text" });
  const tz = zoneOf(core, p);
  const sendAt = dueAt(core, tz, body);
  roomFor(scheduler, p);
  const scheduleId = core.ids("sch");
  return recorded(core, idem, 201, () => {
    scheduler.create({
      schedule_id: scheduleId,
      tenant_id: p.tenantId,
      entity_id: p.entityId,
      conversation_id: conversationId,
      kind: "message",
      body_text: body.body_text,
      about_message_id: null,
      send_at_ms: sendAt,
      time_zone: tz,
      message_id: core.ids("msg"),
      created_at: core.clock.iso(),
    });
    return view(scheduler.get(p.tenantId, p.entityId, scheduleId));
  });
}

export function remindMe(
  core: Core,
  scheduler: Scheduler,
  p: Principal,
  conversationId: string,
  messageId: string,
  body: z.infer<typeof ZRemindRequest>,
  idem: IdemScope,
): StoredResponse {
  memberConversation(core, p, conversationId);
  const item = liveMessage(core, p, conversationId, messageId, "message_id");
  const tz = zoneOf(core, p);
  const sendAt = dueAt(core, tz, body);
  roomFor(scheduler, p);
  const text = (item.message as { body_text?: string }).body_text ?? "";
  const quote = text.length > REMINDER_QUOTE ? `${text.slice(0, REMINDER_QUOTE - 1)}…` : text;
  const scheduleId = core.ids("sch");
  return recorded(core, idem, 201, () => {
    scheduler.create({
      schedule_id: scheduleId,
      tenant_id: p.tenantId,
      entity_id: p.entityId,
      conversation_id: conversationId,
      kind: "reminder",
      body_text: quote,
      about_message_id: messageId,
      send_at_ms: sendAt,
      time_zone: tz,
      message_id: core.ids("msg"),
      created_at: core.clock.iso(),
    });
    return view(scheduler.get(p.tenantId, p.entityId, scheduleId));
  });
}

export function listScheduled(scheduler: Scheduler, p: Principal): TScheduledList {
  return { items: scheduler.list(p.tenantId, p.entityId).map(view) };
}

function waiting(scheduler: Scheduler, p: Principal, scheduleId: string) {
  const r = scheduler.get(p.tenantId, p.entityId, scheduleId);
  if (r.status !== "pending")
    throw new AppError("CONFLICT", `This one is ${r.status} already`, { schedule_id: scheduleId, status: r.status });
  return r;
}

export function editScheduled(
  core: Core,
  scheduler: Scheduler,
  p: Principal,
  scheduleId: string,
  body: z.infer<typeof ZEditScheduleRequest>,
  idem: IdemScope,
): StoredResponse {
  const r = waiting(scheduler, p, scheduleId);
  if (r.kind === "reminder" && body.body_text !== undefined)
    throw new AppError("VALIDATION_ERROR", "A reminder quotes its message: change its time, or cancel it", {
      field: "body_text",
    });
  if (body.body_text !== undefined && body.body_text.trim() === "")
    throw new AppError("VALIDATION_ERROR", "The message is empty", { field: "body_text" });
  const sendAt =
    body.send_at === undefined && body.in_minutes === undefined ? undefined : dueAt(core, zoneOf(core, p), body);
  return recorded(core, idem, 200, () => {
    scheduler.update(scheduleId, {
      ...(body.body_text !== undefined ? { body_text: body.body_text } : {}),
      ...(sendAt !== undefined ? { send_at_ms: sendAt } : {}),
    });
    return view(scheduler.get(p.tenantId, p.entityId, scheduleId));
  });
}

export function cancelScheduled(
  core: Core,
  scheduler: Scheduler,
  p: Principal,
  scheduleId: string,
  idem: IdemScope,
): StoredResponse {
  waiting(scheduler, p, scheduleId);
  return recorded(core, idem, 200, () => {
    scheduler.cancel(scheduleId, core.clock.iso());
    return view(scheduler.get(p.tenantId, p.entityId, scheduleId));
  });
}
