/**
 * FTS5's snippet() marks the words found with two control characters that indexed text never
 * holds (they are replaced before indexing); here the marks become offsets, so the server never
 * sends markup and the client highlights with text nodes.
 */
export const MARK_OPEN = "\u0002";
export const MARK_CLOSE = "\u0003";

/** Control characters (other than tab and line breaks) become spaces before indexing, so the marks are unambiguous. */
export const CONTROL_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

export function cleanForIndex(text: string): string {
  return text.replace(CONTROL_CHARS, " ");
}

export function parseSnippet(marked: string): { text: string; highlights: Array<[number, number]> } {
  let text = "";
  const highlights: Array<[number, number]> = [];
  let open = -1;
  for (const ch of marked) {
    if (ch === MARK_OPEN) open = text.length;
    else if (ch === MARK_CLOSE) {
      if (open >= 0 && text.length > open) highlights.push([open, text.length]);
      open = -1;
    } else text += ch;
  }
  return { text, highlights };
}
