// @ts-check
import { html, useEffect, useState } from "../lib/preact.js";
import { Icon } from "./icon.js";
import { api, ApiError } from "../api.js";
import { toast } from "../store.js";
import { navigate } from "../router.js";

/** @typedef {{ outbox_id: string, job_id: string, to_redacted: string, subject: string, status: "held"|"queued"|"sending"|"sent"|"failed",
 *   attempts: number, next_attempt_at: string | null, last_error: string | null, last_response: string | null, sent_at: string | null, created_at: string }} Message */

const STATUS = { held: "Held", queued: "Queued", sending: "Sending", sent: "Sent", failed: "Failed" };

/** @param {string | null} iso */
const when = (iso) => (iso ? new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }) : "");

/** Outbox (admins): each invite email, queued / sent / failed, the mail server's answer, Resend. */
export function OutboxPage() {
  const [data, setData] = useState(/** @type {{ mail_configured: boolean, messages: Message[] } | null} */ (null));
  const [error, setError] = useState(/** @type {string | null} */ (null));
  const load = () => api.listOutbox().then(setData, (err) => setError(err instanceof ApiError ? err.message : "Couldn’t load the outbox"));
  useEffect(() => void load(), []);

  /** @param {Message} m */
  const resend = async (m) => {
    try {
      await api.resendOutbox(m.outbox_id);
      toast("Resending");
      await load();
    } catch (err) {
      toast(err instanceof ApiError ? `Couldn’t resend: ${err.message}` : "Couldn’t resend");
    }
  };

  return html`<section class="page" aria-label="Outbox">
    <header class="chat-head page-head">
      <button type="button" class="icon-btn back" aria-label="Back" onClick=${() => navigate("/")}><${Icon} name="back" size=${24} /></button>
      <h1>Outbox</h1>
      <button type="button" class="btn btn-secondary btn-small" onClick=${load}>Refresh</button>
    </header>
    <div class="page-body">
      ${error ? html`<p class="form-error" role="alert">${error}</p>` : null}
      ${
        data && !data.mail_configured
          ? html`<p class="notice" role="status">Mail is not set up on this server, so invites are not emailed: each job’s card offers its invite.ics to send yourself. Set SMTP_URL and MAIL_FROM to send them.</p>`
          : null
      }
      ${data === null && !error ? html`<div class="loading">Loading the outbox…</div>` : null}
      <ul class="outbox-list">
        ${(data?.messages ?? []).map(
          (m) => html`<li key=${m.outbox_id} class="outbox-item" data-status=${m.status}>
          <div class="outbox-main">
            <span class=${`pill pill-${m.status === "sent" ? "ok" : m.status === "failed" ? "bad" : m.status === "held" ? "warn" : "info"}`}>${STATUS[m.status] ?? m.status}</span>
            <span class="outbox-subject">${m.subject}</span>
          </div>
          <div class="outbox-sub muted small">
            To ${m.to_redacted} · ${m.attempts} attempt${m.attempts === 1 ? "" : "s"}
            ${m.sent_at ? ` · sent ${when(m.sent_at)}` : m.next_attempt_at && m.status === "queued" ? ` · next try ${when(m.next_attempt_at)}` : ""}
          </div>
          ${m.last_response || m.last_error ? html`<div class="outbox-answer small"><span class="muted">Server’s answer: </span><code>${m.status === "sent" ? m.last_response : m.last_error}</code></div>` : null}
          <div class="outbox-actions">
            <a class="btn btn-ghost btn-small" href=${`/jobs/${m.job_id}`} onClick=${(/** @type {Event} */ e) => {
              e.preventDefault();
              navigate(`/jobs/${m.job_id}`);
            }}>Open job</a>
            ${m.status === "failed" || m.status === "queued" ? html`<button type="button" class="btn btn-secondary btn-small" aria-label=${`Resend ${m.subject}`} onClick=${() => resend(m)}>Resend</button>` : null}
          </div>
        </li>`,
        )}
        ${data && data.messages.length === 0 ? html`<li class="conv-empty">No email sent yet.</li>` : null}
      </ul>
    </div>
  </section>`;
}
