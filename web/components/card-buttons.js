// @ts-check
import { t } from "../i18n.js";
import { html } from "../lib/preact.js";
import { getState } from "../store.js";
import { clickButton } from "../button-flow.js";

/** @typedef {import('../types.js').CardButton} CardButton */

/**
 * When a card's moment has passed, say which choice moved it on, if we can tell.
 * @param {any} card @param {string | undefined} jobState @returns {string | null} button_id
 */
function inferredChoice(card, jobState) {
  const buttons = /** @type {CardButton[]} */ (card.buttons);
  const byType = (/** @type {string} */ t) => buttons.find((b) => b.action.type === t)?.button_id ?? null;
  if (card.card_type === "job.formalize")
    return jobState === "rejected" ? byType("job.reject") : jobState === "cancelled" ? null : byType("job.approve");
  if (card.card_type === "job.tracking" && card.state === "waiting_input" && jobState !== "cancelled")
    return byType("job.provide_input");
  if (jobState === "cancelled") return byType("job.cancel");
  return null;
}

/**
 * The button row, in the order the card gives (the seed's order), styled by `style`. Pending
 * while a click is in flight, ✓ once accepted; on a card whose moment has passed every button
 * is shown as done and cannot be clicked ("Ask in chat" stays: it only fills the composer).
 * @param {{ card: any, buttons: CardButton[], live: boolean, jobState?: string, acted?: Set<string> }} props
 */
export function CardButtons({ card, buttons, live, jobState, acted }) {
  const statuses = getState().buttons;
  const clicked = buttons.find((b) => acted?.has(`${card.card_id}:${b.button_id}`))?.button_id;
  const inferred = live ? null : (clicked ?? inferredChoice(card, jobState));
  // The server's reason for a refused click, said on the card itself.
  const refusal = buttons
    .map((b) => statuses[`${card.card_id}:${b.button_id}`])
    .find((st) => st?.status === "error" && st.refused)?.message;
  return html`<div class="card-buttons" role="group" aria-label=${t("buttons.group")}>
    ${buttons.map((b) => {
      const st = statuses[`${card.card_id}:${b.button_id}`];
      const isAsk = b.action.type === "chat.ask";
      const done =
        st?.status === "done" ||
        (!isAsk && acted?.has(`${card.card_id}:${b.button_id}`)) ||
        (!live && inferred === b.button_id);
      const disabled = !isAsk && (!live || st?.status === "pending" || done);
      const cls = `btn btn-${b.style ?? "secondary"}${done ? " btn-done" : ""}${st?.status === "pending" ? " btn-pending" : ""}`;
      // aria-disabled, not disabled: a pending or done button keeps focus (see web/focus.js).
      return html`<button key=${b.button_id} type="button" class=${cls} aria-disabled=${disabled ? "true" : undefined}
        data-action=${b.action.type} title=${st?.status === "error" ? t("buttons.send_error", { reason: st.message ?? "" }) : undefined}
        onClick=${(/** @type {Event} */ e) => {
          e.stopPropagation();
          if (disabled) return;
          void clickButton(card, b);
        }}>
        ${st?.status === "pending" ? html`<span class="spinner spinner-btn" aria-hidden="true"></span>` : null}
        ${done ? "✓ " : null}${b.label}
      </button>`;
    })}
    ${!live ? html`<span class="card-moved">${t("buttons.moved")}</span>` : null}
    ${refusal ? html`<p class="card-refusal" role="alert">${refusal}</p>` : null}
  </div>`;
}
