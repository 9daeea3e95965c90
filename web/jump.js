// @ts-check
// Opening a message found by search (or by a link to it): the conversation opens at that message, loading older
// history until it is there, and highlights it.
import { navigate } from "./router.js";
import { seqOf, setState } from "./store.js";

/** @typedef {{ cid: string, event_id: string, seq: number, n: number }} JumpTarget */

/** @type {JumpTarget | null} */
let target = null;
let count = 0;

/** @param {string} cid @param {string} eventId @param {string} cursor @param {{ replace?: boolean }} [opts] */
export function openAt(cid, eventId, cursor, opts = {}) {
  target = { cid, event_id: eventId, seq: seqOf(cursor), n: ++count };
  navigate(`/c/${encodeURIComponent(cid)}`, opts);
  setState({});
}

/** @param {string} cid @returns {JumpTarget | null} */
export function jumpTarget(cid) {
  return target?.cid === cid ? target : null;
}

/** @param {number} n */
export function jumpDone(n) {
  if (target?.n === n) target = null;
}
