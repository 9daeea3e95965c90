/**
 * Whether a text carries contact details (an email address, a phone number): names every member
 * sees and the ledger keeps forever may not. One pass over the text, no regular expression.
 */

/** What `\s` matches (and `trim` removes), by code unit: ASCII and Unicode white space, line breaks, BOM. */
export const isSpace = (c: number): boolean =>
  c === 32 ||
  (c >= 9 && c <= 13) ||
  (c > 127 &&
    (c === 0xa0 ||
      c === 0x1680 ||
      (c >= 0x2000 && c <= 0x200a) ||
      c === 0x2028 ||
      c === 0x2029 ||
      c === 0x202f ||
      c === 0x205f ||
      c === 0x3000 ||
      c === 0xfeff));
const AT = 64;
const DOT = 46;
const isAsciiLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isDigit = (c: number) => c >= 48 && c <= 57;

/**
 * An email address somewhere in the text: something, `@`, something, a dot and two letters, none
 * of it white space or a second `@`. One pass over the text (each stretch after an `@` is read
 * once), so no input can make it slow.
 */
function hasEmail(text: string): boolean {
  const n = text.length;
  for (let at = text.indexOf("@"); at !== -1; at = text.indexOf("@", at + 1)) {
    if (at === 0 || text.charCodeAt(at - 1) === AT || isSpace(text.charCodeAt(at - 1))) continue;
    let i = at + 1;
    for (; i < n && text.charCodeAt(i) !== AT && !isSpace(text.charCodeAt(i)); i++) {
      if (
        text.charCodeAt(i) === DOT &&
        i > at + 1 &&
        isAsciiLetter(text.charCodeAt(i + 1)) &&
        isAsciiLetter(text.charCodeAt(i + 2))
      )
        return true;
    }
    at = i - 1;
  }
  return false;
}

/** A phone number: seven or more digits in one run of digits, spaces, brackets, dots and dashes. One pass. */
function hasPhone(text: string): boolean {
  let digits = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isDigit(c)) {
      if (++digits >= 7) return true;
    } else if (!(c === 40 || c === 41 || c === DOT || c === 45 || isSpace(c))) digits = 0;
  }
  return false;
}

/** Seven or more digits in one phone-shaped run, or an email address. Linear in the text's length. */
export function hasContactDetails(text: string): boolean {
  return hasEmail(text) || hasPhone(text);
}
