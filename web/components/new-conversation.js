// @ts-check
import { t } from "../i18n.js";
import { LIMITS } from "../lib/facts.js";
import { html, useState } from "../lib/preact.js";
import { api, ApiError } from "../api.js";
import { refreshAll } from "../actions.js";
import { navigate } from "../router.js";
import { directChatWith, setState, toast } from "../store.js";
import { Avatar } from "./avatar.js";
import { ModalFrame } from "./modal-frame.js";

/** @typedef {import('../store.js').State} State */
/** @typedef {import('../types.js').Entity} Entity */

/**
 * Start a conversation with any coworker (agent or human) or contact: one tap opens (or reuses)
 * the one-to-one chat; "New group" switches to picking several people and naming the group,
 * as messengers people already know do.
 * @param {{ s: State }} props
 */
export function NewConversation({ s }) {
  const [q, setQ] = useState("");
  const [busy, setBusy] = useState(false);
  const [group, setGroup] = useState(false);
  const [picked, setPicked] = useState(/** @type {string[]} */ ([]));
  const [name, setName] = useState("");
  const [isPublic, setPublic] = useState(false);
  const [error, setError] = useState(/** @type {string | null} */ (null));
  const me = s.me?.entity_id;
  const people = Object.values(s.entities)
    .filter((e) => e.entity_id !== me && e.actor_type !== "system")
    .filter((e) => !q.trim() || e.display_name.toLowerCase().includes(q.trim().toLowerCase()))
    .sort(
      (a, b) =>
        (a.actor_type === "agent" ? 0 : 1) - (b.actor_type === "agent" ? 0 : 1) ||
        a.display_name.localeCompare(b.display_name),
    );
  const close = () => setState({ dialog: null });

  /** @param {string} title @param {string[]} others @param {boolean} [channel] a public channel */
  const create = async (title, others, channel = false) => {
    setBusy(true);
    setError(null);
    try {
      const r = await api.createConversation({
        title,
        participants: [{ entity_id: me ?? "" }, ...others.map((id) => ({ entity_id: id }))],
        ...(channel ? { visibility: /** @type {const} */ ("public") } : {}),
      });
      await refreshAll();
      close();
      navigate(`/c/${encodeURIComponent(r.conversation_id)}`);
    } catch (err) {
      setBusy(false);
      const msg = err instanceof Error ? err.message : t("new.error");
      // In group mode the form stays open with the server's reason next to it.
      if (group && err instanceof ApiError) setError(msg);
      else toast(msg);
    }
  };

  /** @param {Entity} e */
  const startOne = (e) => {
    const existing = directChatWith(s.conversations, s.me?.entity_id, e.entity_id);
    if (existing) {
      close();
      navigate(`/c/${encodeURIComponent(existing.conversation_id)}`);
      return;
    }
    void create(e.display_name, [e.entity_id]);
  };

  /** @param {string} id */
  const toggle = (id) => setPicked(picked.includes(id) ? picked.filter((p) => p !== id) : [...picked, id]);
  const names = picked.map((id) => s.entities[id]?.display_name ?? "").filter(Boolean);
  // A public channel is found by its name, and anyone joins it later: a name is enough to start one.
  const canCreate = !busy && (isPublic ? name.trim() !== "" : picked.length >= 2);
  const submitGroup = (/** @type {Event} */ ev) => {
    ev.preventDefault();
    if (!canCreate) return;
    void create(name.trim() || names.join(", "), picked, isPublic);
  };

  /** @param {Entity} e */
  const row = (e) => {
    const sub =
      e.actor_type === "agent"
        ? (e.role ?? t("common.agent_coworker"))
        : e.kind === "contact"
          ? t("chat.contact")
          : t("chat.coworker");
    const body = html`<${Avatar} name=${e.display_name} id=${e.entity_id} agent=${e.actor_type === "agent"} />
      <span class="person-text"><span class="person-name">${e.display_name}</span><span class="person-sub">${sub}</span></span>
      ${e.actor_type === "agent" ? html`<span class="role-badge">${t("members.agent")}</span>` : null}`;
    if (!group)
      return html`<li key=${e.entity_id}><button type="button" class="person" disabled=${busy} onClick=${() => startOne(e)}>${body}</button></li>`;
    const on = picked.includes(e.entity_id);
    return html`<li key=${e.entity_id}><button type="button" role="checkbox" aria-checked=${on ? "true" : "false"} aria-label=${e.display_name}
      class=${`person person-pick${on ? " picked" : ""}`} disabled=${busy} onClick=${() => toggle(e.entity_id)}>
      <span class="pick-box" aria-hidden="true">${on ? "✓" : ""}</span>${body}</button></li>`;
  };

  return html`<${ModalFrame} title=${group ? t("new.group") : t("list.new")} onClose=${close}>
    <form class="modal-form new-conv" onSubmit=${submitGroup}>
      ${
        group
          ? html`<div class="form-field">
          <label for="group_name">${t("new.group_name")}</label>
          <input id="group_name" type="text" maxlength=${LIMITS.titleChars} placeholder=${names.length ? names.join(", ") : t("new.group_placeholder")} value=${name}
            onInput=${(/** @type {any} */ e) => setName(e.currentTarget.value)} />
        </div>
        <label class="check-field"><input type="checkbox" checked=${isPublic}
          onChange=${(/** @type {any} */ e) => setPublic(e.currentTarget.checked)} />
          <span>${t("new.public")}<span class="person-sub">${t("new.public_hint")}</span></span></label>`
          : null
      }
      <input type="search" class="modal-search" placeholder=${t("new.search")} aria-label=${t("new.search")}
        value=${q} onInput=${(/** @type {any} */ e) => setQ(e.currentTarget.value)} />
      ${
        !group && people.length > 1
          ? html`<button type="button" class="btn btn-ghost new-group" onClick=${() => {
              setGroup(true);
              setError(null);
            }}>${t("new.group_button")}</button>`
          : null
      }
      <ul class="people">
        ${people.map(row)}
        ${people.length === 0 ? html`<li class="conv-empty">${t("new.nobody")}</li>` : null}
      </ul>
      ${error ? html`<p class="form-error" role="alert">${error}</p>` : null}
      <div class="modal-actions">
        ${
          group
            ? html`<button type="button" class="btn btn-ghost" onClick=${() => {
                setGroup(false);
                setPicked([]);
                setError(null);
              }}>${t("common.back")}</button>
              <button type="submit" class="btn btn-primary" disabled=${!canCreate}>
                ${busy ? html`<span class="spinner spinner-btn" aria-hidden="true"></span>` : null}${isPublic ? t("new.create_channel") : t("new.create_group", { count: picked.length ? picked.length + 1 : 0 })}</button>`
            : html`<button type="button" class="btn btn-ghost" onClick=${() => {
                close();
                navigate("/onboarding?step=agent");
              }}>${t("new.add_agent")}</button>`
        }
      </div>
      ${group && !isPublic && picked.length < 2 ? html`<p class="hint">${t("new.pick_two")}</p>` : null}
      ${group && isPublic && name.trim() === "" ? html`<p class="hint">${t("new.public_name")}</p>` : null}
    </form>
  <//>`;
}
