import type { TCardActionType } from "./cards.js";
import { EMOJI_MAX_CHARS, QUICK_REACTIONS } from "./emoji.js";

/**
 * Facts the server and the web app share, defined once. The server imports them; the web app
 * loads them from the server (`/app/facts.js`, rendered from this module), never re-typed.
 */

export { LIMITS } from "./limits.js";
/** The event names of `GET /v1/stream` (contracts/sse.ts). */
export { SSE_EVENT_NAMES as STREAM_EVENTS } from "./stream-events.js";
/** Every job state (contracts/primitives.ts). */
export { JOB_STATES } from "./primitives.js";

/** Reactions: the ones offered first, and how long one emoji may be (contracts/emoji.ts). */
export const REACTIONS = { quick: QUICK_REACTIONS, maxChars: EMOJI_MAX_CHARS } as const;

/** What a click says in the conversation, after the person's name: "Dan approved “Call with Maria”". */
export const ACTION_VERBS: Record<TCardActionType, string> = {
  "job.approve": "approved",
  "job.reject": "rejected",
  "job.request_changes": "requested changes to",
  "job.provide_input": "provided details for",
  "job.ack": "acknowledged",
  "job.dispute": "disputed",
  "job.cancel": "cancelled",
  "job.follow_up": "asked for a follow-up to",
  "job.retry": "asked to retry",
  "job.switch_tool": "asked to switch tools for",
  "chat.ask": "asked about",
};

/** The action bubble's words, built the same way by the server and by the UI's optimistic copy. */
export function actionPhrase(name: string, type: TCardActionType, title: string | undefined): string {
  return `${name} ${ACTION_VERBS[type]} ${title ? `“${title}”` : "the job"}`;
}
