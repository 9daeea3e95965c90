/**
 * A cheap necessary condition for a regex to match: something every match must contain, found
 * by reading the pattern, so a string that lacks it is skipped without running the regex.
 * For the pack's email pattern that is "@" (most text has none); for the phone pattern a digit.
 *
 * The reading is deliberately conservative; anything it does not fully understand yields no
 * prefilter (the regex then runs on every string, as without one). A requirement is taken only
 * from an atom at the pattern's top level (outside every group, lookaround and class), in a
 * pattern with no top-level alternation, and not followed by a quantifier that allows zero
 * repetitions (`?`, `*`, `{`). Such an atom is part of every match, so its absence proves the
 * string cannot match. Only ASCII punctuation (unaffected by the `i` flag) and `\d` qualify.
 */
export type Prefilter = (s: string) => boolean;

const META = new Set(["^", "$", ".", "|", "?", "*", "+", "(", ")", "[", "]", "{", "}", "\\", "/"]);
const PUNCT = /^[!-/:-@[-`{-~]$/;
const DIGIT = /\d/;
const digit: Prefilter = (s) => DIGIT.test(s);

export function regexPrefilter(source: string): Prefilter | null {
  let depth = 0;
  let inClass = false;
  const required: string[] = [];
  let needsDigit = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    const next = source[i + 1];
    const optionalAfter = (at: number) => {
      const q = source[at];
      return q === "?" || q === "*" || q === "{";
    };
    if (c === "\\") {
      if (next === undefined) return null;
      if (!inClass && depth === 0) {
        // Escapes whose argument spans more characters: too much to read safely.
        if ("kpPuxc0123456789".includes(next)) return null;
        if (next === "d" && !optionalAfter(i + 2)) needsDigit = true;
        else if (PUNCT.test(next) && !optionalAfter(i + 2)) required.push(next);
      }
      i++;
      continue;
    }
    if (inClass) {
      if (c === "]") inClass = false;
      continue;
    }
    if (c === "{") {
      // A quantifier's bounds ({7,14}) are not characters of the match; a brace that is not a
      // well-formed quantifier is beyond this reader.
      const q = /^\{\d+(?:,\d*)?\}/.exec(source.slice(i));
      if (!q) return null;
      i += q[0].length - 1;
    } else if (c === "[") inClass = true;
    else if (c === "(") depth++;
    else if (c === ")") {
      depth--;
      if (depth < 0) return null;
    } else if (depth === 0) {
      if (c === "|") return null;
      if (!META.has(c) && PUNCT.test(c) && !optionalAfter(i + 1)) required.push(c);
    }
  }
  if (depth !== 0 || inClass) return null;
  const lit = required[0];
  if (lit !== undefined) return (s) => s.includes(lit);
  return needsDigit ? digit : null;
}
