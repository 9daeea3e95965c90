import { z } from "zod";
import { fieldPath, isPresent } from "../paths.js";
import type { RuleType } from "../rule.js";

const ZSpec = z.strictObject({
  type: z.literal("require_button_provenance"),
  card_id_field: z.string(),
  button_id_field: z.string(),
  action_type_field: z.string(),
  /** The card must have been offered in a card message (not only embedded in a job event). */
  must_match_prior_card_message: z.boolean(),
  prior_event_type: z.literal("message.sent"),
  prior_card_kind_path: z.literal("payload.kind"),
  prior_card_payload_path: z.literal("payload.card"),
  /** Where the event names its job (checked against the card's job); default `job_id`. */
  job_id_field: z.string().optional(),
  /** Where the event names the action's job, if anywhere (must be the card's job). */
  action_job_id_field: z.string().optional(),
  /** Actor types whose events must carry a click; others are checked only when they carry one. */
  required_for_actor_types: z.array(z.string()).optional(),
  /** Per event type, the button action types that can cause it (an approval needs an Approve button). */
  expected_action_types: z.record(z.string(), z.array(z.string()).min(1)).optional(),
  note: z.string().optional(),
  event_types: z.array(z.string()).optional(),
});
type Spec = z.infer<typeof ZSpec>;

/**
 * "No fake buttons": a click-caused event must name a card the ledger saw offered in the same
 * tenant, conversation and job, a button on that card, and the action type that button declares.
 */
export const requireButtonProvenance: RuleType<Spec> = {
  schema: ZSpec,
  shape: false,
  compile(spec) {
    const cardF = fieldPath(spec.card_id_field);
    const buttonF = fieldPath(spec.button_id_field);
    const typeF = fieldPath(spec.action_type_field);
    const jobF = fieldPath(spec.job_id_field ?? "job_id");
    const actionJobF = spec.action_job_id_field ? fieldPath(spec.action_job_id_field) : undefined;
    const required = new Set(spec.required_for_actor_types ?? []);
    const expected = spec.expected_action_types ?? {};
    const names = `${cardF.path}, ${buttonF.path} and ${typeF.path}`;
    return (ctx) => {
      const cardId = cardF.get(ctx.event);
      const buttonId = buttonF.get(ctx.event);
      const type = typeF.get(ctx.event);
      if (!isPresent(cardId) && !isPresent(buttonId) && !isPresent(type)) {
        return required.has(String(ctx.actorType))
          ? `a ${ctx.actorType} ${ctx.eventType} must carry the click's ${names}`
          : null;
      }
      if (typeof cardId !== "string" || typeof buttonId !== "string" || typeof type !== "string") {
        return `provenance needs all of ${names}`;
      }
      const card = ctx.fold.card(ctx.tenantId, cardId);
      if (!card) return `${cardF.path} names no card offered in this tenant`;
      if (spec.must_match_prior_card_message && !card.messaged)
        return `${cardF.path} names a card never offered in a card message`;
      if (card.conversation_id !== ctx.event.conversation_id)
        return `${cardF.path} names a card of another conversation`;
      const jobId = jobF.get(ctx.event);
      if (isPresent(jobId) && jobId !== card.job_id) return `${cardF.path} names a card of another job`;
      const actionJob = actionJobF?.get(ctx.event);
      if (isPresent(actionJob) && actionJob !== card.job_id) return `${actionJobF?.path} is not the job of the card`;
      const declared = card.buttons.get(buttonId);
      if (declared === undefined) return `${buttonF.path} is not a button of that card`;
      if (declared !== type) return `${typeF.path} does not match the action the button declares`;
      const want = expected[ctx.eventType];
      if (want && !want.includes(type)) return `a ${ctx.eventType} cannot be caused by a ${type} button`;
      return null;
    };
  },
};
