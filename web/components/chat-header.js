// @ts-check
import { t } from "../i18n.js";
import { html } from "../lib/preact.js";
import { Icon } from "./icon.js";
import { navigate } from "../router.js";
import { Avatar } from "./avatar.js";
import { PersonPresence, PresenceLine } from "./presence-line.js";
import { StatePill } from "./state-pill.js";
import { PersonStatus } from "./status-setting.js";

/** @typedef {import('../types.js').Entity} Entity */
/** @typedef {import('../types.js').Presence} Presence */
/** @typedef {import('../types.js').JobHead} JobHead */

/**
 * Participant, role and status; the active-job chip opens the Job Drawer.
 * Pinned messages (when there are any) open their list.
 * A public channel says so beside its name.
 * @param {{ title: string, other?: Entity, presence?: Presence, job?: JobHead, members: number, channel?: boolean, muted?: boolean, onMute?: () => void, onMembers?: () => void,
 *   pinnedCount?: number, onPins?: () => void, onCall?: () => void }} props
 */
export function ChatHeader({
  title,
  other,
  presence,
  job,
  members,
  channel,
  muted,
  onMute,
  onMembers,
  pinnedCount = 0,
  onPins,
  onCall,
}) {
  const isAgent = other?.actor_type === "agent";
  const caps = isAgent && Array.isArray(other?.capabilities) ? other.capabilities.slice(0, 3) : [];
  return html`<header class="chat-head">
    <button type="button" class="icon-btn back" aria-label=${t("chat.back")} onClick=${() => navigate("/")}><${Icon} name="back" size=${24} /></button>
    <${Avatar} name=${title} id=${other?.entity_id ?? title} agent=${isAgent} />
    <div class="chat-who">
      <div class="chat-name"><h1 tabIndex="-1">${title}</h1>${isAgent && other?.role ? html`<span class="role-badge">${other.role}</span>` : null}${
        channel ? html`<span class="role-badge channel-badge">${t("channels.public_badge")}</span>` : null
      }</div>
      <div class="chat-status">
        ${
          isAgent
            ? html`<${PresenceLine} presence=${presence} />`
            : other && other.kind !== "contact" && members <= 2
              ? html`<${PersonPresence} presence=${presence} /><${PersonStatus} who=${other} />`
              : html`<span class="presence presence-offline">${members > 2 ? t("chat.members_count", { count: members }) : other?.kind === "contact" ? t("chat.contact") : t("chat.coworker")}</span>`
        }
        ${caps.map((c) => html`<span key=${c} class="cap-badge">${c}</span>`)}
      </div>
    </div>
    ${
      job
        ? html`<button type="button" class="job-chip"
      onClick=${() => navigate(`/jobs/${encodeURIComponent(job.job_id)}`)}>
      <span class="job-chip-label">${t("chat.job_chip", { title: job.title ?? job.job_id })}</span><${StatePill} state=${job.state} /></button>`
        : null
    }
    ${
      pinnedCount > 0 && onPins
        ? html`<button type="button" class="btn btn-small pins-btn" aria-haspopup="dialog" onClick=${onPins}><${Icon} name="pin" size=${14} />
      <span class="pins-word">${t("pins.button", { count: pinnedCount })}</span><span class="pins-count" aria-hidden="true">${pinnedCount}</span></button>`
        : null
    }
    ${onCall ? html`<button type="button" class="btn btn-small call-btn" onClick=${onCall}><${Icon} name="video" size=${14} /> <span>${t("calls.start")}</span></button>` : null}
    ${onMembers ? html`<button type="button" class="btn btn-small members-btn" aria-label=${t("chat.members_label", { count: members })} onClick=${onMembers}>${t("chat.members")}</button>` : null}
    ${
      onMute
        ? html`<button type="button" class=${`icon-btn mute-btn${muted ? " muted" : ""}`} aria-pressed=${muted ? "true" : "false"}
      aria-label=${muted ? t("chat.unmute") : t("chat.mute")} title=${muted ? t("chat.muted_title") : t("chat.mute")}
      onClick=${onMute}><${Icon} name=${muted ? "bellOff" : "bell"} /></button>`
        : null
    }
  </header>`;
}
