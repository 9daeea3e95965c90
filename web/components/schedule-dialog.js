// @ts-check
import { t } from "../i18n.js";
import { html, useState } from "../lib/preact.js";
import { api, ApiError } from "../api.js";
import { getState, setState, toast } from "../store.js";
import { ModalFrame } from "./modal-frame.js";

/**
 * When to send a message later, or to be reminded of one: in 20 minutes, in an hour, in three,
 * tomorrow at 9:00 (in my time zone), or a date and time I pick (read in my profile's time zone
 * by the server). Send later takes the composer's text; Remind me names the message.
 * @param {{ d: { type: 'schedule', mode: 'send' | 'remind' | 'edit', cid: string, text?: string, messageId?: string,
 *   scheduleId?: string, onDone?: () => void } }} props
 */
export function ScheduleDialog({ d }) {
  const [choice, setChoice] = useState("60");
  const [picked, setPicked] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(/** @type {string | null} */ (null));
  const st = getState();
  // The server reads a wall-clock time in my profile's zone; without one, this browser's zone is
  // mine, so the time goes as an instant.
  const profileZone = st.me ? st.entities[st.me.entity_id]?.time_zone : undefined;
  const zone = profileZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  /** @param {string} wall "YYYY-MM-DDTHH:mm" in my zone */
  const asSent = (wall) => (profileZone ? wall : new Date(wall).toISOString());
  const close = () => setState({ dialog: null });

  /** When: minutes from the server's now for "in …", a wall-clock time in my zone otherwise. */
  const when = () => {
    if (choice === "pick") return { send_at: asSent(picked) };
    if (choice === "tomorrow") {
      const today = new Intl.DateTimeFormat("en-CA", { timeZone: zone }).format(new Date());
      const next = new Date(`${today}T12:00:00Z`);
      next.setUTCDate(next.getUTCDate() + 1);
      return { send_at: asSent(`${next.toISOString().slice(0, 10)}T09:00`) };
    }
    return { in_minutes: Number(choice) };
  };

  const submit = async (/** @type {Event} */ ev) => {
    ev.preventDefault();
    if (choice === "pick" && !picked) return setError(t("scheduled.pick_time"));
    setBusy(true);
    setError(null);
    try {
      const at = when();
      if (d.mode === "send") await api.scheduleMessage(d.cid, d.text ?? "", at);
      else if (d.mode === "remind") await api.remindMe(d.cid, d.messageId ?? "", at);
      else await api.editScheduled(d.scheduleId ?? "", at);
      close();
      d.onDone?.();
      toast(d.mode === "remind" ? t("scheduled.reminder_set") : t("scheduled.scheduled"));
    } catch (err) {
      setBusy(false);
      setError(err instanceof ApiError ? err.message : t("scheduled.error"));
    }
  };

  const presets = [
    ["20", t("scheduled.in_minutes", { count: 20 })],
    ["60", t("scheduled.in_hours", { count: 1 })],
    ["180", t("scheduled.in_hours", { count: 3 })],
    ["tomorrow", t("scheduled.tomorrow_nine")],
    ["pick", t("scheduled.pick")],
  ];
  const title =
    d.mode === "remind"
      ? t("scheduled.remind_title")
      : d.mode === "edit"
        ? t("scheduled.edit_title")
        : t("scheduled.send_later");
  return html`<${ModalFrame} title=${title} onClose=${close}>
    <form class="modal-form schedule-form" onSubmit=${submit}>
      ${d.text ? html`<p class="hint schedule-text">${d.text}</p>` : null}
      <fieldset class="schedule-choices"><legend class="visually-hidden">${title}</legend>
        ${presets.map(
          ([
            value,
            label,
          ]) => html`<label key=${value} class="check-field"><input type="radio" name="when" value=${value}
            checked=${choice === value} onChange=${() => setChoice(value)} /><span>${label}</span></label>`,
        )}
      </fieldset>
      ${
        choice === "pick"
          ? html`<div class="form-field"><label for="schedule_at">${t("scheduled.at", { zone })}</label>
          <input id="schedule_at" type="datetime-local" value=${picked} onInput=${(/** @type {any} */ e) => setPicked(e.currentTarget.value)} /></div>`
          : null
      }
      ${error ? html`<p class="form-error" role="alert">${error}</p>` : null}
      <div class="modal-actions">
        <button type="button" class="btn btn-ghost" onClick=${close}>${t("common.cancel")}</button>
        <button type="submit" class="btn btn-primary" disabled=${busy}>${d.mode === "remind" ? t("scheduled.remind_submit") : t("scheduled.schedule_submit")}</button>
      </div>
    </form>
  <//>`;
}
