// @ts-check
import { t } from "./i18n.js";
// One visually hidden status line for screen readers. The timeline itself is not a live region
// (opening a conversation would read its whole history aloud); instead new items from others and
// the result of your own actions are said here, briefly. Lines that arrive close together (your
// Approve, then the agent's next card) are joined into one announcement.

const JOIN_MS = 400;
const MAX_CHARS = 160;

/** @type {string[]} */
let pending = [];
/** @type {ReturnType<typeof setTimeout> | null} */
let timer = null;

/** The announcer element, created once at the end of <body> (outside the app's re-rendered tree). */
function region() {
  let el = document.getElementById("announcer");
  if (!el) {
    el = document.createElement("div");
    el.id = "announcer";
    el.className = "visually-hidden";
    el.setAttribute("role", "status");
    el.setAttribute("aria-live", "polite");
    el.setAttribute("aria-atomic", "true");
    document.body.append(el);
  }
  return el;
}

/** @param {string} text */
function clip(text) {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length > MAX_CHARS ? `${t.slice(0, MAX_CHARS - 1)}…` : t;
}

/** @type {{ text: string, timer: ReturnType<typeof setTimeout> } | null} */
let held = null;

/**
 * Says `text` in the status line (joined with anything said in the last 400 ms).
 * @param {string} text
 */
export function announce(text) {
  const line = clip(text);
  if (!line) return;
  region();
  if (held) {
    // The result of the person's own action, then what it brought, in one line.
    clearTimeout(held.timer);
    pending.push(held.text);
    held = null;
  }
  pending.push(line);
  if (timer) return;
  timer = setTimeout(() => {
    timer = null;
    const el = region();
    el.textContent = pending.join(" ");
    pending = [];
  }, JOIN_MS);
}

/**
 * Says the result of the person's own action ("You approved “Intro call”."), held for a moment
 * so that what it brings (the agent's next card) is said in the same line, not in a second one.
 * @param {string} text
 * @param {number} [holdMs]
 */
export function announceAction(text, holdMs = 1500) {
  const line = clip(text);
  if (!line) return;
  if (held) {
    clearTimeout(held.timer);
    announce(held.text);
  }
  held = {
    text: line,
    timer: setTimeout(() => {
      const h = held;
      held = null;
      if (h) announce(h.text);
    }, holdMs),
  };
}

/** Empties the status line (a new view says nothing until something new happens). */
export function clearAnnouncement() {
  pending = [];
  if (held) clearTimeout(held.timer);
  held = null;
  if (timer) clearTimeout(timer);
  timer = null;
  const el = document.getElementById("announcer");
  if (el) el.textContent = "";
}

const CARD_TYPES = ["job.formalize", "job.tracking", "job.finished"];

/**
 * The short line for a timeline item someone else added: "Ana: are we still on for lunch?",
 * "Office proposes a job: Schedule a call".
 * @param {any} item
 * @returns {string}
 */
export function itemLine(item) {
  const who = item.sender?.display_name ?? t("announce.someone");
  const m = item.message ?? {};
  if (m.card)
    return t(CARD_TYPES.includes(m.card.card_type) ? `announce.card.${m.card.card_type}` : "announce.card.other", {
      who,
      title: m.card.title ?? "",
    });
  if (m.artifact) return t("announce.shared", { who, title: m.artifact.title ?? t("announce.a_file") });
  if (m.kind === "system") return String(m.body_text ?? "");
  return t("announce.said", { who, text: m.body_text ?? "" });
}
