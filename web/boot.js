// @ts-check
import { t } from "./i18n.js";
// Starting (and restarting, after a sign-in) the app: session → list → stream → route.
import { api } from "./api.js";
import { loadDrawer, loadSession, loadTimeline, refreshAll, sendKept } from "./actions.js";
import { startLive, stopLive } from "./live.js";
import { watchLog } from "./log-watch.js";
import { navigate, parseRoute } from "./router.js";
import { getState, setState, toast } from "./store.js";
import { ensurePush, stopPush } from "./notify.js";
import { forgetOffline, readAhead } from "./offline.js";

const PUBLIC = ["onboarding", "invite", "signin"];

/** Signs in with a token (from a link or typed), then starts the app. @param {string} token */
export async function signInWith(token) {
  await api.signIn(token);
  await boot();
}

export async function boot() {
  stopLive();
  const url = new URL(location.href);
  const token = url.searchParams.get("token");
  if (token && !PUBLIC.includes(parseRoute(location.pathname).name)) {
    url.searchParams.delete("token");
    history.replaceState(null, "", url.pathname + url.search);
    try {
      await api.signIn(token);
    } catch {
      toast(t("boot.link_invalid"));
    }
  }
  try {
    if (!(await loadSession())) {
      rememberDeepLink();
      return;
    }
    returnToDeepLink();
    const cursor = await refreshAll();
    setState({ booted: true });
    const tenant = getState().me?.tenant_id;
    if (tenant) watchLog(tenant);
    startLive(cursor);
    void sendKept();
    readAhead();
    // Permission given earlier: keep this browser's push subscription current (it may belong to whoever signed in before).
    void ensurePush();
    if (url.searchParams.get("signin") === "failed") toast(t("boot.link_invalid"));
    openFirstOnWide();
    await followRoute(getState().route);
  } catch {
    setState({ booted: true });
    toast(t("boot.retrying"));
    setTimeout(() => void boot(), 5000);
  }
}

/** Where a signed-out visit to a link of the app (a chat, a message, a job) is taken back to. */
const RETURN_KEY = "logline.return_to";
/** How long that is kept: long enough to fetch a sign-in link by email. */
const RETURN_MS = 30 * 60_000;

/** Signed out on a deep link: keep it, so signing in (here, or from an emailed link) ends there. */
function rememberDeepLink() {
  const name = parseRoute(location.pathname).name;
  if (name !== "chat" && name !== "message" && name !== "job") return;
  try {
    localStorage.setItem(RETURN_KEY, JSON.stringify({ path: location.pathname, at: Date.now() }));
  } catch {
    // Storage refused (private mode): the person lands on the list instead.
  }
}

/** Signed in on the list (where sign-in links land): go on to the kept link, once, if it is recent. */
function returnToDeepLink() {
  let kept = null;
  try {
    kept = JSON.parse(localStorage.getItem(RETURN_KEY) ?? "null");
    localStorage.removeItem(RETURN_KEY);
  } catch {
    return;
  }
  const path = typeof kept?.path === "string" ? kept.path : "";
  const fresh = typeof kept?.at === "number" && Date.now() - kept.at < RETURN_MS;
  // Only a path of this app, and only when nothing else was asked for.
  if (!fresh || !path.startsWith("/") || path.startsWith("//") || parseRoute(location.pathname).name !== "home") return;
  if (["chat", "message", "job"].includes(parseRoute(path).name)) navigate(path, { replace: true });
}

/**
 * A sign-in link lands on "/": on a wide screen, go straight into the most recent chat with an
 * agent coworker (the demo opens into Dan's chat with Office Scheduler) unless it has unread
 * messages (opening it would mark them read unseen); phones keep the list.
 */
function openFirstOnWide() {
  const s = getState();
  if (s.route.name !== "home" || innerWidth <= 760 || !s.conversations.length) return;
  const withAgent = s.conversations.find((c) =>
    c.participant_entity_ids.some((id) => s.entities[id]?.actor_type === "agent"),
  );
  const c = withAgent ?? s.conversations[0];
  // Opening a chat marks it read: one with unread messages waits for the person to choose it.
  if (c.unread_count > 0) return;
  navigate(`/c/${encodeURIComponent(c.conversation_id)}`, { replace: true });
}

/** Loads what a route shows. @param {import("./router.js").Route} r */
export async function followRoute(r) {
  const s = getState();
  if (!s.me) return;
  if (r.name === "chat" && r.conversationId) {
    if (s.drawer) setState({ drawer: null });
    if (!s.timelines[r.conversationId]?.loaded) await loadTimeline(r.conversationId);
    return;
  }
  if (r.name === "job" && r.jobId) {
    const known = s.jobs[r.jobId]?.conversation_id ?? s.drawer?.data?.conversation_id;
    const prev = s.route.conversationId;
    setState({
      route: { ...r, conversationId: known ?? prev },
      drawer: { job_id: r.jobId, data: s.drawer?.job_id === r.jobId ? s.drawer.data : null, error: null },
    });
    const data = await loadDrawer(r.jobId);
    const cid = data?.conversation_id;
    if (cid && getState().route.jobId === r.jobId) {
      setState({ route: { ...getState().route, conversationId: cid } });
      if (!getState().timelines[cid]?.loaded) await loadTimeline(cid);
    }
    return;
  }
  if (s.drawer) setState({ drawer: null });
  if (r.name === "signin" && s.me) navigate("/", { replace: true });
}

/** Browser storage this app keeps that is not a person's own: the checkpoints the log watch has seen. */
const KEEP_ON_SIGN_OUT = /^logline\.checkpoint\./;

/**
 * Sign out: this browser stops getting my notifications, the session ends on the server (its
 * token is revoked, the cookie cleared), and nothing of mine stays in the page, its storage or
 * the reads kept for offline use.
 */
export async function signOut() {
  await stopPush();
  try {
    await api.signOut();
  } catch {
    /* already ended elsewhere: the page is cleared all the same */
  }
  stopLive();
  await forgetOffline();
  for (const k of Object.keys(localStorage)) if (!KEEP_ON_SIGN_OUT.test(k)) localStorage.removeItem(k);
  sessionStorage.clear();
  setState({
    me: null,
    signedOut: true,
    conversations: [],
    timelines: {},
    locals: {},
    jobs: {},
    drawer: null,
    presence: {},
    entities: {},
    buttons: {},
    dialog: null,
    threads: {},
  });
  navigate("/signin", { replace: true });
}
