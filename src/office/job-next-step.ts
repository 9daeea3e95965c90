import type { ContextBuilder, EntityProfile } from "./context-builder.js";
import type { Draft } from "./emitter.js";
import { buildFinishedCard, buildTrackingCard, completedButtons, INFO_SCHEMA, trackingButtons } from "./cards.js";
import { CALENDAR_TOOL, type JobDrafts } from "./job-drafts.js";
import { missingMeetingInputs, type JobView } from "./job-machine.js";
import * as copy from "./narrator.js";
import type { ToolRouter } from "./tools/tool-router.js";

const HANDOFF_DONE_SCHEMA = {
  fields: [{ key: "info", label: "What was done?", type: "multiline" as const, required: true, placeholder: "e.g. Sent invoice 123 to ACME by post" }],
};

/** What an in-progress job does next: ask for what is missing, stop where no tool may act, or run. */
export function createNextStep(deps: { context: ContextBuilder; router: ToolRouter; defaultTimezone: string; drafts: JobDrafts }) {
  const { context } = deps;
  const { cardCtx, cardDrafts, stateDraft } = deps.drafts;

  const approverOf = (job: JobView) => {
    const by = [...job.approvals].reverse().find((a) => a.action === "approved")?.by;
    const p = by ? context.profile(job.tenant_id, by) : undefined;
    return by ? [{ entity_id: by, display_name: p?.display_name ?? by }] : [];
  };

  /** The job is in_progress: either it still lacks inputs (→ waiting_input card) or its tool can run. */
  function nextStep(job: JobView, agent: EntityProfile): { drafts: Draft[]; run: boolean } {
    if (job.kind === "handoff") return handoffStep(job, agent);
    if (job.kind === "generic") {
      const c = cardCtx(job, agent);
      const card = buildTrackingCard(c, {
        state: "waiting_input",
        status_line: "I have no tool for this kind of work yet. Add details, hand it to a person, or cancel.",
        blockers: ["No tool available for this job"],
        waiting_on: approverOf(job),
        steps: [
          { key: "confirm", label: "Confirm the details", state: "done" },
          { key: "do_work", label: "Do the work", state: "blocked" },
        ],
        buttons: trackingButtons(c, INFO_SCHEMA),
      });
      return {
        drafts: [
          stateDraft(agent.entity_id, job.job_id, "in_progress", "waiting_input", "no_tool_available", "No tool can do this job."),
          ...cardDrafts(agent.entity_id, job.job_id, "job.progress", card),
        ],
        run: false,
      };
    }
    const missing = missingMeetingInputs(job.slots);
    if (missing.length) {
      const c = cardCtx(job, agent);
      const card = buildTrackingCard(c, {
        state: "waiting_input",
        status_line: copy.waitingStatus(missing, job.slots),
        waiting_on: approverOf(job),
        steps: copy.meetingSteps("collect"),
        buttons: trackingButtons(c, copy.meetingInputSchema(missing, job.slots, deps.defaultTimezone)),
      });
      return {
        drafts: [
          stateDraft(agent.entity_id, job.job_id, "in_progress", "waiting_input", "missing_required_inputs", "Need contact + preferred times before creating invite."),
          ...cardDrafts(agent.entity_id, job.job_id, "job.progress", card),
        ],
        run: false,
      };
    }
    if (!deps.router.isAllowed(agent.allowed_tools, CALENDAR_TOOL)) {
      const c = cardCtx(job, agent);
      const card = buildTrackingCard(c, {
        state: "waiting_input",
        status_line: `I’m not allowed to use ${CALENDAR_TOOL}. An admin can allow it, or a person can take this job.`,
        blockers: [`Tool not allowed: ${CALENDAR_TOOL}`],
        waiting_on: approverOf(job),
        steps: copy.meetingSteps("blocked_tool"),
        buttons: trackingButtons(c, INFO_SCHEMA),
      });
      return {
        drafts: [
          stateDraft(agent.entity_id, job.job_id, "in_progress", "waiting_input", "tool_not_allowed", `${CALENDAR_TOOL} is not in this agent’s allowed tools.`),
          ...cardDrafts(agent.entity_id, job.job_id, "job.progress", card),
        ],
        run: false,
      };
    }
    return { drafts: [], run: true };
  }

  /**
   * Work handed to a person: Office does nothing itself. It waits for the person to say it is
   * done (Provide info), and the Finished card quotes what they wrote, nothing more.
   */
  function handoffStep(job: JobView, agent: EntityProfile): { drafts: Draft[]; run: boolean } {
    const A = agent.entity_id;
    if (job.slots.notes) {
      const fc = cardCtx(job, agent);
      const finished = buildFinishedCard(fc, {
        result: "completed",
        summary: `Marked done in this chat: “${job.slots.notes.slice(0, 300)}”`,
        artifacts: [],
        buttons: completedButtons(fc),
      });
      return { drafts: cardDrafts(A, job.job_id, "job.completed", finished), run: false };
    }
    const c = cardCtx(job, agent);
    const doer = approverOf(job);
    const card = buildTrackingCard(c, {
      state: "waiting_input",
      status_line: `${doer[0]?.display_name ?? "A person"} is doing this; I am not. Use “Provide info” to mark it done.`,
      waiting_on: doer,
      steps: [
        { key: "take", label: "Taken on", state: "done" },
        { key: "do_work", label: "Done by a person", state: "doing" },
      ],
      buttons: trackingButtons(c, HANDOFF_DONE_SCHEMA),
    });
    return {
      drafts: [stateDraft(A, job.job_id, "in_progress", "waiting_input", "waiting_on_person", "Handed to a person."), ...cardDrafts(A, job.job_id, "job.progress", card)],
      run: false,
    };
  }

  return { approverOf, nextStep };
}
