// @ts-check
import { t } from "./i18n.js";
// Telling the person: the unread total in the tab's title and favicon, the browser's
// Notification API while the tab is hidden, and Web Push (web/sw.js) for phones and closed
// tabs. Permission is asked only from the in-app banner, never on load.
import { api } from "./api.js";
import { navigate } from "./router.js";
import { getState, setState, subscribe } from "./store.js";

const DISMISSED_KEY = "logline.notify-prompt-dismissed";

/** Unread across the conversations the person has not muted. @param {import('./store.js').State} s */
function unreadTotal(s) {
  return s.conversations.reduce((n, c) => n + (c.muted ? 0 : c.unread_count || 0), 0);
}

/** The favicon: the app's mark, with a red count when something is unread. @param {number} n */
function faviconHref(n) {
  const label = n > 99 ? "99+" : String(n);
  const badge = n
    ? `<circle cx="22" cy="10" r="10" fill="#d93025"/><text x="22" y="14.5" font-family="sans-serif" font-size="${label.length > 2 ? 9 : 13}" font-weight="700" text-anchor="middle" fill="#fff">${label}</text>`
    : "";
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect x="2" y="6" width="24" height="24" rx="6" fill="#0b6e5f"/><path d="M8 20h12M8 15h8" stroke="#fff" stroke-width="2.5" stroke-linecap="round"/>${badge}</svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

/** The view's name for the tab: the conversation, the page, or nothing on the home list. @param {import('./store.js').State} s */
function viewTitle(s) {
  const r = s.route;
  if (!s.me)
    return r.name === "onboarding"
      ? t("title.onboarding")
      : r.name === "invite"
        ? t("title.invite")
        : t("title.signin");
  if (r.conversationId)
    return s.conversations.find((c) => c.conversation_id === r.conversationId)?.title ?? t("chat.conversation");
  if (r.name === "job") return s.drawer?.data?.title ?? t("drawer.job");
  return ["contacts", "outbox", "tools", "admin", "onboarding"].includes(r.name) ? t(`title.${r.name}`) : "";
}

let shownCount = -1;
let shownTitle = "";
/** Keeps the title ("(3) Ana · LogLine": unread, the view, the app) and the favicon badge current, live. */
export function startTabBadge() {
  const update = () => {
    const s = getState();
    const n = unreadTotal(s);
    const view = viewTitle(s);
    const badge = n > 99 ? "99+" : String(n);
    const title = view ? t("title.tab_view", { count: n, badge, view }) : t("title.tab", { count: n, badge });
    if (title !== shownTitle) document.title = shownTitle = title;
    if (n === shownCount) return;
    shownCount = n;
    let link = /** @type {HTMLLinkElement | null} */ (document.querySelector('link[rel="icon"]'));
    if (!link) {
      link = document.createElement("link");
      link.rel = "icon";
      document.head.append(link);
    }
    link.type = "image/svg+xml";
    link.href = faviconHref(n);
  };
  update();
  return subscribe(update);
}

const supported = () => typeof Notification !== "undefined";
/** True while this browser has a push subscription on the server: the service worker shows notifications then. */
let pushActive = false;

/**
 * The permission as last read: reading it asks the browser each time, and the banner checks it
 * on every render. Read again after the browser asked, or when the browser's own settings change it.
 * @type {NotificationPermission | undefined}
 */
let permission;
navigator.permissions
  ?.query({ name: "notifications" })
  .then((status) => {
    status.onchange = () => {
      permission = undefined;
      setState({});
    };
  })
  .catch(() => {});

/** Whether to offer the banner: notifications exist here, nobody chose yet, and it was not put off. */
export function shouldOfferNotifications() {
  if (!supported()) return false;
  permission ??= Notification.permission;
  return permission === "default" && localStorage.getItem(DISMISSED_KEY) !== "1";
}

export function dismissNotificationOffer() {
  localStorage.setItem(DISMISSED_KEY, "1");
  setState({});
}

/** The banner's "Turn on": the browser asks once; when granted, this browser subscribes to Web Push too. */
export async function turnOnNotifications() {
  const answer = await Notification.requestPermission();
  permission = answer;
  setState({});
  if (answer === "granted") await ensurePush();
  return answer;
}

/** @param {string} b64 */
function keyBytes(b64) {
  const s = atob(b64.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(s, (ch) => ch.charCodeAt(0));
}

/**
 * With permission granted: registers web/sw.js and keeps this browser's push subscription on
 * the server, bound to the server's current key (a subscription made for another key is
 * replaced). Where push is unavailable, in-tab notifications still work.
 */
export async function ensurePush() {
  if (
    !supported() ||
    Notification.permission !== "granted" ||
    !("serviceWorker" in navigator) ||
    typeof PushManager === "undefined"
  )
    return;
  try {
    const reg = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
    await navigator.serviceWorker.ready;
    const { public_key } = await api.vapidPublicKey();
    const key = keyBytes(public_key);
    let sub = await reg.pushManager.getSubscription();
    const current = sub?.options.applicationServerKey ? new Uint8Array(sub.options.applicationServerKey) : null;
    if (sub && (!current || current.length !== key.length || current.some((b, i) => b !== key[i]))) {
      await sub.unsubscribe();
      sub = null;
    }
    sub ??= await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
    await api.subscribePush(sub.toJSON());
    pushActive = true;
  } catch {
    pushActive = false;
  }
}

/** Signing out: this browser's push subscription is dropped here and on the server. */
export async function stopPush() {
  pushActive = false;
  if (!("serviceWorker" in navigator)) return;
  try {
    const reg = await navigator.serviceWorker.getRegistration("/");
    const sub = await reg?.pushManager.getSubscription();
    if (!sub) return;
    await api.unsubscribePush(sub.endpoint).catch(() => {});
    await sub.unsubscribe();
  } catch {
    /* nothing subscribed */
  }
}

/**
 * An SSE `notification` for me: shown by the browser while the tab is hidden, unless this
 * browser's service worker shows it from the push. The tag is the ledger event, so the two
 * can never show the same thing twice.
 * @param {import('../contracts/notifications').TNotification} n
 */
export function showNotification(n) {
  if (!supported() || Notification.permission !== "granted" || document.visibilityState === "visible" || pushActive)
    return;
  const note = new Notification(n.title, { body: n.body, tag: n.event_id });
  note.onclick = () => {
    window.focus();
    navigate(n.url);
    note.close();
  };
}
