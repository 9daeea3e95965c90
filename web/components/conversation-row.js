// @ts-check
import { t } from "../i18n.js";
import { html } from "../lib/preact.js";
import { Icon } from "./icon.js";
import { listTime } from "../format.js";
import { Avatar } from "./avatar.js";
import { PresenceLine } from "./presence-line.js";

/** @typedef {import('../types.js').ConversationSummary} ConversationSummary */
/** @typedef {import('../types.js').Entity} Entity */
/** @typedef {import('../types.js').Presence} Presence */

/**
 * @param {{ conv: ConversationSummary, active: boolean, other: Entity | undefined,
 *   presence: Presence | undefined, onOpen: () => void }} props
 */
export function ConversationRow({ conv, active, other, presence, onOpen }) {
  const isAgent = other?.actor_type === "agent";
  const preview = conv.last_preview;
  const snippet =
    preview?.kind === "card"
      ? (preview.text ?? t("list.job_card"))
      : preview?.kind === "artifact"
        ? (preview.text ?? t("list.file"))
        : (preview?.text ?? "");
  const lead =
    preview?.kind === "card"
      ? html`<${Icon} name="card" size=${15} />`
      : preview?.kind === "artifact"
        ? html`<${Icon} name="clip" size=${15} />`
        : null;
  const unread = conv.unread_count > 0;
  return html`<li>
    <a href=${`/c/${encodeURIComponent(conv.conversation_id)}`} class=${`conv-row${active ? " active" : ""}${unread ? " unread" : ""}`}
      aria-current=${active ? "page" : undefined} data-conversation-id=${conv.conversation_id}
      onClick=${(/** @type {MouseEvent} */ e) => {
        if (e.metaKey || e.ctrlKey) return;
        e.preventDefault();
        onOpen();
      }}>
      <${Avatar} name=${conv.title} id=${other?.entity_id ?? conv.conversation_id} agent=${isAgent} />
      <span class="conv-main">
        <span class="conv-top">
          <span class="conv-title">${conv.title}</span>
          ${isAgent && other?.role ? html`<span class="role-badge">${other.role}</span>` : null}
          <span class="conv-time">${listTime(conv.last_item_ts)}</span>
        </span>
        <span class="conv-bottom">
          <span class="conv-snippet">${lead}${snippet}</span>
          ${unread ? html`<span class="unread-badge" aria-label=${t("list.unread", { count: conv.unread_count })}>${conv.unread_count > 99 ? "99+" : conv.unread_count}</span>` : null}
        </span>
        ${isAgent ? html`<span class="conv-presence"><${PresenceLine} presence=${presence} /></span>` : null}
      </span>
    </a>
  </li>`;
}
