// @ts-check
import { html, useState } from "../lib/preact.js";
import { api } from "../api.js";
import { refreshAll } from "../actions.js";
import { navigate } from "../router.js";
import { setState, toast } from "../store.js";
import { Avatar } from "./avatar.js";
import { ModalFrame } from "./modal-frame.js";

/** @typedef {import('../store.js').State} State */

/** Start a conversation with any coworker (agent or human) or contact. @param {{ s: State }} props */
export function NewConversation({ s }) {
  const [q, setQ] = useState("");
  const [busy, setBusy] = useState(false);
  const me = s.me?.entity_id;
  const people = Object.values(s.entities)
    .filter((e) => e.entity_id !== me && e.actor_type !== "system")
    .filter((e) => !q.trim() || e.display_name.toLowerCase().includes(q.trim().toLowerCase()))
    .sort((a, b) => (a.actor_type === "agent" ? 0 : 1) - (b.actor_type === "agent" ? 0 : 1) || a.display_name.localeCompare(b.display_name));
  const close = () => setState({ dialog: null });
  /** @param {import('../types.js').Entity} e */
  const start = async (e) => {
    const existing = s.conversations.find((c) => c.participant_entity_ids.length === 2 && c.participant_entity_ids.includes(e.entity_id));
    if (existing) {
      close();
      navigate(`/c/${encodeURIComponent(existing.conversation_id)}`);
      return;
    }
    setBusy(true);
    try {
      const r = await api.createConversation({ title: e.display_name, participants: [{ entity_id: me ?? "" }, { entity_id: e.entity_id }] });
      await refreshAll();
      close();
      navigate(`/c/${encodeURIComponent(r.conversation_id)}`);
    } catch (err) {
      setBusy(false);
      toast(err instanceof Error ? err.message : "Couldn’t start the conversation");
    }
  };
  return html`<${ModalFrame} title="New conversation" onClose=${close}>
    <input type="search" class="modal-search" placeholder="Search coworkers and contacts" aria-label="Search coworkers and contacts"
      value=${q} onInput=${(/** @type {any} */ e) => setQ(e.currentTarget.value)} />
    <ul class="people">
      ${people.map((e) => html`<li key=${e.entity_id}><button type="button" class="person" disabled=${busy} onClick=${() => void start(e)}>
        <${Avatar} name=${e.display_name} id=${e.entity_id} agent=${e.actor_type === "agent"} />
        <span class="person-text"><span class="person-name">${e.display_name}</span>
          <span class="person-sub">${e.actor_type === "agent" ? e.role ?? "Agent coworker" : e.kind === "contact" ? "Contact" : "Coworker"}</span></span>
        ${e.actor_type === "agent" ? html`<span class="role-badge">Agent</span>` : null}
      </button></li>`)}
      ${people.length === 0 ? html`<li class="conv-empty">No one here yet — add coworkers from onboarding or contacts.</li>` : null}
    </ul>
    <div class="modal-actions"><button type="button" class="btn btn-ghost" onClick=${() => { close(); navigate("/onboarding?step=agent"); }}>＋ Add an agent coworker</button></div>
  <//>`;
}
