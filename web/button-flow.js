// @ts-check
import { t } from "./i18n.js";
// What a click on a card or drawer button does, per the seed: "Ask in chat" fills the
// composer; requires_input opens the input modal (its confirm text as the heading); confirm
// asks first; everything else is sent at once with an optimistic bubble.
import { prefillComposer, runAction } from "./actions.js";
import { ApiError } from "./api.js";
import { getState, setState, toast } from "./store.js";
import { followJob } from "./focus.js";

/** @typedef {import('./types.js').CardButton} CardButton */
/** @typedef {import('./types.js').InputSchema} InputSchema */

/** @param {{ title: string, body?: string, okLabel?: string, danger?: boolean }} d @returns {Promise<boolean>} */
export function confirmDialog(d) {
  return new Promise((resolve) => setState({ dialog: { type: "confirm", ...d, resolve } }));
}

const FALLBACK_KEY = /** @type {Record<string, string>} */ ({
  "job.request_changes": "changes_request",
  "job.dispute": "dispute_reason",
  "job.provide_input": "info",
});

/** A single multiline "Details" when the button needs input but brings no schema. @param {CardButton} b @returns {InputSchema} */
function schemaFor(b) {
  const s = /** @type {any} */ (b.action).input_schema;
  if (s && Array.isArray(s.fields) && s.fields.length) return s;
  return {
    fields: [
      {
        key: FALLBACK_KEY[b.action.type] ?? "details",
        label: t("card.input_details"),
        type: "multiline",
        required: true,
      },
    ],
  };
}

/**
 * @param {{ card_id: string, job_id: string, conversation_id?: string, card_type?: string, title?: string }} card
 * @param {CardButton} b
 */
export async function clickButton(card, b) {
  const a = b.action;
  if (a.type === "chat.ask") {
    const cid = card.conversation_id ?? getState().route.conversationId;
    if (cid) prefillComposer(cid, a.prompt_text);
    return;
  }
  // Focus follows the job to its next card, whichever way this click goes on.
  followJob(card.job_id, card.card_id);
  const needsInput = b.requires_input || ("input_schema" in a && !!a.input_schema);
  if (needsInput) {
    setState({
      dialog: {
        type: "input",
        title: b.confirm?.title ?? b.label,
        body: b.confirm?.body,
        schema: schemaFor(b),
        submitLabel: b.label,
        danger: b.style === "danger",
        onSubmit: (values) => runAction(card, b, values),
      },
    });
    return;
  }
  if (
    b.confirm &&
    !(await confirmDialog({
      title: b.confirm.title,
      body: b.confirm.body,
      okLabel: b.label,
      danger: b.style === "danger",
    }))
  )
    return;
  try {
    await runAction(card, b);
  } catch (e) {
    toast(
      e instanceof ApiError ? t("buttons.action_failed", { action: b.label, reason: e.message }) : t("buttons.offline"),
    );
  }
}
