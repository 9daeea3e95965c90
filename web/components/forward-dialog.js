// @ts-check
import { t } from "../i18n.js";
import { html, useState } from "../lib/preact.js";
import { setState } from "../store.js";
import { forwardTo } from "../message-links.js";
import { Avatar } from "./avatar.js";
import { ModalFrame } from "./modal-frame.js";

/** @typedef {import('../store.js').State} State */

/** How much of the message the dialog quotes. */
const SNIPPET = 140;

/**
 * "Forward to…": the conversations I am in (the one the message is in last), each a button; the
 * copy goes there marked "Forwarded", and the dialog closes once the server has accepted it.
 * @param {{ s: State, cid: string, item: import('../types.js').TimelineItem }} props
 */
export function ForwardDialog({ s, cid, item }) {
  const [busy, setBusy] = useState(false);
  const close = () => setState({ dialog: null });
  const list = [
    ...s.conversations.filter((c) => c.conversation_id !== cid),
    ...s.conversations.filter((c) => c.conversation_id === cid),
  ];
  const text = String(item.message.body_text ?? "");
  const snippet = text.length > SNIPPET ? `${text.slice(0, SNIPPET - 1)}…` : text;
  /** @param {string} to */
  const pick = async (to) => {
    setBusy(true);
    const ok = await forwardTo(cid, item, to);
    setBusy(false);
    if (ok) close();
  };
  return html`<${ModalFrame} title=${t("forward.title")} onClose=${close}>
    <div class="forward-panel">
      <blockquote class="forward-quote"><span class="forward-author">${item.sender.display_name}</span> ${snippet}</blockquote>
      <ul class="forward-list" aria-label=${t("forward.choose")}>
        ${list.map(
          (c) => html`<li key=${c.conversation_id}>
            <button type="button" class="forward-target" data-conversation-id=${c.conversation_id} disabled=${busy} onClick=${() => pick(c.conversation_id)}>
              <${Avatar} name=${c.title} id=${c.conversation_id} size="xs" />
              <span>${c.conversation_id === cid ? t("forward.this_chat", { title: c.title }) : c.title}</span>
            </button>
          </li>`,
        )}
      </ul>
    </div>
  </${ModalFrame}>`;
}
