// @ts-check
import { html, useEffect, useState } from "../lib/preact.js";
import { api, ApiError } from "../api.js";
import { t } from "../i18n.js";
import { navigate } from "../router.js";
import { getState, toast } from "../store.js";
import { ModalFrame } from "./modal-frame.js";

/**
 * "Hand over" and "Why?" on a job card. Hand over opens a picker of the people in the job's
 * conversation (not its owner); Why? shows the job's causal chain as the server reads it from
 * the ledger, each line a link into the Job Drawer. Hand over is offered while the server says the
 * job is open.
 * @param {{ jobId: string, title: string, ownerId?: string, jobOpen?: boolean }} props
 */
export function CardPeopleActions({ jobId, title, ownerId, jobOpen }) {
  const [open, setOpen] = useState(/** @type {null | 'hand-over' | 'why'} */ (null));
  const close = () => setOpen(null);
  return html`<div class="card-people-actions" onClick=${(/** @type {Event} */ e) => e.stopPropagation()}>
    ${
      jobOpen
        ? html`<button type="button" class="btn btn-small btn-secondary" aria-haspopup="dialog" onClick=${() => setOpen("hand-over")}>${t("people.card.handOver")}</button>`
        : null
    }
    <button type="button" class="btn btn-small btn-ghost" aria-haspopup="dialog" onClick=${() => setOpen("why")}>${t("people.card.why")}</button>
    ${open === "hand-over" ? html`<${HandOverDialog} jobId=${jobId} title=${title} ownerId=${ownerId} onClose=${close} />` : null}
    ${open === "why" ? html`<${WhyDialog} jobId=${jobId} title=${title} onClose=${close} />` : null}
  </div>`;
}

/** @param {{ jobId: string, title: string, ownerId?: string, onClose: () => void }} props */
function HandOverDialog({ jobId, title, ownerId, onClose }) {
  const s = getState();
  const cid = s.jobs[jobId]?.conversation_id ?? s.route.conversationId;
  const members = s.conversations.find((c) => c.conversation_id === cid)?.participant_entity_ids ?? [];
  const people = members
    .map((id) => s.entities[id])
    .filter((e) => e && e.actor_type === "human" && e.entity_id !== ownerId && e.entity_id !== s.me?.entity_id)
    .concat(ownerId !== s.me?.entity_id && s.me ? [s.entities[s.me.entity_id]] : [])
    .filter((e, i, all) => e && all.findIndex((x) => x?.entity_id === e.entity_id) === i);
  const [to, setTo] = useState("");
  const [note, setNote] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(/** @type {string | null} */ (null));
  const submit = async () => {
    if (!to) return;
    setBusy(true);
    setError(null);
    try {
      await api.handOver(jobId, to, note.trim() || undefined);
      toast(t("people.card.handedOver", { name: s.entities[to]?.display_name ?? to }));
      onClose();
    } catch (err) {
      setError(err instanceof ApiError ? err.message : t("people.card.handOverFailed"));
      setBusy(false);
    }
  };
  return html`<${ModalFrame} title=${t("people.card.handOverTitle", { title })} onClose=${onClose}>
    ${
      people.length
        ? html`<form class="modal-form" onSubmit=${(/** @type {Event} */ e) => {
            e.preventDefault();
            void submit();
          }}>
          <div class="form-field">
            <label for="card_hand_over_to">${t("people.card.handOverTo")}</label>
            <select id="card_hand_over_to" required value=${to} onChange=${(/** @type {any} */ e) => setTo(e.currentTarget.value)}>
              <option value="">${t("people.card.choosePerson")}</option>
              ${people.map((p) => html`<option key=${p.entity_id} value=${p.entity_id}>${p.display_name}</option>`)}
            </select>
          </div>
          <div class="form-field">
            <label for="card_hand_over_note">${t("people.card.note")}</label>
            <input id="card_hand_over_note" value=${note} onInput=${(/** @type {any} */ e) => setNote(e.currentTarget.value)} />
          </div>
          ${error ? html`<p class="form-error" role="alert">${error}</p>` : null}
          <div class="modal-actions">
            <button type="button" class="btn btn-ghost" onClick=${onClose}>${t("people.card.cancel")}</button>
            <button type="submit" class="btn btn-primary" disabled=${busy || !to}>${t("people.card.handOverSubmit")}</button>
          </div>
        </form>`
        : html`<p>${t("people.card.noPeople")}</p>`
    }
  <//>`;
}

/** @param {{ jobId: string, title: string, onClose: () => void }} props */
function WhyDialog({ jobId, title, onClose }) {
  const [why, setWhy] = useState(
    /** @type {null | { lines: Array<{ event_id: string, text: string, url: string }> }} */ (null),
  );
  const [error, setError] = useState(/** @type {string | null} */ (null));
  useEffect(() => {
    api.why(jobId).then(setWhy, (err) => setError(err instanceof ApiError ? err.message : t("people.card.whyFailed")));
  }, [jobId]);
  /** @param {MouseEvent} e @param {string} url */
  const follow = (e, url) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey || !url.startsWith("/")) return;
    e.preventDefault();
    onClose();
    navigate(url);
  };
  return html`<${ModalFrame} title=${t("people.card.whyTitle", { title })} onClose=${onClose} wide=${true}>
    ${error ? html`<p class="form-error" role="alert">${error}</p>` : null}
    ${!why && !error ? html`<p class="muted" role="status">${t("people.card.whyLoading")}</p>` : null}
    ${
      why
        ? why.lines.length
          ? html`<ol class="why-lines" aria-label=${t("people.card.whyList")}>
              ${why.lines.map((l) => html`<li key=${l.event_id}><a href=${l.url} onClick=${(/** @type {MouseEvent} */ e) => follow(e, l.url)}>${l.text}</a></li>`)}
            </ol>`
          : html`<p>${t("people.card.whyEmpty")}</p>`
        : null
    }
    <div class="modal-actions">
      <a class="btn btn-secondary" href=${`/jobs/${encodeURIComponent(jobId)}`} onClick=${(/** @type {MouseEvent} */ e) => follow(e, `/jobs/${encodeURIComponent(jobId)}`)}>${t("people.card.openDrawer")}</a>
    </div>
  <//>`;
}
