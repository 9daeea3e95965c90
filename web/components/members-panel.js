// @ts-check
import { t } from "../i18n.js";
import { Avatar } from "./avatar.js";
import { LIMITS } from "../lib/facts.js";
import { html, useState } from "../lib/preact.js";
import { api } from "../api.js";
import { toast } from "../store.js";
import { navigate } from "../router.js";
import { ModalFrame } from "./modal-frame.js";

/** @typedef {import('../store.js').State} State */
/** @typedef {import('../types.js').ConversationSummary} ConversationSummary */

/**
 * A conversation's members: people and agents with their badges; add, rename, leave, and remove
 * for whoever started it or an admin (the server checks the same rules). Changes arrive live on
 * the stream as `conversation.update`, so the list redraws itself.
 * @param {{ s: State, conv: ConversationSummary, onClose: () => void }} props
 */
export function MembersPanel({ s, conv, onClose }) {
  const [adding, setAdding] = useState("");
  const [title, setTitle] = useState(conv.title);
  const me = s.me?.entity_id ?? "";
  const isGroup = conv.kind !== "direct";
  const mayRemove = conv.created_by === me || (s.me?.roles ?? []).includes("admin");
  const ids = conv.participant_entity_ids;
  const outside = Object.values(s.entities).filter((e) => !ids.includes(e.entity_id) && e.kind !== "contact");
  /** @param {() => Promise<unknown>} call @param {string} failed */
  const run = async (call, failed) => {
    try {
      await call();
      return true;
    } catch (e) {
      toast(t("admin.why", { what: failed, reason: /** @type {Error} */ (e).message }));
      return false;
    }
  };
  const add = async () => {
    if (!adding) return;
    if (await run(() => api.addMember(conv.conversation_id, adding), t("members.add_error"))) setAdding("");
  };
  const rename = async (/** @type {Event} */ e) => {
    e.preventDefault();
    if (title.trim() && title.trim() !== conv.title)
      await run(() => api.renameConversation(conv.conversation_id, title.trim()), t("members.rename_error"));
  };
  const leave = async () => {
    if (await run(() => api.removeMember(conv.conversation_id, me), t("members.leave_error"))) {
      onClose();
      navigate("/");
    }
  };
  return html`<${ModalFrame} title=${t("chat.members")} onClose=${onClose}>
    <div class="members-panel">
      ${
        isGroup
          ? html`<form class="members-rename" onSubmit=${rename}>
        <label for="members-title">${t("new.group_name")}</label>
        <input id="members-title" maxlength=${LIMITS.titleChars} value=${title} onInput=${(/** @type {any} */ e) => setTitle(e.currentTarget.value)} />
        <button type="submit" class="btn">${t("members.rename")}</button></form>`
          : null
      }
      <ul class="members-list" aria-label=${t("members.list")}>
        ${ids.map((id) => {
          const e = s.entities[id];
          const name = e?.display_name ?? id;
          const badges = [
            e?.actor_type === "agent" ? (e.role ?? t("members.agent")) : null,
            conv.created_by === id ? t("members.started_it") : null,
            ...(e?.roles ?? []).filter((r) => r === "admin").map(() => t("members.admin")),
          ];
          return html`<li key=${id} class="member-row">
            <${Avatar} name=${name} id=${id} agent=${e?.actor_type === "agent"} size="xs" />
            <span class="member-name">${id === me ? t("members.you", { name }) : name}</span>
            ${badges.filter(Boolean).map((b) => html`<span class="role-badge">${b}</span>`)}
            ${
              id !== me && mayRemove && isGroup
                ? html`<button type="button" class="btn btn-small" aria-label=${t("common.remove_named", { name })} onClick=${() => run(() => api.removeMember(conv.conversation_id, id), t("members.remove_error"))}>${t("members.remove")}</button>`
                : null
            }
          </li>`;
        })}
      </ul>
      ${
        outside.length
          ? html`<div class="members-add">
        <label for="members-add">${t("members.add_someone")}</label>
        <select id="members-add" value=${adding} onChange=${(/** @type {any} */ e) => setAdding(e.currentTarget.value)}>
          <option value="">${t("members.choose")}</option>
          ${outside.map((e) => html`<option key=${e.entity_id} value=${e.entity_id}>${e.actor_type === "agent" ? t("members.agent_option", { name: e.display_name }) : e.display_name}</option>`)}
        </select>
        <button type="button" class="btn" disabled=${!adding} onClick=${add}>${t("members.add")}</button></div>`
          : null
      }
      <button type="button" class="btn btn-danger" onClick=${leave}>${t("members.leave")}</button>
    </div>
  <//>`;
}
