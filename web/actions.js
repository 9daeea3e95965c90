// @ts-check
// What a person can do, as functions over the api and the store. Components call these; none of
// them touches fetch.
import { argumentsFrom, fieldsFor } from "./tool-form.js";
import { api, ApiError, newKey } from "./api.js";
import { noteOlder } from "./history.js";
import { ACTION_VERBS } from "./lib/facts.js";
import { announceAction } from "./announce.js";
import { loadLocale, t } from "./i18n.js";
import { loadPins } from "./message-links.js";
import { markDeliveredSoon, markReadSoon, typingDone } from "./read-marks.js";
import { dropOutgoing, isOffline, keepOutgoing, keptOutgoing, whenOnline } from "./offline.js";
import {
  addLocal,
  getState,
  mergeConversation,
  mergeItems,
  mergeJob,
  removeLocal,
  setButton,
  setConversations,
  setEntities,
  setPresence,
  setState,
  toast,
  updateLocal,
} from "./store.js";

/** @typedef {import('./types.js').Accepted} Accepted */
/** @typedef {import('./types.js').CardButton} CardButton */
/** @typedef {import('./types.js').JobCard} JobCard */

/** @param {any} r @returns {any[]} */
const itemsOf = (r) => (Array.isArray(r) ? r : Array.isArray(r?.items) ? r.items : []);

/** Loads who I am and the directory; resolves false when there is no session. */
export async function loadSession() {
  try {
    const me = await api.me();
    const m = me?.entity ?? me;
    // The profile's language (or "Automatic") before the signed-in views render.
    if (m.locale) await loadLocale(m.locale).catch((e) => console.error(e));
    setState({
      me: {
        entity_id: m.entity_id,
        tenant_id: m.tenant_id ?? me.tenant_id,
        display_name: m.display_name ?? t("common.you"),
        roles: m.roles,
        email: m.email ?? null,
        read_receipts: m.read_receipts !== false,
        calls: me?.calls === true,
      },
      signedOut: false,
    });
    if (me?.entity) setEntities([me.entity]);
    return true;
  } catch (e) {
    if (e instanceof ApiError && (e.status === 401 || e.status === 403)) {
      setState({ me: null, signedOut: true, booted: true });
      return false;
    }
    throw e;
  }
}

/** Refreshes the list, directory and presence; returns the list's cursor. */
export async function refreshAll() {
  const [list, ents, pres] = await Promise.all([
    api.listConversations(),
    api.listEntities().catch(() => null),
    api.listPresence().catch(() => null),
  ]);
  if (ents) setEntities(itemsOf(ents));
  for (const p of itemsOf(pres)) if (p?.entity_id) setPresence(p.entity_id, p);
  setConversations(itemsOf(list));
  // What waits unread has reached this device: its senders see ✓✓.
  if (typeof list?.cursor === "string")
    for (const c of getState().conversations) if (c.unread_count) markDeliveredSoon(c.conversation_id, list.cursor);
  const cid = getState().route.conversationId;
  // Pins follow the stream; after a gap the stream could not fill, the list is read again too.
  if (cid) await Promise.all([loadTimeline(cid), loadPins(cid)]);
  const d = getState().drawer;
  if (d) await loadDrawer(d.job_id);
  return typeof list?.cursor === "string" ? list.cursor : null;
}

/** @param {string} cid */
export async function loadTimeline(cid) {
  try {
    const r = await api.timeline(cid);
    mergeItems(cid, itemsOf(r), { replace: true });
    noteOlder(cid, r?.next_cursor);
    // After the items: a card only knows the state it was posted in, the server knows the job's
    // state now (a rejected or cancelled job has no later card to say so).
    for (const j of Array.isArray(r?.jobs) ? r.jobs : []) mergeJob(j);
    markReadSoon(cid);
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) toast(t("actions.no_conversation"));
    else throw e;
  }
}

/**
 * Shows an optimistic bubble and sends; the bubble's retry repeats the call with the same
 * idempotency key, so a retry never executes twice. Without a network the bubble waits, and
 * the same call (same key) goes as soon as the browser is back online. A text (`kept`) waits on
 * the device too: closed and opened again, the page sends it then, with the same key.
 * @param {string} cid @param {string} prefix of the local id @param {string} text what the bubble says
 * @param {(localId: string, key: string) => Promise<Accepted>} call
 * @param {(e: unknown) => void} onFail
 * @param {{ again?: import('./offline.js').Outgoing, keep?: (localId: string, key: string, ts: string) => import('./offline.js').Outgoing }} [kept]
 *   `again`: a text kept from an earlier page, sent now; `keep`: how to keep this one while it waits
 */
function sendWithBubble(cid, prefix, text, call, onFail, kept = {}) {
  const localId = kept.again?.local_id ?? `${prefix}_${newKey().slice(3)}`;
  const key = kept.again?.key ?? newKey();
  const ts = kept.again?.ts ?? new Date().toISOString();
  const record = kept.again ?? kept.keep?.(localId, key, ts);
  const attempt = () => {
    updateLocal(cid, localId, { status: isOffline() ? "queued" : "sending" });
    call(localId, key).then(
      (r) => {
        if (record) void dropOutgoing(key);
        updateLocal(cid, localId, { status: "sent", event_ids: r?.created_event_ids ?? [] });
      },
      (e) => {
        if (e instanceof ApiError && e.code === "NETWORK" && isOffline()) {
          if (record) void keepOutgoing(record);
          updateLocal(cid, localId, { status: "queued" });
          whenOnline(attempt);
          return;
        }
        if (record) void dropOutgoing(key);
        updateLocal(cid, localId, { status: "failed" });
        onFail(e);
      },
    );
  };
  addLocal(cid, {
    local_id: localId,
    kind: "text",
    text,
    ts,
    status: isOffline() ? "queued" : "sending",
    event_ids: [],
    retry: attempt,
  });
  attempt();
}

/**
 * After the app starts: the texts this person left waiting on this device (the page was closed
 * before the network came back) show as waiting bubbles again and go, each once, with its own key.
 */
export async function sendKept() {
  const me = getState().me?.entity_id;
  if (!me) return;
  for (const o of await keptOutgoing(me)) {
    if (getState().locals[o.cid]?.some((l) => l.local_id === o.local_id)) continue;
    sendWithBubble(
      o.cid,
      "lm",
      o.text,
      (localId, key) => api.sendText(o.cid, o.text, localId, key, o.reply_to, o.mentions),
      () => {},
      { again: o },
    );
  }
}

/** @param {string} cid @param {string} text */
/**
 * The /run form: the tool's input schema as the input modal; submitting sends
 * `/run <tool> {arguments}`, which the agent checks again before anything runs. Returns false
 * (and the text is sent as typed) when the tools cannot be read.
 * @param {string} cid @param {string} tool
 */
export function openRunForm(cid, tool) {
  api.conversationTools(cid).then(
    (r) => {
      const spec = (r.tools ?? []).find((/** @type {{ name: string }} */ x) => x.name === tool);
      if (!spec) {
        sendText(cid, `/run ${tool}`);
        return;
      }
      const fields = fieldsFor(spec.input_schema);
      if (!fields.length) {
        sendText(cid, `/run ${tool}`);
        return;
      }
      setState({
        dialog: {
          type: "input",
          title: t("run.title", { tool: spec.name }),
          body:
            spec.mode === "approve"
              ? t("run.body_approve", { about: (spec.title ?? spec.description).slice(0, 200) })
              : (spec.title ?? spec.description).slice(0, 200),
          schema: { fields },
          submitLabel: t(spec.mode === "approve" ? "run.propose" : "run.run"),
          onSubmit: async (/** @type {Record<string, string|number|boolean>} */ values) => {
            sendText(cid, `/run ${spec.name} ${JSON.stringify(argumentsFrom(spec.input_schema, values))}`);
          },
        },
      });
    },
    () => sendText(cid, `/run ${tool}`),
  );
  return true;
}

/** @param {string} cid @param {string} text @param {string} [replyTo] the message this one answers @param {string[]} [mentions] entity ids the text mentions */
export function sendText(cid, text, replyTo, mentions) {
  typingDone(cid);
  sendWithBubble(
    cid,
    "lm",
    text,
    (localId, key) => api.sendText(cid, text, localId, key, replyTo, mentions),
    (e) => {
      // A refused job reference says why (the server stored nothing): pick the job again.
      if (e instanceof ApiError && e.code === "INVALID_TOKEN") toast(e.message);
    },
    {
      keep: (localId, key, ts) => ({
        key,
        local_id: localId,
        entity_id: getState().me?.entity_id ?? "",
        cid,
        text,
        ts,
        ...(replyTo ? { reply_to: replyTo } : {}),
        ...(mentions?.length ? { mentions } : {}),
      }),
    },
  );
}

/**
 * Sends a card button's action. Resolves when the server accepted it; rejects with the
 * ApiError so an open input modal can show field errors in place.
 * @param {{ card_id: string, job_id: string, conversation_id?: string, card_type?: string, title?: string }} card
 * @param {CardButton} button
 * @param {Record<string, string|number|boolean>} [input]
 */
export async function runAction(card, button, input) {
  const action = button.action;
  const cid = card.conversation_id ?? getState().route.conversationId ?? "";
  const bkey = `${card.card_id}:${button.button_id}`;
  const name = getState().me?.display_name ?? "You";
  const title = card.title ?? getState().jobs[card.job_id]?.title;
  // The same words the gateway's own action message uses (ACTION_VERBS comes from the server).
  const phrase = `${name} ${ACTION_VERBS[action.type] ?? action.type} ${title ? `“${title}”` : "the job"}`;
  const localId = `la_${newKey().slice(3)}`;
  const key = newKey();
  const body = {
    conversation_id: cid || undefined,
    card_id: card.card_id,
    button_id: button.button_id,
    action,
    ...(input ? { input } : {}),
  };
  setButton(bkey, { status: "pending" });
  const send = async () => {
    updateLocal(cid, localId, { status: "sending" });
    try {
      const r = await api.jobAction(card.job_id, body, key);
      setButton(bkey, { status: "done" });
      announceAction(
        t(action.type in ACTION_VERBS ? `announce.you.${action.type}` : "announce.you.other", {
          title: title || t("card.untitled"),
        }),
      );
      updateLocal(cid, localId, { status: "sent", event_ids: r?.created_event_ids ?? [] });
      return r;
    } catch (e) {
      const fieldErrors =
        e instanceof ApiError && (e.code === "VALIDATION_ERROR" || e.code === "INVALID_INPUT") && input;
      // Refused (a 4xx other than timeouts and rate limits): nothing happened, so no bubble may
      // say it did; the card shows the server's reason. A lost connection keeps a retryable bubble.
      const refused =
        e instanceof ApiError && e.status >= 400 && e.status < 500 && e.status !== 408 && e.status !== 429;
      setButton(
        bkey,
        fieldErrors
          ? null
          : {
              status: "error",
              message: e instanceof Error ? e.message : t("card.action_failed"),
              ...(refused ? { refused: true } : {}),
            },
      );
      if (fieldErrors || refused) removeLocal(cid, localId);
      else updateLocal(cid, localId, { status: "failed" });
      throw e;
    }
  };
  if (cid)
    addLocal(cid, {
      local_id: localId,
      kind: "action",
      text: phrase,
      ts: new Date().toISOString(),
      status: "sending",
      event_ids: [],
      retry: () => void send().catch(() => {}),
    });
  return send();
}

/** Mutes or unmutes a conversation for me; the list shows what the server saved. @param {string} cid @param {boolean} muted */
export async function toggleMute(cid, muted) {
  try {
    const r = await api.setMute(cid, muted);
    mergeConversation({ conversation_id: cid, muted: r.muted });
    toast(r.muted ? t("actions.muted") : t("actions.unmuted"));
  } catch {
    toast(t("actions.mute_error"));
  }
}

/** @param {string} jobId */
export async function loadDrawer(jobId) {
  try {
    const data = await api.getJob(jobId);
    if (getState().drawer?.job_id !== jobId) return data;
    setState({ drawer: { job_id: jobId, data, error: null } });
    mergeJob({
      job_id: jobId,
      conversation_id: data.conversation_id,
      title: data.title,
      state: data.state,
      updated_at: data.updated_at,
      available_actions: data.available_actions,
    });
    return data;
  } catch (e) {
    if (getState().drawer?.job_id === jobId)
      setState({
        drawer: { job_id: jobId, data: null, error: e instanceof Error ? e.message : t("drawer.load_failed") },
      });
    return null;
  }
}

/** Prefills the composer (Ask in chat never sends on its own). @param {string} cid @param {string} text */
export function prefillComposer(cid, text) {
  setState((s) => ({ prefill: { conversationId: cid, text, n: (s.prefill?.n ?? 0) + 1 } }));
}

/** @param {string} text */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    toast(t("actions.copied"));
  } catch {
    toast(text);
  }
}
