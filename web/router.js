// @ts-check
// A tiny history router: paths map to the store's route; the server serves index.html for each.
import { setState } from "./store.js";
import { clearAnnouncement } from "./announce.js";

/** @typedef {{ name: string, conversationId?: string, threadRoot?: string, jobId?: string, token?: string, link?: { conversationId: string, messageId: string } }} Route */

/** @param {string} path @returns {Route} */
export function parseRoute(path) {
  const seg = path.split("?")[0].split("/").filter(Boolean).map(decodeURIComponent);
  // A link to one message: resolved (and checked) before the conversation opens at it.
  if (seg[0] === "c" && seg[1] && seg[2] === "m" && seg[3])
    return { name: "message", link: { conversationId: seg[1], messageId: seg[3] } };
  // A thread open beside (on a phone, over) its conversation.
  if (seg[0] === "c" && seg[1] && seg[2] === "t" && seg[3])
    return { name: "chat", conversationId: seg[1], threadRoot: seg[3] };
  if (seg[0] === "c" && seg[1]) return { name: "chat", conversationId: seg[1] };
  if (seg[0] === "jobs" && seg[1]) return { name: "job", jobId: seg[1] };
  if (seg[0] === "contacts") return { name: "contacts" };
  if (seg[0] === "outbox") return { name: "outbox" };
  if (seg[0] === "tools") return { name: "tools" };
  if (seg[0] === "admin") return { name: "admin" };
  if (seg[0] === "onboarding") return { name: "onboarding" };
  if (seg[0] === "invite" && seg[1]) return { name: "invite", token: seg[1] };
  if (seg[0] === "signin" && seg[1] === "link") return { name: "signin-link" };
  if (seg[0] === "signin") return { name: "signin" };
  return { name: "home" };
}

/** @type {((route: Route) => void) | null} */
let onChange = null;

/** @param {(route: Route) => void} fn */
export function onRoute(fn) {
  onChange = fn;
  addEventListener("popstate", () => apply());
  apply();
}

function apply() {
  const r = parseRoute(location.pathname);
  clearAnnouncement();
  setState({ route: r });
  onChange?.(r);
}

/** @param {string} path @param {{ replace?: boolean }} [opts] */
export function navigate(path, opts = {}) {
  if (path === location.pathname + location.search) return apply();
  if (opts.replace) history.replaceState(null, "", path);
  else history.pushState(null, "", path);
  apply();
}
