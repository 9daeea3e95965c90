// @ts-check
// The app without a network: the service worker (web/sw.js) keeps the app shell and the
// person's last-seen reads; this module registers it, tells the page when the browser is
// offline, reads the recent chats ahead so they open offline too, sends what waited for the
// network once it is back (keeping it on the device meanwhile, so closing the page loses
// nothing), and deletes the kept reads and sends on sign-out.
import { api } from "./api.js";
import { getState, setState } from "./store.js";
import { clear, createStore, del, set, values } from "./lib/idb.js";

/** The cache the worker keeps the signed-in person's reads in (web/sw.js uses the same name). */
const DATA_CACHE = "logline-data";
/** How many of the most recent chats are read ahead, and how long after start. */
const READ_AHEAD = 5;
const READ_AHEAD_AFTER_MS = 3000;

/** Sends that failed for want of a network, to run again (each with the Idempotency-Key it was first sent with) when it is back. */
/** @type {Set<() => void>} */
const waiting = new Set();

/** Registers the worker and follows the browser's online state. @param {() => void} backOnline also run when the network is back */
export function startOffline(backOnline) {
  addEventListener("offline", () => setState({ offline: true }));
  addEventListener("online", () => {
    setState({ offline: false });
    const again = [...waiting];
    waiting.clear();
    for (const send of again) send();
    backOnline();
  });
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
    /* no worker (a private window may refuse one): the app still works online */
  });
}

/** Whether a failed request failed because the browser has no network. */
export const isOffline = () => navigator.onLine === false;

/** Runs `send` again as soon as the browser is back online. @param {() => void} send */
export function whenOnline(send) {
  if (navigator.onLine) send();
  else waiting.add(send);
}

/** After sign-in: the most recent chats' latest messages are read once, so the worker keeps them for offline use. */
export function readAhead() {
  setTimeout(() => {
    const s = getState();
    if (!s.me || !navigator.onLine || !navigator.serviceWorker?.controller) return;
    for (const c of s.conversations.slice(0, READ_AHEAD)) api.latestMessages(c.conversation_id).catch(() => {});
  }, READ_AHEAD_AFTER_MS);
}

/**
 * A text that waits for the network, kept on this device (IndexedDB) until the server took it:
 * who wrote it, where, what it says, and the Idempotency-Key it was first sent with, so sending
 * it again after the page was closed and opened still makes one message.
 * @typedef {{ key: string, local_id: string, entity_id: string, cid: string, text: string, ts: string, reply_to?: string, mentions?: string[] }} Outgoing
 */

/** @type {ReturnType<typeof createStore> | null} */
let outbox = null;
const outboxStore = () => (outbox ??= createStore("logline-outbox", "sends"));

/** Keeps a waiting text on the device. @param {Outgoing} o */
export function keepOutgoing(o) {
  return set(o.key, o, outboxStore()).catch(() => {
    /* no IndexedDB (a private window may refuse it): it still waits while the page is open */
  });
}

/** The server took it (or refused it for good): it is no longer kept. @param {string} key */
export function dropOutgoing(key) {
  return del(key, outboxStore()).catch(() => {});
}

/** What this person left waiting on this device, oldest first. @param {string} entityId @returns {Promise<Outgoing[]>} */
export async function keptOutgoing(entityId) {
  try {
    const all = /** @type {Outgoing[]} */ (await values(outboxStore()));
    return all.filter((o) => o.entity_id === entityId).sort((a, b) => a.ts.localeCompare(b.ts));
  } catch {
    return [];
  }
}

/** Sign-out: nothing the last person read stays on this device, and nothing of theirs is sent later. */
export async function forgetOffline() {
  waiting.clear();
  await clear(outboxStore()).catch(() => {});
  if (typeof caches === "undefined") return;
  await caches.delete(DATA_CACHE).catch(() => false);
}
