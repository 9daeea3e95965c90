// LogLine's service worker: shows Web Push notifications (phones, closed tabs) and opens the
// conversation or job they are about. The server sends only what its ledger holds: sender,
// conversation and the stored (redacted) text, already shortened.
// @ts-check

/** The worker's global scope (the page's DOM types do not describe it). @type {any} */
const sw = self;

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
