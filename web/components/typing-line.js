// @ts-check
import { t } from "../i18n.js";
import { html } from "../lib/preact.js";

/** @typedef {import('../store.js').State} State */

/**
 * Above the composer: who is typing in this conversation now, and which of its agents is at
 * work on a job ("Office Scheduler is working on Intro call…", from its presence). Always in the
 * page, so screen readers hear changes without the layout jumping.
 * @param {{ s: State, cid: string }} props
 */
export function TypingLine({ s, cid }) {
  const names = Object.values(s.typing[cid] ?? {});
  const conv = s.conversations.find((c) => c.conversation_id === cid);
  const working = (conv?.participant_entity_ids ?? []).flatMap((id) => {
    const p = s.presence[id];
    const e = s.entities[id];
    return e?.actor_type === "agent" && p?.state === "working"
      ? [{ name: e.display_name, what: p.job_title ?? t("presence.a_job") }]
      : [];
  });
  const typing =
    names.length === 0
      ? ""
      : names.length === 1
        ? t("typing.one", { name: names[0] })
        : names.length === 2
          ? t("typing.two", { a: names[0], b: names[1] })
          : t("typing.many");
  const text = [typing, ...working.map((w) => t("typing.working", w))].filter(Boolean).join(" · ");
  return html`<div class="typing-line" role="status">${text ? html`<span class="typing-dots" aria-hidden="true"><i></i><i></i><i></i></span>${text}` : null}</div>`;
}
