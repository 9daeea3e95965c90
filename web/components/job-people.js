// @ts-check
import { t } from "../i18n.js";
import { html, useState } from "../lib/preact.js";
import { api, ApiError } from "../api.js";
import { toast } from "../store.js";

/** @typedef {import('../store.js').State} State */
/** @typedef {import('../types.js').JobDrawer} JobDrawer */

/**
 * "Hand over to ‹person›" and "Why?" in the Job Drawer. The people offered are the workspace's
 * people; the server accepts only members of the job's conversation and says so otherwise. The
 * Why answer is the server's reading of the ledger, each line a link to its event below.
 * @param {{ s: State, job: JobDrawer }} props
 */
export function JobPeopleSection({ s, job }) {
  const [to, setTo] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(/** @type {string | null} */ (null));
  const [why, setWhy] = useState(
    /** @type {null | { lines: Array<{ event_id: string, text: string, url: string }> }} */ (null),
  );
  const people = Object.values(s.entities).filter(
    (e) => e.actor_type === "human" && e.entity_id !== job.owner.entity_id,
  );
  const open = job.open === true;

  const handOver = async () => {
    if (!to) return;
    setBusy(true);
    setError(null);
    try {
      await api.handOver(job.job_id, to);
      toast(t("people.handed_over", { name: s.entities[to]?.display_name ?? t("people.them") }));
      setTo("");
    } catch (err) {
      setError(err instanceof ApiError ? err.message : t("people.hand_over_error"));
    }
    setBusy(false);
  };
  const explain = async () => {
    setError(null);
    try {
      setWhy(await api.why(job.job_id));
    } catch (err) {
      setError(err instanceof ApiError ? err.message : t("people.why_error"));
    }
  };

  return html`<section class="drawer-section job-people" aria-label=${t("people.title")}>
    <h3>${t("people.title")}</h3>
    ${
      open && people.length
        ? html`<form class="hand-over" onSubmit=${(/** @type {Event} */ e) => {
            e.preventDefault();
            void handOver();
          }}>
          <label for="hand_over_to">${t("people.hand_over_to")}</label>
          <select id="hand_over_to" value=${to} onChange=${(/** @type {any} */ e) => setTo(e.currentTarget.value)}>
            <option value="">${t("people.choose")}</option>
            ${people.map((p) => html`<option key=${p.entity_id} value=${p.entity_id}>${p.display_name}</option>`)}
          </select>
          <button type="submit" class="btn btn-secondary" disabled=${busy || !to}>${t("people.hand_over")}</button>
        </form>`
        : null
    }
    <button type="button" class="btn btn-ghost" onClick=${() => void explain()}>${t("people.why")}</button>
    ${error ? html`<p class="form-error" role="alert">${error}</p>` : null}
    ${
      why
        ? html`<ol class="why-lines" aria-label=${t("people.why_list")}>
          ${why.lines.map((l) => html`<li key=${l.event_id}><a href=${l.url}>${l.text}</a></li>`)}
        </ol>`
        : null
    }
  </section>`;
}
