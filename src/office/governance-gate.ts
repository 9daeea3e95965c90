import type { TCardButton, TInputSchema, TJobCard } from "../../contracts/cards.js";
import type { TJobActionRequest } from "../../contracts/office.js";
import { AppError } from "../shared/errors.js";
import { isActionAllowed, mayClick } from "../job/transitions.js";
import type { JobView } from "./job-machine.js";
import { isEmail } from "./pii.js";
import { mentionsTime } from "./planner/slots.js";
import { isMeetingUrl } from "./tools/meeting-rooms.js";
import { normalizeTimeZone } from "./tools/tz.js";
import { words } from "./speak.js";
import { formError } from "./narrator.js";

/**
 * The checks a click must pass before Office acts on it, all pure: the job is in this
 * conversation, the button was really offered on a card of this job with this action,
 * the job's state allows it, and the input fits the card's form.
 */

function findButton(
  job: JobView,
  req: Pick<TJobActionRequest, "card_id" | "button_id" | "action">,
): { card: TJobCard; button: TCardButton } {
  const card = job.cards.get(req.card_id);
  if (!card)
    throw new AppError("INVALID_PROVENANCE", "That card does not belong to this job.", { card_id: req.card_id });
  const button = card.buttons.find((b) => b.button_id === req.button_id);
  if (!button || button.action.type !== req.action.type) {
    throw new AppError("INVALID_PROVENANCE", "That button was not offered on this card.", {
      card_id: req.card_id,
      button_id: req.button_id,
    });
  }
  return { card, button };
}

/**
 * UNAUTHORIZED_ACTION (403), the policy's own code, when `roles` may not click `actionType`
 * (`mayClick`, as the policy pack rules it). Checked before anything is recorded, so a refused
 * click shows nothing.
 */
function checkClicker(roles: readonly string[], actionType: string, label: string): void {
  if (!mayClick(roles, actionType)) {
    throw new AppError(
      "UNAUTHORIZED_ACTION",
      `Only an approver or an admin of this workspace can ${label.toLowerCase()} a job.`,
      {
        action: actionType,
        needs_role: "job_approver",
      },
    );
  }
}

/** The request names a job of this tenant and conversation (NOT_FOUND, JOB_CONVERSATION_MISMATCH). */
export function checkAddress(
  job: JobView | null,
  req: Pick<TJobActionRequest, "tenant_id" | "conversation_id" | "job_id" | "action">,
): asserts job is JobView {
  if (!job || job.tenant_id !== req.tenant_id) throw new AppError("NOT_FOUND", "No such job.", { job_id: req.job_id });
  if (job.conversation_id !== req.conversation_id)
    throw new AppError("JOB_CONVERSATION_MISMATCH", "That job belongs to another conversation.", {
      job_id: req.job_id,
    });
  if (req.action.job_id !== undefined && req.action.job_id !== req.job_id)
    throw new AppError("VALIDATION_ERROR", "action.job_id must match job_id.", { field: "action.job_id" });
}

/**
 * The click against the job's own history: the button was offered on one of its cards, the
 * job's state accepts the action, and the card is the job's latest (a newer card overtakes it).
 */
function checkClick(
  job: JobView,
  click: Pick<TJobActionRequest, "card_id" | "button_id" | "action">,
): { card: TJobCard; button: TCardButton } {
  const found = findButton(job, click);
  if (!isActionAllowed(job.state, click.action.type)) {
    throw new AppError(
      "ILLEGAL_JOB_TRANSITION",
      `“${found.button.label}” is not possible while the job is ${job.state.replace("_", " ")}.`,
      {
        state: job.state,
        action: click.action.type,
      },
    );
  }
  // A stale proposal cannot be approved once a newer one replaced it.
  if (found.card.card_type === "job.formalize" && job.latest["job.formalize"]?.card_id !== found.card.card_id) {
    throw new AppError("INVALID_PROVENANCE", "That proposal was replaced by a newer one.", { card_id: click.card_id });
  }
  // Only the job's latest card acts for it (see the kernel's `summarize`); an earlier card is
  // overtaken and inert. "Ask in chat" only asks, so it works from any card.
  if (click.action.type !== "chat.ask" && job.last_card_id !== undefined && job.last_card_id !== found.card.card_id) {
    throw new AppError(
      "INVALID_PROVENANCE",
      "That card was overtaken by a newer one; its buttons no longer act on the job.",
      {
        card_id: click.card_id,
        latest_card_id: job.last_card_id,
      },
    );
  }
  return found;
}

function schemaOf(button: TCardButton): TInputSchema | undefined {
  const a = button.action;
  return a.type === "job.provide_input" || a.type === "job.request_changes" || a.type === "job.follow_up"
    ? a.input_schema
    : undefined;
}

/** Field errors of an input against a card's form; empty when it is fine. */
function validateInput(
  button: TCardButton,
  input: Record<string, unknown> | undefined,
  locale?: string,
): Record<string, string> {
  const t = words(locale);
  const errors: Record<string, string> = {};
  const schema = schemaOf(button);
  const given = input ?? {};
  if (button.action.type === "job.dispute") {
    const reason = given.dispute_reason ?? given.details ?? given.reason;
    if (typeof reason !== "string" || !reason.trim()) errors.dispute_reason = formError("disputeReason", {}, t);
    return errors;
  }
  if (!schema) return errors;
  for (const f of schema.fields) {
    const v = given[f.key];
    const empty = v === undefined || v === null || (typeof v === "string" && !v.trim());
    if (empty) {
      if (f.required) errors[f.key] = formError("required", f, t);
      continue;
    }
    if (f.type === "number" && typeof v !== "number" && !Number.isFinite(Number(v)))
      errors[f.key] = formError("number", f, t);
    else if (f.type === "boolean" && typeof v !== "boolean") errors[f.key] = formError("boolean", f, t);
    else if (f.type === "select" && !f.options?.some((o) => o.value === v)) errors[f.key] = formError("select", f, t);
    else if ((f.type === "string" || f.type === "multiline") && typeof v !== "string")
      errors[f.key] = formError("text", f, t);
    else if (f.key.endsWith("_email") && !isEmail(String(v))) errors[f.key] = formError("email", {}, t);
    else if (f.key === "timezone" && !normalizeTimeZone(String(v))) errors[f.key] = formError("timezone", {}, t);
    // Portuguese time words are understood from anyone, as in the chat.
    else if (f.key === "time_window" && !mentionsTime(String(v), locale) && !mentionsTime(String(v), "pt"))
      errors[f.key] = formError("timeWindow", {}, t);
    else if (f.key === "meeting_url" && !isMeetingUrl(String(v).trim())) errors[f.key] = formError("meetingUrl", {}, t);
  }
  // "Paste a link" needs the link itself: a meeting place nobody can open is no meeting place.
  if (
    given.meeting_link === "link" &&
    schema.fields.some((f) => f.key === "meeting_url") &&
    !(typeof given.meeting_url === "string" && given.meeting_url.trim()) &&
    !errors.meeting_url
  ) {
    errors.meeting_url = formError("meetingUrl", {}, t);
  }
  const known = new Set(schema.fields.map((f) => f.key));
  for (const k of Object.keys(given)) if (!known.has(k)) errors[k] = formError("unknownField", {}, t);
  return errors;
}

export function invalidInputError(errors: Record<string, string>, extra: Record<string, unknown> = {}): AppError {
  const first = Object.entries(errors)[0];
  return new AppError("INVALID_INPUT", first ? `${first[0]}: ${first[1]}` : "Invalid input.", {
    fields: errors,
    ...extra,
  });
}

/**
 * The checks a click must pass before anything is recorded: offered on this job's card, allowed
 * in its state, by someone who may click it. Returns the button and the form's field errors
 * (a bad form answer is not refused here: Provide info answers it with a card that says why).
 */
export function checkClickCommand(
  job: JobView,
  click: Pick<TJobActionRequest, "card_id" | "button_id" | "action"> & {
    by: { actor_type: string; roles: readonly string[] };
    input?: Record<string, unknown>;
  },
): { button: TCardButton; fieldErrors: Record<string, string> } {
  const { button } = checkClick(job, click);
  if (click.by.actor_type === "human") checkClicker(click.by.roles, button.action.type, button.label);
  const fieldErrors = validateInput(button, click.input, job.slots.locale);
  if (Object.keys(fieldErrors).length && click.action.type !== "job.provide_input")
    throw invalidInputError(fieldErrors);
  return { button, fieldErrors };
}
