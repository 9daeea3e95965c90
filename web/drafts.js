// @ts-check
// What someone was typing, kept per conversation in this browser's localStorage (and per person,
// so a shared browser never shows one person's draft to the next). Sending clears it.
import { getState } from "./store.js";

/** @param {string} cid */
const keyOf = (cid) => `logline:draft:${getState().me?.entity_id ?? "-"}:${cid}`;

/** @param {string} cid @returns {string} */
export function loadDraft(cid) {
  try {
    return localStorage.getItem(keyOf(cid)) ?? "";
  } catch {
    return "";
  }
}

/** An empty draft removes the entry. @param {string} cid @param {string} text */
export function saveDraft(cid, text) {
  try {
    if (text.trim() === "") localStorage.removeItem(keyOf(cid));
    else localStorage.setItem(keyOf(cid), text);
  } catch {
    // Storage full or blocked (private mode): the draft lives only while the conversation is open.
  }
}
