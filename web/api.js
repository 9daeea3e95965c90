// @ts-check
import { t } from "./i18n.js";
import { STREAM_EVENTS } from "./lib/facts.js";
// The only module that talks to the server (fetch, XMLHttpRequest for uploads, EventSource). Auth is the HttpOnly session
// cookie set by POST /v1/session; because a cookie rides along on any same-site request, every
// write also carries the CSRF header the gateway requires for cookie-authed writes, and an
// Idempotency-Key so a retry (or a double click) never executes twice.

/** @typedef {import('./types.js').Accepted} Accepted */

export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} code
   * @param {string} message
   * @param {Record<string, unknown>} [details]
   */
  constructor(status, code, message, details) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details ?? {};
  }
}

/** A fresh idempotency key; callers keep it to retry the very same command. */
export function newKey() {
  const c = globalThis.crypto;
  if (c && typeof c.randomUUID === "function") return `ui:${c.randomUUID()}`;
  const b = new Uint8Array(16);
  c.getRandomValues(b);
  return `ui:${Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("")}`;
}

/**
 * @param {string} method
 * @param {string} path
 * @param {{ body?: unknown, form?: FormData | Blob, key?: string, headers?: Record<string,string> }} [opts]
 * @returns {Promise<any>}
 */
export async function request(method, path, opts = {}) {
  /** @type {Record<string,string>} */
  const headers = { Accept: "application/json", ...(opts.headers ?? {}) };
  if (method !== "GET") {
    headers["X-LogLine-CSRF"] = "1";
    headers["Idempotency-Key"] = opts.key ?? newKey();
  }
  /** @type {BodyInit | undefined} */
  let body;
  if (opts.form) body = opts.form;
  else if (opts.body !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(opts.body);
  }
  let res;
  try {
    res = await fetch(path, { method, headers, body, credentials: "same-origin" });
  } catch {
    throw new ApiError(0, "NETWORK", t("api.offline"));
  }
  const text = await res.text();
  /** @type {any} */
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    const e = data?.error;
    throw new ApiError(res.status, e?.code ?? `HTTP_${res.status}`, e?.message ?? res.statusText, e?.details);
  }
  return data;
}

const enc = encodeURIComponent;

/**
 * Uploads one file with XMLHttpRequest, the one browser API that reports upload progress; the
 * same CSRF and Idempotency-Key headers as every other write, and the same error shape.
 * @param {string} id conversation @param {File} file
 * @param {{ key: string, caption?: string, durationMs?: number, onProgress?: (fraction: number) => void }} opts
 * @returns {{ done: Promise<Accepted>, abort: () => void }}
 */
export function uploadWithProgress(id, file, opts) {
  const xhr = new XMLHttpRequest();
  const form = new FormData();
  form.append("file", file, file.name);
  if (opts.caption) form.append("caption", opts.caption);
  if (opts.durationMs) form.append("duration_ms", String(Math.max(1, Math.round(opts.durationMs))));
  const done = new Promise((resolve, reject) => {
    xhr.open("POST", `/v1/conversations/${enc(id)}/attachments`);
    xhr.withCredentials = true;
    xhr.setRequestHeader("Accept", "application/json");
    xhr.setRequestHeader("X-LogLine-CSRF", "1");
    xhr.setRequestHeader("Idempotency-Key", opts.key);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && opts.onProgress) opts.onProgress(e.total ? e.loaded / e.total : 0);
    };
    xhr.onload = () => {
      /** @type {any} */
      let data = null;
      try {
        data = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        data = null;
      }
      if (xhr.status >= 200 && xhr.status < 300) return resolve(data);
      const e = data?.error;
      reject(new ApiError(xhr.status, e?.code ?? `HTTP_${xhr.status}`, e?.message ?? xhr.statusText, e?.details));
    };
    xhr.onerror = () => reject(new ApiError(0, "NETWORK", t("api.offline")));
    xhr.onabort = () => reject(new ApiError(0, "ABORTED", t("api.upload_cancelled")));
    xhr.send(form);
  });
  return { done, abort: () => xhr.abort() };
}

export const api = {
  /** @param {string} token */
  signIn: (token) => request("POST", "/v1/session", { body: { token } }),
  /** @returns {Promise<any>} who the session belongs to */
  me: () => request("GET", "/v1/session"),
  /** Signs this session out: its token is revoked, the cookie cleared. */
  signOut: () => request("DELETE", "/v1/session"),
  /** @returns {Promise<{ email_links: boolean, link_ttl_seconds: number }>} what the sign-in page can offer */
  signInOptions: () => request("GET", "/v1/sign-in-options"),
  /** @returns {Promise<{ url: string, expires_at: string, ttl_seconds: number, qr_data_url: string }>} a one-time link for another device */
  createSignInLink: () => request("POST", "/v1/sign-in-links", { body: {} }),
  /** @param {string} code @returns {Promise<{ token: string, display_name: string, entity_id: string, session_id: string }>} */
  redeemSignInLink: (code) => request("POST", "/v1/sign-in-links/redeem", { body: { code } }),
  /** @param {string} email @returns {Promise<{ accepted: true, message: string }>} */
  emailSignInLink: (email) => request("POST", "/v1/sign-in-links/email", { body: { email } }),
  /** @returns {Promise<{ sessions: import('./types.js').SessionInfo[] }>} my sessions, this one marked */
  listSessions: () => request("GET", "/v1/sessions"),
  /** @param {string} sessionId */
  endSession: (sessionId) => request("DELETE", `/v1/sessions/${enc(sessionId)}`),
  /** @returns {Promise<any>} options for navigator.credentials.create() */
  passkeyRegistrationOptions: () => request("POST", "/v1/passkeys/registration-options", { body: {} }),
  /** @param {unknown} response the new credential as JSON @returns {Promise<import('./types.js').PasskeyInfo>} */
  registerPasskey: (response) => request("POST", "/v1/passkeys", { body: { response } }),
  /** @returns {Promise<{ passkeys: import('./types.js').PasskeyInfo[] }>} my passkeys */
  listPasskeys: () => request("GET", "/v1/passkeys"),
  /** @param {string} passkeyId */
  removePasskey: (passkeyId) => request("DELETE", `/v1/passkeys/${enc(passkeyId)}`),
  /** @returns {Promise<any>} options for navigator.credentials.get() */
  passkeySignInOptions: () => request("POST", "/v1/passkeys/sign-in-options", { body: {} }),
  /** @param {unknown} response the signed challenge as JSON @returns {Promise<{ token: string, display_name: string, entity_id: string, session_id: string }>} */
  signInWithPasskey: (response) => request("POST", "/v1/passkeys/sign-in", { body: { response } }),

  listConversations: () => request("GET", "/v1/conversations"),
  /** @param {string} id */
  timeline: (id) => request("GET", `/v1/conversations/${enc(id)}/timeline?limit=500`),
  /** A conversation's latest messages only: read ahead so the service worker keeps them for offline use. @param {string} id */
  latestMessages: (id) => request("GET", `/v1/conversations/${enc(id)}/timeline?limit=50`),
  /** Older history: the page of items just before `before`. @param {string} id @param {string} before @param {number} limit */
  timelineBefore: (id, before, limit) =>
    request("GET", `/v1/conversations/${enc(id)}/timeline?limit=${limit}&before=${enc(before)}`),
  /**
   * Messages of my conversations with these words, newest first.
   * @param {string} q @param {{ conversation_id?: string, before?: string, limit?: number }} [opts]
   * @returns {Promise<import('./types.js').SearchResults>}
   */
  search: (q, opts = {}) => {
    const p = new URLSearchParams({ q });
    if (opts.conversation_id) p.set("conversation_id", opts.conversation_id);
    if (opts.before) p.set("before", opts.before);
    if (opts.limit) p.set("limit", String(opts.limit));
    return request("GET", `/v1/search?${p}`);
  },
  /** @param {{ title?: string, participants: {entity_id:string}[], visibility?: 'public' | 'private' }} body */
  createConversation: (body) => request("POST", "/v1/conversations", { body }),
  /** The workspace's public channels. @returns {Promise<{ channels: import('./types.js').Channel[] }>} */
  listChannels: () => request("GET", "/v1/channels"),
  /** Send a text here later. @param {string} id @param {string} body_text @param {{ send_at: string } | { in_minutes: number }} when */
  scheduleMessage: (id, body_text, when) =>
    request("POST", `/v1/conversations/${enc(id)}/scheduled`, { body: { body_text, ...when } }),
  /** Remind me of a message. @param {string} id @param {string} messageId @param {{ send_at: string } | { in_minutes: number }} when */
  remindMe: (id, messageId, when) =>
    request("POST", `/v1/conversations/${enc(id)}/messages/${enc(messageId)}/remind`, { body: when }),
  /** @returns {Promise<{ items: import('../contracts/scheduled').TScheduledMessage[] }>} */
  listScheduled: () => request("GET", "/v1/scheduled"),
  /** @param {string} id @param {{ body_text?: string, send_at?: string, in_minutes?: number }} body */
  editScheduled: (id, body) => request("PATCH", `/v1/scheduled/${enc(id)}`, { body }),
  /** @param {string} id */
  cancelScheduled: (id) => request("DELETE", `/v1/scheduled/${enc(id)}`),
  /** Join a public channel myself. @param {string} id */
  joinChannel: (id) => request("POST", `/v1/conversations/${enc(id)}/join`),
  /**
   * @param {string} id @param {string} text @param {string} clientId @param {string} key
   * @param {string} [replyTo] @param {string[]} [mentions] entity ids the text mentions
   * @param {string} [threadRoot] a reply in this message's thread
   * @returns {Promise<Accepted>}
   */
  sendText: (id, text, clientId, key, replyTo, mentions, threadRoot) =>
    request("POST", `/v1/conversations/${enc(id)}/messages`, {
      body: {
        kind: "text",
        body_text: text,
        client_message_id: clientId,
        ...(replyTo ? { reply_to_message_id: replyTo } : {}),
        ...(mentions?.length ? { mentions: mentions.map((entity_id) => ({ entity_id })) } : {}),
        ...(threadRoot ? { thread_root_message_id: threadRoot } : {}),
      },
      key,
    }),
  /** @param {string} id @param {string} cursor */
  /** Add a person or agent of the workspace. @param {string} id @param {string} entityId */
  addMember: (id, entityId) =>
    request("POST", `/v1/conversations/${enc(id)}/members`, { body: { entity_id: entityId } }),
  /** Leave (my own id) or remove someone. @param {string} id @param {string} entityId */
  removeMember: (id, entityId) => request("DELETE", `/v1/conversations/${enc(id)}/members/${enc(entityId)}`),
  /** Rename a group. @param {string} id @param {string} title */
  renameConversation: (id, title) => request("PUT", `/v1/conversations/${enc(id)}/title`, { body: { title } }),
  markRead: (id, cursor) => request("POST", `/v1/conversations/${enc(id)}/read`, { body: { cursor } }),
  /** I am typing here (nothing stored; no Idempotency-Key). @param {string} id */
  typing: (id) => request("POST", `/v1/conversations/${enc(id)}/typing`, { body: {} }),
  /** It reached this device, not read yet (the sender's ✓✓). @param {string} id @param {string} cursor */
  markDelivered: (id, cursor) =>
    request("POST", `/v1/conversations/${enc(id)}/read`, { body: { cursor, mark: "delivered" } }),

  /** @param {string} jobId */
  getJob: (jobId) => request("GET", `/v1/jobs/${enc(jobId)}`),
  /**
   * @param {string} jobId
   * @param {{ conversation_id?: string, card_id: string, button_id: string, action: import('./types.js').CardAction, input?: Record<string, string|number|boolean> }} body
   * @param {string} key
   * @returns {Promise<Accepted>}
   */
  jobAction: (jobId, body, key) => request("POST", `/v1/jobs/${enc(jobId)}/actions`, { body, key }),

  /** @param {string} cid @returns {Promise<import('./types.js').ThreadContext>} */
  threadContext: (cid) => request("GET", `/v1/conversations/${enc(cid)}/context`),
  /** Pin (or unpin with null) a job for the conversation. @param {string} cid @param {string | null} jobId */
  setPin: (cid, jobId) => request("POST", `/v1/conversations/${enc(cid)}/context/pin`, { body: { job_id: jobId } }),
  /** The ActionSummary's Change: the job the next message defaults to. @param {string} cid @param {string | null} jobId */
  setTarget: (cid, jobId) =>
    request("POST", `/v1/conversations/${enc(cid)}/context/target`, { body: { job_id: jobId } }),
  /** @param {string} jobId @returns {Promise<import('./types.js').AssistResponse>} */
  assist: (jobId) => request("GET", `/v1/jobs/${enc(jobId)}/assist`),
  /** @param {string} jobId @param {string} suggestionId @param {boolean} confirm */
  applySuggestion: (jobId, suggestionId, confirm) =>
    request("POST", `/v1/jobs/${enc(jobId)}/assist/${enc(suggestionId)}/apply`, {
      body: confirm ? { confirm: true } : {},
    }),

  listEntities: () => request("GET", "/v1/entities"),
  listPresence: () => request("GET", "/v1/presence"),
  listContacts: () => request("GET", "/v1/contacts"),
  /** @param {{ display_name: string, email?: string, phone?: string, company?: string }} body */
  addContact: (body) => request("POST", "/v1/contacts", { body }),
  /** Admins only: the contact's addresses are erased for good. @param {string} contactId */
  deleteContact: (contactId) => request("DELETE", `/v1/contacts/${enc(contactId)}`),
  /** The MCP tools the conversation's agent may use, with their input schemas. @param {string} cid */
  conversationTools: (cid) => request("GET", `/v1/conversations/${enc(cid)}/tools`),

  /** @param {{ name: string, owner: { display_name: string } }} body */
  createWorkspace: (body) => request("POST", "/v1/workspaces", { body }),
  /** @param {{ display_name?: string, roles?: string[] }} body */
  createInvite: (body) => request("POST", "/v1/invites", { body }),
  /** @param {string} token @param {string} displayName */
  acceptInvite: (token, displayName) =>
    request("POST", `/v1/invites/${enc(token)}/accept`, { body: { display_name: displayName } }),
  /** @param {{ display_name: string, role: string, capabilities: string[], allowed_tools?: string[] }} body */
  createAgent: (body) => request("POST", "/v1/agents", { body }),
  /** Your own address (null removes it): invites you ask for list you as an attendee. @param {string | null} email */
  setMyEmail: (email) => request("PUT", "/v1/me/email", { body: { email } }),
  /** My display name, time zone (IANA) or language. @param {{ display_name?: string, time_zone?: string, locale?: string, email_digest?: boolean, read_receipts?: boolean }} body */
  updateProfile: (body) => request("PUT", "/v1/me/profile", { body }),
  /** My profile picture (a PNG, JPEG, GIF or WebP the server checks). @param {File} file */
  setAvatar: (file) => {
    const form = new FormData();
    form.append("file", file, file.name);
    return request("POST", "/v1/me/avatar", { form });
  },
  /** Back to initials. */
  removeAvatar: () => request("DELETE", "/v1/me/avatar"),
  /** @returns {Promise<{ enabled: boolean, available: boolean, reason?: "mail_not_configured" | "no_email", after_minutes: number }>} my e-mail digest */
  digestSettings: () => request("GET", "/v1/me/digest"),
  /** The job's owner becomes a person of its conversation. @param {string} jobId @param {string} to @param {string} [note] */
  handOver: (jobId, to, note) =>
    request("POST", `/v1/jobs/${enc(jobId)}/hand-over`, {
      body: note ? { to_entity_id: to, note } : { to_entity_id: to },
    }),
  /** The job's causal chain from the ledger. @param {string} jobId @returns {Promise<{ job_id: string, title: string, lines: Array<{ event_id: string, event_type: string, ts: string, text: string, url: string }> }>} */
  why: (jobId) => request("GET", `/v1/jobs/${enc(jobId)}/why`),

  /** My new text for one of my messages. @param {string} cid @param {string} mid @param {string} text */
  editMessage: (cid, mid, text) =>
    request("PATCH", `/v1/conversations/${enc(cid)}/messages/${enc(mid)}`, { body: { body_text: text } }),
  /** Withdraws a message (mine, or any as an admin). @param {string} cid @param {string} mid */
  deleteMessage: (cid, mid) => request("DELETE", `/v1/conversations/${enc(cid)}/messages/${enc(mid)}`),
  /** My reaction on (or off) a message. @param {string} cid @param {string} mid @param {string} emoji @param {boolean} on */
  react: (cid, mid, emoji, on) =>
    request("POST", `/v1/conversations/${enc(cid)}/messages/${enc(mid)}/reactions`, { body: { emoji, on } }),
  /** One message, for a link to it (404 when I may not read it). @param {string} cid @param {string} mid @returns {Promise<{ conversation_id: string, item: import('./types.js').TimelineItem }>} */
  getMessage: (cid, mid) => request("GET", `/v1/conversations/${enc(cid)}/messages/${enc(mid)}`),
  /** A copy of a text message into another of my conversations. @param {string} cid @param {string} mid @param {string} to */
  forwardMessage: (cid, mid, to) =>
    request("POST", `/v1/conversations/${enc(cid)}/messages/${enc(mid)}/forward`, { body: { to_conversation_id: to } }),
  /** Pin a message to its conversation (or unpin it). @param {string} cid @param {string} mid @param {boolean} on */
  pinMessage: (cid, mid, on) =>
    request("POST", `/v1/conversations/${enc(cid)}/messages/${enc(mid)}/pin`, { body: { on } }),
  /** Takes the preview of one of my message's links off, for everyone. @param {string} cid @param {string} mid @param {string} url */
  removePreview: (cid, mid, url) =>
    request("POST", `/v1/conversations/${enc(cid)}/messages/${enc(mid)}/previews/remove`, { body: { url } }),
  /** Start a call: a Jitsi Meet room posted here as a message. @param {string} cid @returns {Promise<{ message_id: string, url: string }>} */
  startCall: (cid) => request("POST", `/v1/conversations/${enc(cid)}/call`),
  /** The conversation's pinned messages, in pin order. @param {string} cid @returns {Promise<{ items: import('./types.js').TimelineItem[] }>} */
  listPins: (cid) => request("GET", `/v1/conversations/${enc(cid)}/pins`),
  /** A thread: its root, replies and my mark. @param {string} cid @param {string} root @returns {Promise<import('./threads.js').ThreadView>} */
  getThread: (cid, root) => request("GET", `/v1/conversations/${enc(cid)}/threads/${enc(root)}`),
  /** The threads of a conversation I follow. @param {string} cid @returns {Promise<{ threads: { root_message_id: string, following: boolean, unread_count: number }[] }>} */
  listThreadMarks: (cid) => request("GET", `/v1/conversations/${enc(cid)}/threads`),
  /** Follow a thread, or stop. @param {string} cid @param {string} root @param {boolean} on */
  followThread: (cid, root, on) =>
    request("POST", `/v1/conversations/${enc(cid)}/threads/${enc(root)}/follow`, { body: { on } }),
  /** I have read the thread up to `cursor`. @param {string} cid @param {string} root @param {string} cursor */
  readThread: (cid, root, cursor) =>
    request("POST", `/v1/conversations/${enc(cid)}/threads/${enc(root)}/read`, { body: { cursor } }),

  /** Nothing in the conversation notifies me while muted. @param {string} cid @param {boolean} muted */
  setMute: (cid, muted) => request("PUT", `/v1/conversations/${enc(cid)}/mute`, { body: { muted } }),
  /** @returns {Promise<{ public_key: string }>} the key this server's push subscriptions use */
  vapidPublicKey: () => request("GET", "/v1/push/vapid-public-key"),
  /** This browser gets my notifications. @param {PushSubscriptionJSON} sub */
  subscribePush: (sub) => request("POST", "/v1/push/subscriptions", { body: sub }),
  /** @param {string} endpoint */
  unsubscribePush: (endpoint) => request("DELETE", "/v1/push/subscriptions", { body: { endpoint } }),

  /**
   * Opens the SSE stream. Frames are named events; `error` frames share their name with the
   * EventSource's own error event, so a frame is told apart by carrying data.
   * @param {string | null} cursor
   * @param {{ onFrame: (name: string, data: any, id: string) => void, onOpen: () => void, onDown: (closed: boolean) => void }} h
   */
  openStream(cursor, h) {
    const url = cursor ? `/v1/stream?cursor=${enc(cursor)}` : "/v1/stream";
    const es = new EventSource(url, { withCredentials: true });
    // The server's own list (contracts/sse.ts); "error" frames come through the handler below.
    const names = STREAM_EVENTS.filter((n) => n !== "error");
    for (const name of names) {
      es.addEventListener(name, (ev) => {
        const m = /** @type {MessageEvent} */ (ev);
        let data = null;
        try {
          data = JSON.parse(m.data);
        } catch {
          return;
        }
        h.onFrame(name, data, m.lastEventId);
      });
    }
    es.addEventListener("error", (ev) => {
      if (ev instanceof MessageEvent && typeof ev.data === "string" && ev.data) {
        let data = null;
        try {
          data = JSON.parse(ev.data);
        } catch {
          data = { code: "UNKNOWN" };
        }
        h.onFrame("error", data, ev.lastEventId);
        return;
      }
      h.onDown(es.readyState === EventSource.CLOSED);
    });
    es.onopen = () => h.onOpen();
    return { close: () => es.close() };
  },
};
