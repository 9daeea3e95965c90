// @ts-check
// The facts the UI shares with the server (button verbs, limits, the stream's event names, job states). They are defined once, in
// contracts/facts.ts; the gateway serves them as /app/facts.js, and this file only re-exports
// them with their types.
// @ts-expect-error -- served by the gateway, not a file in web/; typed by the exports below
import * as F from "/app/facts.js";

/** @type {typeof import('../../contracts/facts.js').LIMITS} */
export const LIMITS = F.LIMITS;
/** @type {typeof import('../../contracts/facts.js').ACTION_VERBS} */
export const ACTION_VERBS = F.ACTION_VERBS;
/** @type {typeof import('../../contracts/facts.js').REACTIONS} */
export const REACTIONS = F.REACTIONS;
/** @type {typeof import('../../contracts/facts.js').STREAM_EVENTS} */
export const STREAM_EVENTS = F.STREAM_EVENTS;
/** @type {typeof import('../../contracts/facts.js').JOB_STATES} */
export const JOB_STATES = F.JOB_STATES;
