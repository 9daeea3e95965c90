// @ts-check
import { t } from "../i18n.js";
import { html, useEffect, useState } from "../lib/preact.js";
import { Icon } from "./icon.js";
import { ApiError } from "../api.js";
import { adminApi } from "../admin-api.js";
import { toast } from "../store.js";
import { navigate } from "../router.js";
import { dateTime } from "../format.js";

/** @typedef {{ outbox_id: string, job_id: string, to_redacted: string, subject: string, status: "held"|"queued"|"sending"|"sent"|"failed",
 *   attempts: number, next_attempt_at: string | null, last_error: string | null, last_response: string | null, sent_at: string | null, created_at: string }} Message */

const STATUS = ["held", "queued", "sending", "sent", "failed"];

/** @param {string | null} iso */
const when = (iso) => (iso ? dateTime(iso) : "");

/** Outbox (admins): each invite email, queued / sent / failed, the mail server's answer, Resend. */
export function OutboxPage() {
  const [data, setData] = useState(/** @type {{ mail_configured: boolean, messages: Message[] } | null} */ (null));
  const [error, setError] = useState(/** @type {string | null} */ (null));
  const load = () =>
    adminApi
      .listOutbox()
      .then(setData, (err) => setError(err instanceof ApiError ? err.message : t("outbox.load_error")));
  useEffect(() => void load(), []);

  /** @param {Message} m */
  const resend = async (m) => {
    try {
      await adminApi.resendOutbox(m.outbox_id);
      toast(t("outbox.resending"));
      await load();
    } catch (err) {
      toast(
        err instanceof ApiError
          ? t("admin.why", { what: t("outbox.resend_error"), reason: err.message })
          : t("outbox.resend_error"),
      );
    }
  };

  return html`<section class="page" aria-label=${t("title.outbox")}>
    <header class="chat-head page-head">
      <button type="button" class="icon-btn back" aria-label=${t("common.back")} onClick=${() => navigate("/")}><${Icon} name="back" size=${24} /></button>
      <h1>${t("title.outbox")}</h1>
      <button type="button" class="btn btn-secondary btn-small" onClick=${load}>${t("outbox.refresh")}</button>
    </header>
    <div class="page-body">
      ${error ? html`<p class="form-error" role="alert">${error}</p>` : null}
      ${data && !data.mail_configured ? html`<p class="notice" role="status">${t("outbox.no_mail")}</p>` : null}
      ${data === null && !error ? html`<div class="loading">${t("outbox.loading")}</div>` : null}
      <ul class="outbox-list">
        ${(data?.messages ?? []).map(
          (m) => html`<li key=${m.outbox_id} class="outbox-item" data-status=${m.status}>
          <div class="outbox-main">
            <span class=${`pill pill-${m.status === "sent" ? "ok" : m.status === "failed" ? "bad" : m.status === "held" ? "warn" : "info"}`}>${STATUS.includes(m.status) ? t(`outbox.status.${m.status}`) : m.status}</span>
            <span class="outbox-subject">${m.subject}</span>
          </div>
          <div class="outbox-sub muted small">
            ${t("outbox.to", { to: m.to_redacted, attempts: m.attempts })}
            ${m.sent_at ? ` · ${t("outbox.sent_at", { when: when(m.sent_at) })}` : m.next_attempt_at && m.status === "queued" ? ` · ${t("outbox.next_try", { when: when(m.next_attempt_at) })}` : ""}
          </div>
          ${m.last_response || m.last_error ? html`<div class="outbox-answer small"><span class="muted">${t("outbox.answer")} </span><code>${m.status === "sent" ? m.last_response : m.last_error}</code></div>` : null}
          <div class="outbox-actions">
            <a class="btn btn-ghost btn-small" href=${`/jobs/${m.job_id}`} onClick=${(/** @type {Event} */ e) => {
              e.preventDefault();
              navigate(`/jobs/${m.job_id}`);
            }}>${t("outbox.open_job")}</a>
            ${m.status === "failed" || m.status === "queued" ? html`<button type="button" class="btn btn-secondary btn-small" aria-label=${t("outbox.resend_named", { subject: m.subject })} onClick=${() => resend(m)}>${t("outbox.resend")}</button>` : null}
          </div>
        </li>`,
        )}
        ${data && data.messages.length === 0 ? html`<li class="conv-empty">${t("outbox.none")}</li>` : null}
      </ul>
    </div>
  </section>`;
}
