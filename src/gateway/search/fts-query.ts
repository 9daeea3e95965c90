import { SEARCH_LIMITS } from "../../../contracts/search.js";
import { AppError } from "../../shared/errors.js";

/**
 * What a person types becomes an FTS5 query that cannot be a syntax error: the text is cut into
 * words the way the index's unicode61 tokenizer cuts it (letters, digits and marks), each word
 * is quoted as an FTS5 string, all must match, and the last is a prefix (`"word"*`) so results
 * come while typing. Operators people type (AND, OR, NOT, NEAR, quotes, `*`, `:`, `^`,
 * parentheses) are just words or separators here.
 */
const WORD = /[\p{L}\p{N}\p{M}]+/gu;

export function toFtsQuery(raw: string): { match: string; terms: string[] } {
  const q = raw.trim();
  if (q.length === 0) throw new AppError("VALIDATION_ERROR", "q is empty: type a word to search for", { field: "q" });
  if (q.length > SEARCH_LIMITS.queryChars) {
    throw new AppError("VALIDATION_ERROR", `q is longer than ${SEARCH_LIMITS.queryChars} characters`, {
      field: "q",
      max: SEARCH_LIMITS.queryChars,
    });
  }
  const terms = q.match(WORD) ?? [];
  if (terms.length === 0)
    throw new AppError("VALIDATION_ERROR", "q has no letters or digits to search for", { field: "q" });
  if (terms.length > SEARCH_LIMITS.terms) {
    throw new AppError("VALIDATION_ERROR", `q has more than ${SEARCH_LIMITS.terms} words`, {
      field: "q",
      max: SEARCH_LIMITS.terms,
    });
  }
  // A word holds no quote (the pattern has none), so wrapping it in quotes is the whole escape.
  const match = terms.map((t, i) => `"${t}"${i === terms.length - 1 ? "*" : ""}`).join(" ");
  return { match, terms };
}
