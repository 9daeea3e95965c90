// @ts-check
import { t } from "../i18n.js";
import { html, useRef, useState } from "../lib/preact.js";
import { Icon } from "./icon.js";
import { getState, setState } from "../store.js";
import { navigate } from "../router.js";
import { Avatar, shownInitials } from "./avatar.js";
import { ConversationRow } from "./conversation-row.js";
import { pollSeconds } from "../live.js";
import { NotifyBanner } from "./notify-banner.js";
import { SearchResults } from "./search-results.js";

/** @typedef {import('../store.js').State} State */

/** The other side of a conversation: the agent if there is one, else the first other person. @param {State} s @param {string[]} ids */
export function otherParty(s, ids) {
  const others = ids
    .filter((id) => id !== s.me?.entity_id)
    .map((id) => s.entities[id])
    .filter(Boolean);
  return others.find((e) => e.actor_type === "agent") ?? others[0];
}

/**
 * The profile button's name: it holds the initials the button shows (a person who says what
 * they see can press it), or only "Your profile" under a picture.
 * @param {{ display_name: string, entity_id: string }} me
 */
function meLabel(me) {
  const shown = shownInitials(me.display_name, me.entity_id);
  return shown ? t("list.profile_initials", { initials: shown }) : t("list.profile");
}

/** @param {{ s: State }} props */
export function ConversationList({ s }) {
  const [q, setQ] = useState("");
  const searchBox = useRef(/** @type {HTMLInputElement | null} */ (null));
  const needle = q.trim().toLowerCase();
  const list = needle ? s.conversations.filter((c) => c.title.toLowerCase().includes(needle)) : s.conversations;
  return html`<aside class="sidebar" aria-label=${t("list.conversations")}>
    <header class="sidebar-head">
      <div class="me">
        ${
          s.me
            ? html`<button type="button" class="me-btn" aria-label=${meLabel(s.me)} title=${t("list.profile")} onClick=${() => setState({ dialog: { type: "profile" } })}>
          <${Avatar} name=${s.me.display_name} id=${s.me.entity_id} size="sm" /></button>`
            : null
        }
        <span class="brand">LogLine</span>
      </div>
      <div class="head-actions">
        <a class="icon-btn" href="/contacts" title=${t("list.contacts")} aria-label=${t("list.contacts")}
          onClick=${(/** @type {Event} */ e) => {
            e.preventDefault();
            navigate("/contacts");
          }}><${Icon} name="users" /></a>
        ${
          s.me?.roles?.includes("admin") || s.me?.roles?.includes("owner")
            ? html`<a class="icon-btn" href="/admin" title=${t("list.admin")} aria-label=${t("list.admin")}
          onClick=${(/** @type {Event} */ e) => {
            e.preventDefault();
            navigate("/admin");
          }}><${Icon} name="tool" /></a>`
            : null
        }
        <button type="button" class="icon-btn" title=${t("list.new")} aria-label=${t("list.new")}
          onClick=${() => setState({ dialog: { type: "new-conversation" } })}><${Icon} name="plus" /></button>
      </div>
    </header>
    ${
      s.offline
        ? html`<div class="conn conn-offline" role="status">${t("offline.list")}</div>`
        : s.connection !== "live"
          ? html`<div class=${`conn conn-${s.connection}`} role="status">
      ${s.connection === "down" ? t("list.reconnecting", { seconds: pollSeconds() }) : t("list.connecting")}</div>`
          : null
    }
    <${NotifyBanner} />
    <div class="list-tools">
      <button type="button" class="btn btn-ghost list-tool" onClick=${() => setState({ dialog: { type: "channels" } })}>
        <${Icon} name="hash" size=${16} /> ${t("channels.browse")}</button>
      <button type="button" class="btn btn-ghost list-tool" onClick=${() => setState({ dialog: { type: "scheduled" } })}>
        <${Icon} name="clock" size=${16} /> ${t("scheduled.list_title")}</button>
    </div>
    <div class="search" role="search"><input ref=${searchBox} type="search" placeholder=${t("list.search")} aria-label=${t("list.search")}
      value=${q} onInput=${(/** @type {any} */ e) => setQ(e.currentTarget.value)}
      onKeyDown=${(/** @type {KeyboardEvent} */ e) => {
        if (e.key !== "ArrowDown") return;
        const first = document.querySelector(".search-results button.search-hit");
        if (first instanceof HTMLElement) {
          e.preventDefault();
          first.focus();
        }
      }} /></div>
    <${SearchResults} q=${q} input=${searchBox} />
    <ul class="conv-list">
      ${list.map((c) => {
        // A group's row is the group's: no one member's badge, picture or presence stands for it.
        const other = c.kind === "group" ? undefined : otherParty(s, c.participant_entity_ids);
        return html`<${ConversationRow} key=${c.conversation_id} conv=${c} other=${other}
          active=${s.route.conversationId === c.conversation_id}
          presence=${other ? getState().presence[other.entity_id] : undefined}
          onOpen=${() => navigate(`/c/${encodeURIComponent(c.conversation_id)}`)} />`;
      })}
      ${list.length === 0 ? html`<li class="conv-empty">${needle ? t("list.no_match") : t("list.empty")}</li>` : null}
    </ul>
  </aside>`;
}
