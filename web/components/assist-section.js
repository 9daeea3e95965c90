// @ts-check
import { t } from "../i18n.js";
import { html, useEffect, useState } from "../lib/preact.js";
import { confirmDialog } from "../button-flow.js";
import { applySuggestion, loadAssist } from "../thread-actions.js";

/** @typedef {import('../types.js').SuggestionView} SuggestionView */

/**
 * The Job Drawer's Assist: validated suggestions with Apply / Dismiss. Nothing applies without
 * the click, and one that needs confirmation (a past date, a high priority) asks first; Dismiss
 * only hides it here. Each says what Apply will do: change the job's card, or post a proposal
 * in the chat.
 * @param {{ jobId: string }} props
 */
export function AssistSection({ jobId }) {
  const [items, setItems] = useState(/** @type {SuggestionView[] | null} */ (null));
  const [busy, setBusy] = useState("");
  useEffect(() => {
    setItems(null);
    let live = true;
    void loadAssist(jobId).then((r) => live && setItems(r?.suggestions ?? []));
    return () => {
      live = false;
    };
  }, [jobId]);
  /** @param {SuggestionView} s */
  const drop = (s) => setItems((list) => (list ?? []).filter((x) => x.suggestion_id !== s.suggestion_id));
  return html`<section class="drawer-section" aria-label=${t("assist.title")}>
    <h3>${t("assist.title")}</h3>
    ${items === null ? html`<p class="muted small">${t("assist.looking")}</p>` : null}
    ${items?.length === 0 ? html`<p class="muted small">${t("assist.none")}</p>` : null}
    <ul class="assist-list">${(items ?? []).map(
      (s) => html`<li key=${s.suggestion_id} class="assist-item" data-type=${s.type}>
      <div><strong>${s.preview}</strong>${s.requires_confirmation ? html` <span class="badge-assumed">${t("assist.confirm_badge")}</span>` : null}</div>
      <div class="muted small">${s.rationale}</div>
      <div class="muted small assist-effect">${t(s.applies_as === "card" ? "assist.effect.card" : "assist.effect.message")}</div>
      <div class="card-buttons">
        <button type="button" class="btn btn-small btn-primary" disabled=${busy === s.suggestion_id}
          onClick=${async () => {
            if (
              s.requires_confirmation &&
              !(await confirmDialog({ title: s.preview, body: t("assist.confirm_body"), okLabel: t("assist.apply") }))
            )
              return;
            setBusy(s.suggestion_id);
            if (await applySuggestion(jobId, s)) drop(s);
            setBusy("");
          }}>${t("assist.apply")}</button>
        <button type="button" class="btn btn-small btn-ghost" onClick=${() => drop(s)}>${t("assist.dismiss")}</button>
      </div>
    </li>`,
    )}</ul>
  </section>`;
}

/**
 * What the model proposed for this job and what validation did with it (from the redacted
 * packets the server keeps).
 * @param {{ proposals: Array<{ packet_id: string, turn: number, created_at: string, outcome: string | null, proposed: string[], dropped: unknown[] }> }} props
 */
export function ModelProposals({ proposals }) {
  if (!proposals.length) return null;
  return html`<section class="drawer-section" aria-label=${t("proposals.title")}>
    <h3>${t("proposals.title")}</h3>
    <ul class="proposal-list">${proposals.map(
      (p) => html`<li key=${p.packet_id}>
      <span>${t("proposals.turn", { turn: p.turn, proposed: p.proposed.join(", ") || t("proposals.nothing") })}</span> → <strong>${p.outcome ?? "—"}</strong>
      ${p.dropped.length ? html`<ul class="muted small">${p.dropped.map((d, i) => html`<li key=${i}>${t("proposals.dropped", { reason: String(/** @type {any} */ (d)?.reason ?? "") })}</li>`)}</ul>` : null}
    </li>`,
    )}</ul>
  </section>`;
}
