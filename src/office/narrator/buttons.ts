import type { TCardButton, TFinishedCard, TInputSchema } from "../../../contracts/cards.js";
import { type Locale, words } from "../speak.js";

/**
 * The seed's default button sets, copy and order, and the next actions a finished card offers:
 * each built from the card's context in the job's language. Pure: ids and time come in.
 */

export interface CardContext {
  card_id: string;
  job_id: string;
  tenant_id: string;
  conversation_id: string;
  now: string;
  title: string;
  owner: { entity_id: string; display_name: string; actor_type: "human" | "agent" };
  author: { entity_id: string; display_name: string; actor_type: "human" | "agent" | "system" };
  /** The job's language; English when absent. */
  locale?: Locale;
}

/** The job's language's words. */
export const say = (c: CardContext) => words(c.locale);

/** Button ids are unique per card instance and say what they are, for readable provenance. */
const bid = (c: CardContext, name: string) => `btn_${name}_${c.card_id.replace(/^card_/, "")}`.slice(0, 128);

const changesSchema = (c: CardContext): TInputSchema => ({
  fields: [
    {
      key: "changes_request",
      label: say(c)("office.card.changes.label"),
      type: "multiline",
      required: true,
      placeholder: say(c)("office.card.changes.placeholder"),
    },
  ],
});
/** The free-text Provide info form in the job's language. */
const infoSchema = (locale?: Locale): TInputSchema => ({
  fields: [{ key: "info", label: words(locale)("office.card.info.label"), type: "multiline", required: true }],
});

export function askButton(c: CardContext, prompt: string, n = ""): TCardButton {
  return {
    button_id: bid(c, `askchat${n}`),
    label: say(c)("office.card.button.ask"),
    style: "secondary",
    action: { type: "chat.ask", job_id: c.job_id, prompt_text: prompt },
  };
}

export function formalizeButtons(c: CardContext): TCardButton[] {
  return [
    {
      button_id: bid(c, "approve"),
      label: say(c)("office.card.button.approve"),
      style: "primary",
      action: { type: "job.approve", job_id: c.job_id },
    },
    {
      button_id: bid(c, "reject"),
      label: say(c)("office.card.button.reject"),
      style: "danger",
      confirm: { title: say(c)("office.card.confirm.reject.title"), body: say(c)("office.card.confirm.reject.body") },
      action: { type: "job.reject", job_id: c.job_id },
    },
    {
      button_id: bid(c, "changes"),
      label: say(c)("office.card.button.changes"),
      style: "secondary",
      requires_input: true,
      action: { type: "job.request_changes", job_id: c.job_id, input_schema: changesSchema(c) },
    },
    askButton(c, say(c)("office.card.ask.proposal")),
  ];
}

const ackButton = (c: CardContext): TCardButton => ({
  button_id: bid(c, "ack"),
  label: say(c)("office.card.button.ack"),
  style: "primary",
  action: { type: "job.ack", job_id: c.job_id },
});
const disputeButton = (c: CardContext, body = say(c)("office.card.confirm.dispute.body")): TCardButton => ({
  button_id: bid(c, "dispute"),
  label: say(c)("office.card.button.dispute"),
  style: "danger",
  requires_input: true,
  confirm: { title: say(c)("office.card.confirm.dispute.title"), body },
  action: { type: "job.dispute", job_id: c.job_id },
});
const cancelButton = (c: CardContext): TCardButton => ({
  button_id: bid(c, "cancel"),
  label: say(c)("office.card.button.cancel"),
  style: "danger",
  confirm: { title: say(c)("office.card.confirm.cancel.title"), body: say(c)("office.card.confirm.cancel.body") },
  action: { type: "job.cancel", job_id: c.job_id },
});

/** Got it / Provide info / Dispute / Cancel / Ask in chat. */
export function trackingButtons(c: CardContext, inputSchema: TInputSchema = infoSchema(c.locale)): TCardButton[] {
  return [
    ackButton(c),
    {
      button_id: bid(c, "input"),
      label: say(c)("office.card.button.input"),
      style: "secondary",
      requires_input: true,
      action: { type: "job.provide_input", job_id: c.job_id, input_schema: inputSchema },
    },
    disputeButton(c),
    cancelButton(c),
    askButton(c, say(c)("office.card.ask.assume", { title: c.title })),
  ];
}

/** While work runs (the Job Drawer's in_progress set): Got it / Dispute / Cancel / Ask in chat. */
export function progressButtons(c: CardContext): TCardButton[] {
  return [
    ackButton(c),
    disputeButton(c),
    cancelButton(c),
    askButton(c, say(c)("office.card.ask.assume", { title: c.title })),
  ];
}

/** A retryable failure: Got it / Retry now / Switch to X / Dispute / Cancel. */
export function retryButtons(c: CardContext, switchTo: { value: string; label: string }): TCardButton[] {
  return [
    ackButton(c),
    {
      button_id: bid(c, "retry_now"),
      label: say(c)("office.card.button.retryNow"),
      style: "secondary",
      action: { type: "job.retry", job_id: c.job_id },
    },
    {
      button_id: bid(c, "switch_tool"),
      label: say(c)("office.card.button.switchTo", { label: switchTo.label }),
      style: "secondary",
      action: { type: "job.switch_tool", job_id: c.job_id, to: switchTo.value },
    },
    disputeButton(c),
    cancelButton(c),
  ];
}

/** The provider needs a connection: Connect calendar / Use X instead / Cancel / Ask in chat. */
export function authButtons(c: CardContext, switchTo: { value: string; label: string }): TCardButton[] {
  return [
    {
      button_id: bid(c, "connect"),
      label: say(c)("office.card.button.connect"),
      style: "primary",
      confirm: { title: say(c)("office.card.confirm.connect.title"), body: say(c)("office.card.confirm.connect.body") },
      action: { type: "job.retry", job_id: c.job_id },
    },
    {
      button_id: bid(c, "switch_tool"),
      label: say(c)("office.card.button.useInstead", { label: switchTo.label }),
      style: "secondary",
      action: { type: "job.switch_tool", job_id: c.job_id, to: switchTo.value },
    },
    cancelButton(c),
    askButton(c, say(c)("office.card.ask.connect")),
  ];
}

/** A booked meeting that was emailed (and not cancelled) can be moved or cancelled from its finished card. */
export function completedButtons(c: CardContext, opts: { changeable?: boolean } = {}): TCardButton[] {
  return [
    {
      button_id: bid(c, "accept"),
      label: say(c)("office.card.button.accept"),
      style: "primary",
      action: { type: "job.ack", job_id: c.job_id },
    },
    disputeButton(c, say(c)("office.card.confirm.dispute.outcome")),
    {
      button_id: bid(c, "followup"),
      label: say(c)("office.card.button.followUp"),
      style: "secondary",
      action: { type: "job.follow_up", job_id: c.job_id, prompt_text: say(c)("office.card.followUp.prompt") },
    },
    ...(opts.changeable ? meetingChangeButtons(c) : []),
    askButton(c, say(c)("office.card.ask.any", { title: c.title })),
  ];
}

/** An invitee proposed another time: Accept new time (a move to it) / Keep original (a DECLINECOUNTER), each proposed for approval. */
export function counterButtons(c: CardContext, replyEventId: string): TCardButton[] {
  const t = say(c);
  return [
    {
      button_id: bid(c, "accept_new_time"),
      label: t("office.change.button.acceptNew"),
      style: "primary",
      confirm: { title: t("office.change.confirm.acceptNew.title"), body: t("office.change.confirm.acceptNew.body") },
      action: { type: "job.follow_up", job_id: c.job_id, change: "move", counter: replyEventId },
    },
    {
      button_id: bid(c, "keep_original"),
      label: t("office.change.button.keep"),
      style: "secondary",
      confirm: { title: t("office.change.confirm.keep.title"), body: t("office.change.confirm.keep.body") },
      action: { type: "job.follow_up", job_id: c.job_id, change: "keep", counter: replyEventId },
    },
  ];
}

/** Move… (asks for the new time) and Cancel meeting (asks to confirm): each proposes a follow-up job for approval. */
function meetingChangeButtons(c: CardContext): TCardButton[] {
  const t = say(c);
  return [
    {
      button_id: bid(c, "move"),
      label: t("office.change.button.move"),
      style: "secondary",
      requires_input: true,
      confirm: { title: t("office.change.confirm.move.title"), body: t("office.change.confirm.move.body") },
      action: {
        type: "job.follow_up",
        job_id: c.job_id,
        change: "move",
        input_schema: {
          fields: [
            {
              key: "time_window",
              label: t("office.change.form.time"),
              type: "string",
              required: true,
              placeholder: t("office.change.form.placeholder"),
            },
          ],
        },
      },
    },
    {
      button_id: bid(c, "cancel_meeting"),
      label: t("office.change.button.cancel"),
      style: "danger",
      confirm: { title: t("office.change.confirm.cancel.title"), body: t("office.change.confirm.cancel.body") },
      action: { type: "job.follow_up", job_id: c.job_id, change: "cancel" },
    },
  ];
}

/** The failed-state set: Try later / Switch tool / Cancel / Ask in chat. */
export function failedButtons(c: CardContext, switchTo: { value: string; label: string }): TCardButton[] {
  return [
    {
      button_id: bid(c, "try_later"),
      label: say(c)("office.card.button.tryLater"),
      style: "primary",
      action: { type: "job.retry", job_id: c.job_id },
    },
    {
      button_id: bid(c, "switch_tool"),
      label: say(c)("office.card.button.switchTool"),
      style: "secondary",
      action: { type: "job.switch_tool", job_id: c.job_id, to: switchTo.value },
    },
    {
      button_id: bid(c, "cancel"),
      label: say(c)("office.card.button.cancel"),
      style: "danger",
      confirm: { title: say(c)("office.card.confirm.close.title"), body: say(c)("office.card.confirm.close.body") },
      action: { type: "job.cancel", job_id: c.job_id },
    },
    askButton(c, say(c)("office.card.ask.failed", { title: c.title })),
  ];
}

/** A failed tool call a person may call again: Try again. */
export const tryAgainButton = (c: CardContext, t = say(c)): TCardButton => ({
  button_id: bid(c, "tryagain"),
  label: t("office.mcp.tryAgain"),
  style: "primary",
  action: { type: "job.retry", job_id: c.job_id },
});

/** Ask in chat about the job, whatever its state. */
export const askAboutButton = (c: CardContext, t = say(c)): TCardButton =>
  askButton(c, t("office.card.ask.any", { title: c.title }));

/** After the mail server refused the invite: Resend / Cancel / Ask in chat. */
export function resendButtons(c: CardContext): TCardButton[] {
  const t = say(c);
  return [
    {
      button_id: bid(c, "resend"),
      label: t("office.mail.button.resend"),
      style: "primary",
      action: { type: "job.retry", job_id: c.job_id },
    },
    {
      button_id: bid(c, "cancel"),
      label: t("office.card.button.cancel"),
      style: "danger",
      confirm: { title: t("office.card.confirm.cancel.title"), body: t("office.mail.confirm.cancel.body") },
      action: { type: "job.cancel", job_id: c.job_id },
    },
    askButton(c, t("office.mail.ask.refused")),
  ];
}

/** A booked meeting's next action: a follow-up. */
export const followUpNext = (c: CardContext): NonNullable<TFinishedCard["next_actions"]> => [
  {
    label: say(c)("office.outcome.followUp.label"),
    suggested_action: {
      type: "job.follow_up",
      job_id: c.job_id,
      prompt_text: say(c)("office.outcome.followUp.prompt"),
    },
  },
];

/** A job that failed for good: Try again later. */
export const tryLaterNext = (c: CardContext): NonNullable<TFinishedCard["next_actions"]> => [
  { label: say(c)("office.outcome.tryAgainLater"), suggested_action: { type: "job.retry", job_id: c.job_id } },
];
