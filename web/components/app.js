// @ts-check
import { t } from "../i18n.js";
import { html, useEffect, useState } from "../lib/preact.js";
import { getState, subscribe } from "../store.js";
import { navigate } from "../router.js";
import { ChatView } from "./chat-view.js";
import { ConfirmDialog } from "./confirm-dialog.js";
import { ContactsPage } from "./contacts-page.js";
import { OutboxPage } from "./outbox-page.js";
import { ToolsPage } from "./tools-page.js";
import { AdminPage } from "./admin-page.js";
import { ProfileDialog } from "./profile-dialog.js";
import { ConversationList } from "./conversation-list.js";
import { InputModal } from "./input-modal.js";
import { InvitePage } from "./invite-page.js";
import { JobDrawer } from "./job-drawer.js";
import { NewConversation } from "./new-conversation.js";
import { BrowseChannels } from "./browse-channels.js";
import { ScheduleDialog } from "./schedule-dialog.js";
import { ScheduledList } from "./scheduled-list.js";
import { OnboardingPage } from "./onboarding-page.js";
import { SigninPage } from "./signin-page.js";
import { SigninLinkPage } from "./signin-link-page.js";
import { Toast } from "./toast.js";
import { ForwardDialog } from "./forward-dialog.js";
import { MessageLink } from "./message-link.js";
import { QuickSwitcher } from "./quick-switcher.js";
import { ShortcutsSheet } from "./shortcuts-sheet.js";
import { ProfileCard } from "./profile-card.js";

function useStore() {
  const [, setN] = useState(0);
  useEffect(() => subscribe(() => setN((n) => n + 1)), []);
  return getState();
}

/** The skip link focuses the composer without changing the route's URL. @param {MouseEvent} e */
function skipToComposer(e) {
  e.preventDefault();
  document.getElementById("composer-input")?.focus();
}

export function App() {
  const s = useStore();
  const r = s.route;
  const overlays = html`
    ${s.dialog?.type === "input" ? html`<${InputModal} d=${s.dialog} />` : null}
    ${s.dialog?.type === "confirm" ? html`<${ConfirmDialog} d=${s.dialog} />` : null}
    ${s.dialog?.type === "new-conversation" ? html`<${NewConversation} s=${s} />` : null}
    ${s.dialog?.type === "channels" ? html`<${BrowseChannels} s=${s} />` : null}
    ${s.dialog?.type === "schedule" ? html`<${ScheduleDialog} d=${s.dialog} />` : null}
    ${s.dialog?.type === "scheduled" ? html`<${ScheduledList} />` : null}
    ${s.dialog?.type === "profile" ? html`<${ProfileDialog} s=${s} />` : null}
    ${s.dialog?.type === "forward" ? html`<${ForwardDialog} s=${s} cid=${s.dialog.cid} item=${s.dialog.item} />` : null}
    ${s.dialog?.type === "switcher" ? html`<${QuickSwitcher} s=${s} />` : null}
    ${s.dialog?.type === "shortcuts" ? html`<${ShortcutsSheet} />` : null}
    ${s.dialog?.type === "person" ? html`<${ProfileCard} s=${s} entityId=${s.dialog.entityId} />` : null}
    <${Toast} toast=${s.toast} />`;
  if (!s.booted) return html`<div class="splash"><span class="spinner"></span></div>`;
  if (r.name === "onboarding") return html`${html`<${OnboardingPage} s=${s} />`}${overlays}`;
  if (r.name === "invite" && r.token) return html`${html`<${InvitePage} token=${r.token} />`}${overlays}`;
  if (r.name === "signin-link") return html`${html`<${SigninLinkPage} />`}${overlays}`;
  if (!s.me) return html`${html`<${SigninPage} />`}${overlays}`;

  const cid = r.conversationId;
  const closeDrawer = () => navigate(cid ? `/c/${encodeURIComponent(cid)}` : "/");
  let main;
  if (r.name === "contacts") main = html`<${ContactsPage} s=${s} />`;
  else if (r.name === "outbox") main = html`<${OutboxPage} />`;
  else if (r.name === "tools") main = html`<${ToolsPage} />`;
  else if (r.name === "admin") main = html`<${AdminPage} s=${s} />`;
  else if (r.name === "message" && r.link)
    main = html`<${MessageLink} cid=${r.link.conversationId} mid=${r.link.messageId} />`;
  else if (cid) main = html`<${ChatView} key=${cid} s=${s} cid=${cid} />`;
  else
    main = html`<section class="welcome">
      <div class="welcome-inner">
        <div class="welcome-logo" aria-hidden="true">✦</div>
        <h1>${s.me.display_name ? t("app.hello_name", { name: s.me.display_name }) : t("app.hello")}</h1>
        <p>${t("app.welcome")}</p>
      </div>
    </section>`;
  const pane = r.name === "home" ? "list" : "main";
  return html`<div class=${`shell pane-${pane}${s.drawer ? " with-drawer" : ""}`}>
      ${cid ? html`<a class="skip-link" href="#composer-input" onClick=${skipToComposer}>${t("app.skip_to_composer")}</a>` : null}
      <${ConversationList} s=${s} />
      <main class="main">${main}</main>
      ${s.drawer ? html`<${JobDrawer} s=${s} onClose=${closeDrawer} />` : null}
    </div>
    ${overlays}`;
}
