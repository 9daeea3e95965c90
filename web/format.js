// @ts-check
// Small pure helpers for what the UI prints: times, initials, short ids, sizes, state labels.

/** @param {string | undefined} name */
export function initials(name) {
  const parts = (name ?? "?").trim().split(/\s+/).filter(Boolean);
  const s = parts.length > 1 ? parts[0][0] + parts[parts.length - 1][0] : (parts[0] ?? "?").slice(0, 2);
  return s.toUpperCase();
}

/** A stable hue per name so avatars are told apart at a glance. @param {string} key */
export function avatarHue(key) {
  let h = 0;
  for (const ch of key) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return h % 8;
}

/** @param {string | undefined} iso */
export function clock(iso) {
  if (!iso) return "";
  const d = new Date(iso);
  return d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

/** List time: today → 14:12, yesterday → Yesterday, this week → Tue, else 27/12/2025. @param {string | undefined} iso */
export function listTime(iso) {
  if (!iso) return "";
  const d = new Date(iso);
  const now = new Date();
  const day = (/** @type {Date} */ x) => new Date(x.getFullYear(), x.getMonth(), x.getDate()).getTime();
  const diff = Math.round((day(now) - day(d)) / 86_400_000);
  if (diff <= 0) return clock(iso);
  if (diff === 1) return "Yesterday";
  if (diff < 7) return d.toLocaleDateString([], { weekday: "short" });
  return d.toLocaleDateString();
}

/** @param {string | undefined} iso */
export function dayLabel(iso) {
  if (!iso) return "";
  const t = listTime(iso);
  if (/^\d{1,2}:\d{2}/.test(t)) return "Today";
  return t === "Yesterday" ? t : new Date(iso).toLocaleDateString([], { weekday: "long", day: "numeric", month: "long" });
}

/** `job_sched_4c1b` → `job…4c1b`. @param {string} id */
export function shortId(id) {
  if (id.length <= 12) return id;
  const p = id.indexOf("_");
  const head = p > 0 && p < 6 ? id.slice(0, p) : id.slice(0, 4);
  return `${head}…${id.slice(-4)}`;
}

/** @param {number | undefined} n */
export function bytes(n) {
  if (n == null) return "";
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(n < 10240 ? 1 : 0)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

const STATE_LABEL = /** @type {Record<string, string>} */ ({
  draft: "Draft",
  proposed: "Proposed",
  approved: "Approved",
  in_progress: "In progress",
  waiting_input: "Waiting",
  completed: "Done",
  rejected: "Rejected",
  cancelled: "Cancelled",
  failed: "Failed",
});

/** @param {string} state */
export const stateLabel = (state) => STATE_LABEL[state] ?? state.replace(/_/g, " ");

/** @param {string} state */
export function stateTone(state) {
  if (state === "completed") return "ok";
  if (state === "waiting_input") return "warn";
  if (state === "failed" || state === "rejected" || state === "cancelled") return "bad";
  if (state === "in_progress" || state === "approved") return "info";
  return "neutral";
}

/**
 * Only links we can vouch for leave the app: http(s) or our own paths. Anything else
 * (javascript:, data:) is dropped.
 * @param {string | undefined} url
 */
export function safeUrl(url) {
  if (!url) return undefined;
  if (url.startsWith("/") && !url.startsWith("//")) return url;
  try {
    const u = new URL(url);
    return u.protocol === "https:" || u.protocol === "http:" ? u.href : undefined;
  } catch {
    return undefined;
  }
}

/** @param {string} s */
export const humanize = (s) => s.replace(/[_.]/g, " ").replace(/^\w/, (c) => c.toUpperCase());
