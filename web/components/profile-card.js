// @ts-check
import { t, dateFormat } from "../i18n.js";
import { html, useState } from "../lib/preact.js";
import { api } from "../api.js";
import { navigate } from "../router.js";
import { directChatWith, setState, toast } from "../store.js";
import { Avatar } from "./avatar.js";
import { ModalFrame } from "./modal-frame.js";
import { PersonPresence, PresenceLine } from "./presence-line.js";
import { PersonStatus } from "./status-setting.js";

/** @typedef {import('../store.js').State} State */

/** The time it is now where they are, in the reader's language ("14:05"), or null for a zone the browser does not know. @param {string} zone */
function localTime(zone) {
  try {
    return dateFormat({ hour: "2-digit", minute: "2-digit", timeZone: zone }).format(new Date());
  } catch {
    return null;
  }
}

/**
 * A coworker's card, opened from their name on a message or the member list: name, role, what
 * they are doing (presence, status, do not disturb), the time where they are, and a button that
 * opens the direct chat with them (made on first use).
 * @param {{ s: State, entityId: string }} props
 */
export function ProfileCard({ s, entityId }) {
  const [busy, setBusy] = useState(false);
  const close = () => setState({ dialog: null });
  const who = s.entities[entityId];
  const name = who?.display_name ?? entityId;
  const agent = who?.actor_type === "agent";
  const roles = agent
    ? [who?.role].filter(Boolean)
    : (who?.roles ?? [])
        .filter((r) => r === "admin" || r === "approver")
        .map((r) => (r === "admin" ? t("profile_card.role.admin") : t("profile_card.role.approver")));
  const zone = !agent && who?.time_zone ? who.time_zone : null;
  const time = zone ? localTime(zone) : null;
  const mine = entityId === s.me?.entity_id;

  const message = async () => {
    const existing = directChatWith(s.conversations, s.me?.entity_id, entityId);
    if (existing) {
      close();
      navigate(`/c/${encodeURIComponent(existing.conversation_id)}`);
      return;
    }
    setBusy(true);
    try {
      const r = await api.createConversation({
        title: name,
        participants: [{ entity_id: s.me?.entity_id ?? "" }, { entity_id: entityId }],
      });
      close();
      navigate(`/c/${encodeURIComponent(r.conversation_id)}`);
    } catch (err) {
      setBusy(false);
      toast(err instanceof Error ? err.message : t("new.error"));
    }
  };

  return html`<${ModalFrame} title=${name} onClose=${close}>
    <div class="profile-card">
      <div class="profile-card-top">
        <${Avatar} name=${name} id=${entityId} agent=${agent} size="lg" />
        <div class="profile-card-who">
          ${roles.length ? html`<p class="profile-card-roles">${roles.map((r) => html`<span class="role-badge" key=${r}>${r}</span>`)}</p>` : null}
          <p class="chat-status">${agent ? html`<${PresenceLine} presence=${s.presence[entityId]} />` : html`<${PersonPresence} presence=${s.presence[entityId]} /><${PersonStatus} who=${who} />`}</p>
          ${time && zone ? html`<p class="profile-card-time">${t("profile_card.local_time", { time, zone })}</p>` : null}
        </div>
      </div>
      ${mine ? null : html`<button type="button" class="btn btn-primary" disabled=${busy} onClick=${message}>${t("profile_card.message", { name })}</button>`}
    </div>
  </${ModalFrame}>`;
}
