// @ts-check
import { t } from "../i18n.js";
import { LIMITS } from "../lib/facts.js";
import { html, useState } from "../lib/preact.js";
import { api, ApiError } from "../api.js";
import { useSavedToggle } from "./saved-toggle.js";
import { getState, setEntities, toast } from "../store.js";
import { dateTime } from "../format.js";

/** @typedef {import('../store.js').State} State */
/** @typedef {import('../types.js').Entity} Entity */

const HOUR = 3_600_000;
/** How long a status or do-not-disturb lasts, as offered. */
const SPANS = /** @type {const} */ (["none", "1h", "4h", "today", "week"]);

/** @param {typeof SPANS[number]} span @returns {string | undefined} */
function untilOf(span) {
  const now = Date.now();
  if (span === "1h") return new Date(now + HOUR).toISOString();
  if (span === "4h") return new Date(now + 4 * HOUR).toISOString();
  if (span === "week") return new Date(now + 7 * 24 * HOUR).toISOString();
  if (span === "today") {
    const end = new Date();
    end.setHours(23, 59, 59, 0);
    return end.toISOString();
  }
  return undefined;
}

/** A status or do-not-disturb still in force by this page's clock. @param {string | undefined} until */
function stillOn(until) {
  return !until || Date.parse(until) > Date.now();
}

/**
 * What a person's header shows after their presence: their status (while it lasts) and "Do not
 * disturb" (while it lasts).
 * @param {{ who?: Entity }} props
 */
export function PersonStatus({ who }) {
  const status = who?.status_text && stillOn(who.status_until) ? who.status_text : null;
  const dnd = who?.dnd_until && stillOn(who.dnd_until);
  if (!status && !dnd) return null;
  return html`<span class="person-status">${status}${status && dnd ? " · " : null}${dnd ? t("status.dnd_on") : null}</span>`;
}

/**
 * My status (words everyone sees, for a while) and do not disturb (no notifications meanwhile).
 * @param {{ s: State }} props
 */
export function StatusSetting({ s }) {
  const me = s.me ? s.entities[s.me.entity_id] : undefined;
  const current = me?.status_text && stillOn(me.status_until) ? me.status_text : "";
  const [text, setText] = useState(current);
  const [span, setSpan] = useState(/** @type {typeof SPANS[number]} */ ("none"));
  const [error, setError] = useState(/** @type {string | null} */ (null));
  const dndOn = !!me?.dnd_until && stillOn(me.dnd_until);

  /** @param {Record<string, unknown>} body @param {string} done */
  const save = async (body, done) => {
    setError(null);
    try {
      const r = await api.updateProfile(/** @type {any} */ (body));
      const id = getState().me?.entity_id;
      if (id)
        setEntities([
          {
            entity_id: id,
            display_name: r.display_name,
            status_text: r.status_text,
            status_until: r.status_until,
            dnd_until: r.dnd_until,
          },
        ]);
      toast(done);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : t("status.save_failed"));
    }
  };
  const until = untilOf(span);
  const dndBox = useSavedToggle(dndOn, (on) =>
    save({ dnd_until: on ? (until ?? untilOf("4h")) : null }, on ? t("status.dnd_saved") : t("status.dnd_ended")),
  );
  return html`<section class="modal-form status-setting" aria-labelledby="status_title">
    <h3 id="status_title" class="small">${t("status.title")}</h3>
    <label class="form-field" for="my_status">${t("status.label")}</label>
    <input id="my_status" type="text" maxLength=${LIMITS.statusChars} value=${text} onInput=${(/** @type {any} */ e) => setText(e.currentTarget.value)} />
    <label class="form-field" for="my_status_until">${t("status.until")}</label>
    <select id="my_status_until" value=${span} onChange=${(/** @type {any} */ e) => setSpan(e.currentTarget.value)}>
      ${SPANS.map((k) => html`<option key=${k} value=${k}>${t(`status.span.${k}`)}</option>`)}
    </select>
    <div class="row-buttons">
      <button type="button" class="btn btn-small" disabled=${!text.trim()}
        onClick=${() => void save({ status: { text: text.trim(), ...(until ? { until } : {}) } }, t("status.saved"))}>${t("status.set")}</button>
      ${current ? html`<button type="button" class="btn btn-small" onClick=${() => (setText(""), void save({ status: null }, t("status.cleared")))}>${t("status.clear")}</button>` : null}
    </div>
    <label class="checkbox-row">
      <input type="checkbox" id="my_dnd" checked=${dndBox.checked} aria-describedby="my_dnd_hint" onChange=${dndBox.onChange} />
      ${t("status.dnd_label")}
    </label>
    <p id="my_dnd_hint" class="muted small">${dndOn && me?.dnd_until ? t("status.dnd_until", { when: dateTime(me.dnd_until) }) : t("status.dnd_hint")}</p>
    ${error ? html`<p class="form-error" role="alert">${error}</p>` : null}
  </section>`;
}
