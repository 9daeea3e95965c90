/**
 * A reaction is one emoji: a single grapheme cluster (Intl.Segmenter) made only of emoji code
 * points, that is a pictograph, a flag (two regional indicators) or a keycap. Bounded in length
 * before anything is segmented, so a long string costs nothing to refuse.
 */
export const EMOJI_MAX_CHARS = 32;

/** The reactions offered first, in this order (any other single emoji is accepted too). */
export const QUICK_REACTIONS = ["👍", "❤️", "😂", "🎉", "👀", "✅"] as const;

const EMOJI_ONLY =
  /^(?:[\p{Extended_Pictographic}\p{Emoji_Modifier}\p{Regional_Indicator}#*0-9\u{E0020}-\u{E007F}]|\uFE0F|\u20E3|\u200D)+$/u;
const PICTOGRAPH = /\p{Extended_Pictographic}/u;
const FLAG = /^\p{Regional_Indicator}{2}$/u;
const KEYCAP = /^[#*0-9]\uFE0F?\u20E3$/u;
const graphemes = new Intl.Segmenter("en", { granularity: "grapheme" });

export function isSingleEmoji(s: string): boolean {
  if (s.length === 0 || s.length > EMOJI_MAX_CHARS || !EMOJI_ONLY.test(s)) return false;
  const it = graphemes.segment(s)[Symbol.iterator]();
  it.next();
  if (!it.next().done) return false;
  return PICTOGRAPH.test(s) || FLAG.test(s) || KEYCAP.test(s);
}
