// @ts-check
import { t } from "../i18n.js";
import { html, useEffect, useState } from "../lib/preact.js";
import { api, ApiError } from "../api.js";
import { navigate } from "../router.js";
import { getState, setState, toast } from "../store.js";
import { ModalFrame } from "./modal-frame.js";

/** @typedef {import('../../contracts/scheduled').TScheduledMessage} Scheduled */

/**
 * My scheduled messages and reminders: the waiting ones with when they go, each to change the
 * time of, or cancel; then the ones sent, cancelled or not sent (with why).
 */
export function ScheduledList() {
  const [items, setItems] = useState(/** @type {Scheduled[] | null} */ (null));
  const load = () =>
    api
      .listScheduled()
      .then((r) => setItems(r.items))
      .catch(() => setItems([]));
  useEffect(() => void load(), []);
  const close = () => setState({ dialog: null });
  const convTitle = (/** @type {string} */ id) =>
    getState().conversations.find((c) => c.conversation_id === id)?.title ?? t("chat.conversation");
  const when = (/** @type {string} */ iso) =>
    new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));

  /** @param {Scheduled} s */
  const cancel = async (s) => {
    try {
      await api.cancelScheduled(s.schedule_id);
      await load();
    } catch (err) {
      toast(err instanceof ApiError ? err.message : t("scheduled.error"));
    }
  };
  /** @param {Scheduled} s */
  const edit = (s) =>
    setState({
      dialog: { type: "schedule", mode: "edit", cid: s.conversation_id, scheduleId: s.schedule_id, text: s.body_text },
    });

  /** @param {Scheduled} s */
  const row = (s) => html`<li key=${s.schedule_id} class="channel-row scheduled-row">
    <span class="person-text">
      <span class="person-name">${s.kind === "reminder" ? t("scheduled.kind_reminder") : t("scheduled.kind_message")} · ${convTitle(s.conversation_id)}</span>
      <span class="scheduled-body">${s.body_text}</span>
      <span class="person-sub">${t(`scheduled.status_${s.status}`, { when: when(s.status === "pending" ? s.send_at : (s.done_at ?? s.send_at)) })}${s.failure ? ` — ${s.failure}` : ""}</span>
    </span>
    ${
      s.status === "pending"
        ? html`<button type="button" class="btn btn-ghost" onClick=${() => edit(s)}>${t("scheduled.change_time")}</button>
          <button type="button" class="btn btn-ghost" onClick=${() => cancel(s)}>${t("scheduled.cancel")}</button>`
        : s.status === "sent" && s.sent_conversation_id
          ? html`<button type="button" class="btn btn-ghost" onClick=${() => {
              close();
              navigate(`/c/${encodeURIComponent(s.sent_conversation_id ?? "")}`);
            }}>${t("channels.open")}</button>`
          : null
    }
  </li>`;

  return html`<${ModalFrame} title=${t("scheduled.list_title")} onClose=${close}>
    <div class="modal-form scheduled-list">
      <ul class="people">
        ${
          items === null
            ? html`<li class="conv-empty">${t("common.loading")}</li>`
            : items.length === 0
              ? html`<li class="conv-empty">${t("scheduled.none")}</li>`
              : items.map(row)
        }
      </ul>
    </div>
  <//>`;
}
