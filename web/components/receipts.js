// @ts-check
import { t } from "../i18n.js";
import { html, useState } from "../lib/preact.js";
import { api, ApiError } from "../api.js";
import { useSavedToggle } from "./saved-toggle.js";
import { getState, seqOf, setState, toast } from "../store.js";

/** @typedef {import('../store.js').State} State */
/** @typedef {import('../types.js').ConversationSummary} ConversationSummary */

/**
 * Whose marks count for my messages: the other members, and of those the people when there are
 * any (an agent that never writes would otherwise keep a group's ticks from ever turning blue).
 * @param {State} s @param {ConversationSummary | undefined} conv
 */
function others(s, conv) {
  const me = s.me?.entity_id;
  const ids = (conv?.participant_entity_ids ?? []).filter((id) => id !== me);
  const people = ids.filter((id) => s.entities[id]?.actor_type !== "agent");
  return people.length ? people : ids;
}

/**
 * How far one of my messages got with everyone else: read by all, delivered to all, or sent.
 * @param {State} s @param {ConversationSummary | undefined} conv @param {string} cursor
 * @returns {'sent' | 'delivered' | 'read'}
 */
export function receiptOf(s, conv, cursor) {
  const seq = seqOf(cursor);
  const ids = others(s, conv);
  if (!ids.length) return "sent";
  const marks = new Map((conv?.receipts ?? []).map((r) => [r.entity_id, r]));
  const reached = (/** @type {'delivered_up_to' | 'read_up_to'} */ k) =>
    ids.every((id) => seqOf(marks.get(id)?.[k]) >= seq);
  return reached("read_up_to") ? "read" : reached("delivered_up_to") ? "delivered" : "sent";
}

/**
 * "Seen by …" under my latest message in a group: the members who read it (those who share it).
 * @param {{ s: State, conv: ConversationSummary | undefined, cursor: string }} props
 */
export function SeenBy({ s, conv, cursor }) {
  const seq = seqOf(cursor);
  const ids = others(s, conv);
  const seen = (conv?.receipts ?? []).filter((r) => ids.includes(r.entity_id) && seqOf(r.read_up_to) >= seq);
  if (!seen.length) return null;
  const text =
    seen.length === ids.length
      ? t("receipts.seen_by_everyone")
      : t("receipts.seen_by", {
          names: seen.map((r) => s.entities[r.entity_id]?.display_name ?? t("receipts.someone")).join(", "),
        });
  return html`<p class="seen-by">${text}</p>`;
}

/**
 * My read receipts: on, the others see when I read their messages; off, only that they reached me.
 * @param {{ s: State }} props
 */
export function ReadReceiptsSetting({ s }) {
  const [error, setError] = useState(/** @type {string | null} */ (null));
  /** @param {boolean} next */
  const toggle = async (next) => {
    setError(null);
    try {
      await api.updateProfile({ read_receipts: next });
      const me = getState().me;
      if (me) setState({ me: { ...me, read_receipts: next } });
      toast(next ? t("receipts.on") : t("receipts.off"));
    } catch (err) {
      setError(err instanceof ApiError ? err.message : t("receipts.save_failed"));
    }
  };
  const box = useSavedToggle(s.me?.read_receipts !== false, toggle);
  return html`<section class="modal-form receipts-setting" aria-labelledby="receipts_title">
    <h3 id="receipts_title" class="small">${t("receipts.setting_title")}</h3>
    <label class="checkbox-row">
      <input type="checkbox" id="my_read_receipts" checked=${box.checked} aria-describedby="my_read_receipts_hint" onChange=${box.onChange} />
      ${t("receipts.setting_label")}
    </label>
    <p id="my_read_receipts_hint" class="muted small">${t("receipts.setting_hint")}</p>
    ${error ? html`<p class="form-error" role="alert">${error}</p>` : null}
  </section>`;
}
