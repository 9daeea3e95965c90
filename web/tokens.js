// @ts-check
// The chat tokens a person's message may carry. The server parses them strictly; here they are
// only formatted (the # picker) and displayed as chips, never trusted for identity.
import { LIMITS } from "./lib/facts.js";

/** Quotes a value exactly as the server's formatRefToken does. @param {string} v */
const q = (v) =>
  `"${v
    .replace(/[\u0000-\u001f\u007f]/g, " ")
    .replace(/\\/g, "\\\\")
    .replace(/"/g, '\\"')}"`;

/** @param {string} jobId @param {string} name */
function refToken(jobId, name) {
  return `[ref v:1 type:"job" id:${q(jobId)} name:${q(name.slice(0, LIMITS.titleChars))}]`;
}

const TOKEN = /\[(ref|op) v:1 ((?:[a-z_]+:(?:"(?:[^"\\]|\\.)*"|[^\s\]]+)\s*)+)\]/g;

/**
 * Splits text into plain runs and tokens (label for a chip). Display only.
 * @param {string} text @returns {Array<{ text: string } | { chip: string, kind: 'ref'|'op' }>}
 */
export function splitTokens(text) {
  /** @type {Array<{ text: string } | { chip: string, kind: 'ref'|'op' }>} */
  const out = [];
  let at = 0;
  for (const m of text.matchAll(TOKEN)) {
    if (m.index > at) out.push({ text: text.slice(at, m.index) });
    const kind = /** @type {'ref'|'op'} */ (m[1]);
    const name = /name:"((?:[^"\\]|\\.)*)"/.exec(m[2])?.[1];
    const type = /type:"?([a-z_]+)"?/.exec(m[2])?.[1] ?? "";
    out.push({ chip: kind === "ref" ? `# ${name ?? "job"}` : `⚡ ${type.replace("_", " ")}`, kind });
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push({ text: text.slice(at) });
  return out;
}

/**
 * The text to send: each picked job's `#Title` mark (where the person picked it) becomes its
 * `[ref …]` token in place; a job whose mark the person deleted from the text but whose chip is
 * still shown is appended at the end. Longer titles first, so "#Call Bruno" wins over "#Call".
 * @param {string} text @param {Array<{ job_id: string, title: string }>} refs @returns {string}
 */
export function placeRefs(text, refs) {
  let out = text;
  /** @type {string[]} */
  const tail = [];
  for (const r of [...refs].sort((a, b) => b.title.length - a.title.length)) {
    const mark = refMark(r.title);
    const at = out.indexOf(mark);
    if (at >= 0) out = out.slice(0, at) + refToken(r.job_id, r.title) + out.slice(at + mark.length);
    else tail.push(refToken(r.job_id, r.title));
  }
  return [out.trim(), ...tail].filter(Boolean).join(" ");
}

/** How a picked job reads in the composer's text until it is sent. @param {string} title */
export function refMark(title) {
  return `#${title}`;
}
