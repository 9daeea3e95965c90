// @ts-check
import { dateFormat, numberFormat, t } from "./i18n.js";
import { JOB_STATES } from "./lib/facts.js";
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
  return dateFormat({ hour: "2-digit", minute: "2-digit" }).format(new Date(iso));
}

/** Whole calendar days from `iso` back to today (0 today, 1 yesterday). @param {string} iso */
function daysAgo(iso) {
  const d = new Date(iso);
  const now = new Date();
  const day = (/** @type {Date} */ x) => new Date(x.getFullYear(), x.getMonth(), x.getDate()).getTime();
  return Math.round((day(now) - day(d)) / 86_400_000);
}

/** List time: today → 14:12, yesterday → Yesterday, this week → Tue, else 27/12/2025 (each in the person's language). @param {string | undefined} iso */
export function listTime(iso) {
  if (!iso) return "";
  const diff = daysAgo(iso);
  if (diff <= 0) return clock(iso);
  if (diff === 1) return t("time.yesterday");
  const d = new Date(iso);
  if (diff < 7) return dateFormat({ weekday: "short" }).format(d);
  return dateFormat({ dateStyle: "short" }).format(d);
}

/** The calendar day `iso` falls on here, as a number (equal for two moments of the same local day). @param {string} iso */
export function localDay(iso) {
  const d = new Date(iso);
  return d.getFullYear() * 512 + d.getMonth() * 32 + d.getDate();
}

/** The timeline's day separator: Today, Yesterday, else "Tuesday, 27 May". @param {string | undefined} iso */
export function dayLabel(iso) {
  if (!iso) return "";
  const diff = daysAgo(iso);
  if (diff <= 0) return t("time.today");
  if (diff === 1) return t("time.yesterday");
  return dateFormat({ weekday: "long", day: "numeric", month: "long" }).format(new Date(iso));
}

/** A moment in full, the month in words ("27 May 2026 at 14:12", "27 de maio de 2026 às 14:12"), for due dates, tokens and the Outbox. @param {string | undefined} iso */
export function dateTime(iso) {
  if (!iso) return "";
  return dateFormat({ dateStyle: "long", timeStyle: "short" }).format(new Date(iso));
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
  // Intl's short "byte" unit reads "607 byte" in English: the catalog says it properly.
  if (n < 1024) return t("size.bytes", { n });
  if (n < 1024 * 1024)
    return numberFormat({ style: "unit", unit: "kilobyte", maximumFractionDigits: n < 10240 ? 1 : 0 }).format(n / 1024);
  return numberFormat({ style: "unit", unit: "megabyte", maximumFractionDigits: 1 }).format(n / 1024 / 1024);
}

const STATES = new Set(/** @type {readonly string[]} */ (JOB_STATES));

/** A job state in words ("In progress"); an unknown state shows as its name. @param {string} state */
export const stateLabel = (state) => (STATES.has(state) ? t(`job.state.${state}`) : state.replace(/_/g, " "));

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

/** Lower case without accents, for matching what people type: "coracao" finds "coração", "ÁN" finds "Ana". @param {string} s */
export const fold = (s) => s.normalize("NFD").replace(/\p{M}/gu, "").toLocaleLowerCase();
