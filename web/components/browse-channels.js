// @ts-check
import { t } from "../i18n.js";
import { html, useEffect, useState } from "../lib/preact.js";
import { api } from "../api.js";
import { refreshAll } from "../actions.js";
import { navigate } from "../router.js";
import { setState, toast } from "../store.js";
import { ModalFrame } from "./modal-frame.js";

/** @typedef {import('../store.js').State} State */
/** @typedef {import('../types.js').Channel} Channel */

/**
 * Browse channels: the workspace's public channels by name, with how many are in each and
 * whether I am. Join puts me in one (and opens it); Open goes to one I am in. Nothing of a
 * channel's messages shows before joining: the server sends none to someone outside it.
 * @param {{ s: State }} props
 */
export function BrowseChannels({ s }) {
  const [q, setQ] = useState("");
  const [busy, setBusy] = useState(/** @type {string | null} */ (null));
  const [failed, setFailed] = useState(false);
  const close = () => setState({ dialog: null });

  useEffect(() => {
    api
      .listChannels()
      .then((r) => setState({ channels: r.channels }))
      .catch(() => setFailed(true));
  }, []);

  const mine = new Set(s.conversations.map((c) => c.conversation_id));
  const needle = q.trim().toLowerCase();
  const list = (s.channels ?? []).filter((c) => !needle || c.title.toLowerCase().includes(needle));
  /** @param {string} id */
  const open = (id) => {
    close();
    navigate(`/c/${encodeURIComponent(id)}`);
  };
  /** @param {Channel} c */
  const join = async (c) => {
    setBusy(c.conversation_id);
    try {
      await api.joinChannel(c.conversation_id);
      await refreshAll();
      open(c.conversation_id);
    } catch (err) {
      setBusy(null);
      toast(err instanceof Error ? err.message : t("channels.join_error"));
    }
  };

  /** @param {Channel} c */
  const row = (c) => {
    const joined = mine.has(c.conversation_id);
    return html`<li key=${c.conversation_id} class="channel-row">
      <span class="person-text"><span class="person-name"><span aria-hidden="true"># </span>${c.title}</span>
        <span class="person-sub">${t("channels.members", { count: c.member_count })}${joined ? ` · ${t("channels.joined")}` : ""}</span></span>
      ${
        joined
          ? html`<button type="button" class="btn btn-ghost" aria-label=${t("channels.open_named", { name: c.title })}
              onClick=${() => open(c.conversation_id)}>${t("channels.open")}</button>`
          : html`<button type="button" class="btn btn-primary" disabled=${busy !== null}
              aria-label=${t("channels.join_named", { name: c.title })} onClick=${() => join(c)}>
              ${busy === c.conversation_id ? html`<span class="spinner spinner-btn" aria-hidden="true"></span>` : null}${t("channels.join")}</button>`
      }
    </li>`;
  };

  return html`<${ModalFrame} title=${t("channels.title")} onClose=${close}>
    <div class="modal-form browse-channels">
      <p class="hint">${t("channels.hint")}</p>
      <input type="search" class="modal-search" placeholder=${t("channels.search")} aria-label=${t("channels.search")}
        value=${q} onInput=${(/** @type {any} */ e) => setQ(e.currentTarget.value)} />
      <ul class="people channels">
        ${
          failed
            ? html`<li class="conv-empty" role="alert">${t("channels.load_error")}</li>`
            : s.channels === null
              ? html`<li class="conv-empty">${t("common.loading")}</li>`
              : list.length === 0
                ? html`<li class="conv-empty">${t(needle ? "channels.none_match" : "channels.none")}</li>`
                : list.map(row)
        }
      </ul>
    </div>
  <//>`;
}
