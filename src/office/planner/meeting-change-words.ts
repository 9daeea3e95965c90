/**
 * "Move it to Thursday 10am", "move the call with Maria to tomorrow 16:00", "cancel the call
 * with Maria", "muda a reunião com a Maria para amanhã às 16h", "cancela-a": a change to a
 * booked meeting, said in the chat. Read before any planner (like "why?" and hand-overs), so
 * it means the same whichever planner is on. Every pattern is anchored and linear: a verb at the
 * start, then plain string searches; the time words are left to the time parser.
 */

export interface MeetingChangeWords {
  kind: "move" | "cancel";
  /** The attendee named ("with Maria", "com a Maria"); absent for "it" / "the call". */
  who?: string;
  /** The new time as typed (a move); read by the time parser later. */
  time?: string;
  /** The language the words were read in. */
  locale: "en" | "pt";
}

const POLITE_EN = String.raw`(?:(?:please|pls|can you|could you|would you|kindly|let's|lets)\s+)*`;
const POLITE_PT = String.raw`(?:(?:por favor|podes|pode|consegues|consegue)\s+)*`;
const MOVE_EN = new RegExp(`^${POLITE_EN}(?:move|reschedule|push|shift|postpone)\\s`, "i");
const CANCEL_EN = new RegExp(`^${POLITE_EN}(?:cancel|call off)(?:\\s|$)`, "i");
const MOVE_PT = new RegExp(
  `^${POLITE_PT}(?:muda|mude|mudar|passa|passe|passar|adia|adie|adiar|remarca|remarque|remarcar|reagenda|reagende|reagendar|move|mova|mover)(?:-(?:a|o|la|lo))?(?:\\s|$)`,
  "iu",
);
const CANCEL_PT = new RegExp(
  `^${POLITE_PT}(?:cancela|cancele|cancelar|desmarca|desmarque|desmarcar)(?:-(?:a|o|la|lo))?(?:\\s|$)`,
  "iu",
);

const TO_EN = /\s(?:to|for|until|till)\s/i;
const TO_PT = /\s(?:para|pra)\s/i;
const PRONOUN = /^(?:it|that|this|that one|this one|isso|isto|essa|esse|ela|ele)?$/i;
const NOUN =
  /\b(?:call|meeting|meet|sync|demo|catch-?up|1:1|interview|review|session|appointment|check-?in|chat|reuni[ãa]o|chamada|encontro|conversa|videochamada)\b/iu;
const WITH_EN = /\bwith\s+([A-ZÀ-Ý][\p{L}'’-]*)/u;
const WITH_PT = /(?:^|\s)com\s+(?:(?:a|o)\s+)?([A-ZÀ-Ý][\p{L}'’-]*)/u;
const TRAILING = /[\s,.!?]+$/;

/** What the target words name: a pronoun or a meeting (with whom, if said); null when they name something else. */
function target(words: string, locale: "en" | "pt"): { who?: string } | null {
  const t = words.replace(TRAILING, "").trim();
  const name = (locale === "pt" ? WITH_PT : WITH_EN).exec(t) ?? WITH_EN.exec(t) ?? WITH_PT.exec(t);
  if (PRONOUN.test(t)) return {};
  if (!NOUN.test(t)) return null;
  return name ? { who: name[1]! } : {};
}

/** The meeting change the message asks for, or null when it asks for none. */
export function parseMeetingChange(raw: string): MeetingChangeWords | null {
  const text = raw.trim().slice(0, 300);
  for (const locale of ["en", "pt"] as const) {
    const move = (locale === "en" ? MOVE_EN : MOVE_PT).exec(text);
    if (move) {
      // A leading space lets "muda-a para amanhã" (no target words) split like the rest.
      const hay = ` ${text.slice(move[0].length).trim()}`;
      const sep = (locale === "en" ? TO_EN : TO_PT).exec(hay);
      if (!sep) continue;
      const what = target(hay.slice(0, sep.index), locale);
      const time = hay
        .slice(sep.index + sep[0].length)
        .replace(/,?\s*(?:please|por favor)$/i, "")
        .replace(TRAILING, "")
        .trim();
      if (what && time) return { kind: "move", time, locale, ...what };
      continue;
    }
    const cancel = (locale === "en" ? CANCEL_EN : CANCEL_PT).exec(text);
    if (cancel) {
      const rest = text.slice(cancel[0].length).replace(/,?\s*(?:please|por favor)$/i, "");
      // A bare "cancel" names nothing; "cancela-a" names the meeting by its pronoun.
      const what = rest.trim() || /-(?:a|o|la|lo)\s*$/i.test(cancel[0]) ? target(rest, locale) : null;
      if (what) return { kind: "cancel", locale, ...what };
    }
  }
  return null;
}
