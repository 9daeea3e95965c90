// LogLine's service worker: opens the app without a network and shows Web Push notifications.
//
// Offline: the gateway serves this file with `self.SHELL` set before it, the list of the app
// shell's files and a version made from their ETags. Installing caches that shell under its
// version; activating deletes every other version, so a release replaces the shell whole. While
// the network answers, everything comes from it (never a stale shell); when it does not, the
// shell and the person's last-seen data (who they are, the list, the directory, and the latest
// messages of the chats they opened) come from the caches. Only those few reads are kept, in one
// cache the page deletes on sign-out; this worker deletes it too when the session is gone or
// another person signs in. Writes are never kept here: the page holds an unsent message and
// sends it again, with the same Idempotency-Key, once it is back online.
//
// Push: the server sends only what its ledger holds: sender, conversation and the stored
// (redacted) text, already shortened; a click opens the conversation or job it is about.
// @ts-check

/** The worker's global scope (the page's DOM types do not describe it). @type {any} */
const sw = self;

/** @type {{ version: string, files: string[] }} */
const SHELL = sw.SHELL ?? { version: "unversioned", files: [] };
const SHELL_FILES = new Set(SHELL.files);
const SHELL_PREFIX = "logline-shell-";
const SHELL_CACHE = `${SHELL_PREFIX}${SHELL.version}`;
/** The signed-in person's last-seen reads (the page deletes it by this name on sign-out). */
const DATA_CACHE = "logline-data";

/**
 * The reads kept for offline use, by path: the session, the list, the directory, presence, and
 * a conversation's latest messages (its first page; older pages are never kept). Anything else
 * under /v1/ passes straight to the network.
 * @param {URL} url @returns {string | null} the cache key
 */
function dataKey(url) {
  const p = url.pathname;
  if (p === "/v1/session" || p === "/v1/conversations" || p === "/v1/entities" || p === "/v1/presence") return p;
  if (/^\/v1\/conversations\/[^/]+\/timeline$/.test(p) && !url.searchParams.has("before")) return p;
  return null;
}

sw.addEventListener("install", (/** @type {any} */ event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(SHELL_CACHE);
      await cache.addAll(SHELL.files.map((f) => new Request(f, { cache: "no-cache" })));
      await sw.skipWaiting();
    })(),
  );
});

sw.addEventListener("activate", (/** @type {any} */ event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys())
        if (name.startsWith(SHELL_PREFIX) && name !== SHELL_CACHE) await caches.delete(name);
      await sw.clients.claim();
    })(),
  );
});

/** The entity a kept session belongs to, or null. @returns {Promise<string | null>} */
async function keptPerson() {
  const kept = await (await caches.open(DATA_CACHE)).match("/v1/session");
  if (!kept) return null;
  try {
    const me = await kept.json();
    return me?.entity?.entity_id ?? me?.entity_id ?? null;
  } catch {
    return null;
  }
}

/** Network first; a good answer is kept, a failed network answers from what was kept. @param {Request} req @param {string} key */
async function keptRead(req, key) {
  let res;
  try {
    res = await fetch(req);
  } catch {
    const kept = await (await caches.open(DATA_CACHE)).match(key);
    return kept ?? Response.error();
  }
  if (key === "/v1/session" && (res.status === 401 || res.status === 403)) {
    // Signed out (or the session expired): nothing of the last person stays for the next.
    await caches.delete(DATA_CACHE);
    return res;
  }
  if (res.status !== 200) return res;
  const copy = res.clone();
  if (key === "/v1/session") {
    const before = await keptPerson();
    const now = await copy
      .clone()
      .json()
      .then((me) => me?.entity?.entity_id ?? me?.entity_id ?? null)
      .catch(() => null);
    if (before && before !== now) await caches.delete(DATA_CACHE);
  }
  await (await caches.open(DATA_CACHE)).put(key, copy);
  return res;
}

/** Network first for the shell; a failed network answers from this release's shell. @param {Request} req @param {string} key */
async function shellFile(req, key) {
  try {
    return await fetch(req);
  } catch {
    return (await (await caches.open(SHELL_CACHE)).match(key)) ?? Response.error();
  }
}

sw.addEventListener("fetch", (/** @type {any} */ event) => {
  /** @type {Request} */
  const req = event.request;
  if (req.method !== "GET") return;
  const url = new URL(req.url);
  if (url.origin !== sw.location.origin) return;
  if (url.pathname.startsWith("/v1/")) {
    const key = dataKey(url);
    if (key) event.respondWith(keptRead(req, key));
    return;
  }
  // Every page of the app is the same page (its client-side routes).
  if (req.mode === "navigate") {
    event.respondWith(shellFile(req, "/"));
    return;
  }
  if (SHELL_FILES.has(url.pathname) && !url.search) event.respondWith(shellFile(req, url.pathname));
});

sw.addEventListener("push", (/** @type {any} */ event) => {
  let n;
  try {
    n = event.data ? event.data.json() : null;
  } catch {
    n = null;
  }
  if (!n || typeof n.title !== "string") return;
  event.waitUntil(
    sw.clients.matchAll({ type: "window", includeUncontrolled: true }).then((/** @type {any[]} */ windows) => {
      // A tab the person is looking at already shows it live.
      if (windows.some((/** @type {any} */ w) => w.visibilityState === "visible")) return undefined;
      return sw.registration.showNotification(n.title, { body: n.body ?? "", tag: n.tag, data: { url: n.url } });
    }),
  );
});

sw.addEventListener("notificationclick", (/** @type {any} */ event) => {
  event.notification.close();
  const path = event.notification.data?.url;
  // Only paths of this app: a notification never sends anyone elsewhere.
  const target = new URL(
    typeof path === "string" && path.startsWith("/") && !path.startsWith("//") ? path : "/",
    sw.location.origin,
  ).href;
  event.waitUntil(
    sw.clients.matchAll({ type: "window", includeUncontrolled: true }).then(async (/** @type {any[]} */ windows) => {
      const open = windows.find((/** @type {any} */ w) => new URL(w.url).origin === sw.location.origin);
      if (!open) return sw.clients.openWindow(target);
      await open.focus();
      return open.navigate(target);
    }),
  );
});
