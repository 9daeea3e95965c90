// @ts-check
import { t } from "./i18n.js";
// Keeps the server honest about its history. The browser remembers the last Merkle checkpoint
// (tree size and root) it saw for this workspace and, for every newer one, asks for a
// consistency proof and checks it (RFC 9162 §2.1.4.2, SHA-256 through WebCrypto). A server that
// ever shows a history that does not extend the one it showed before gets a banner, and the old
// checkpoint is kept as evidence.

const CHECK_EVERY_MS = 5 * 60_000;
/** Workspaces watched by this page (boot runs again after a lost connection). */
const watching = new Set();
const storeKey = (/** @type {string} */ tenant) => `logline.checkpoint.${tenant}`;

/** @param {Uint8Array[]} parts */
async function sha256(...parts) {
  const size = parts.reduce((n, p) => n + p.length, 0);
  const buf = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    buf.set(p, at);
    at += p.length;
  }
  return new Uint8Array(await crypto.subtle.digest("SHA-256", buf));
}

const ONE = new Uint8Array([1]);
/** @param {Uint8Array} l @param {Uint8Array} r */
const node = (l, r) => sha256(ONE, l, r);
/** @param {string} s */
const b64 = (s) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
/** @param {Uint8Array} a @param {Uint8Array} b */
const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * Whether `proof` shows the tree (m, oldRoot) is a prefix of the tree (n, newRoot).
 * @param {number} m @param {number} n @param {Uint8Array[]} proof @param {Uint8Array} oldRoot @param {Uint8Array} newRoot
 */
async function consistent(m, n, proof, oldRoot, newRoot) {
  if (m < 1 || m > n) return false;
  if (m === n) return proof.length === 0 && same(oldRoot, newRoot);
  if (proof.length === 0) return false;
  const path = (m & (m - 1)) === 0 ? [oldRoot, ...proof] : [...proof];
  let fn = m - 1;
  let sn = n - 1;
  while (fn % 2 === 1) {
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  let fr = path[0];
  let sr = path[0];
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = await node(c, fr);
      sr = await node(c, sr);
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
      }
    } else {
      sr = await node(sr, c);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && same(fr, oldRoot) && same(sr, newRoot);
}

/** @param {string} note */
function parseCheckpoint(note) {
  const [origin, size, root] = note.split("\n");
  if (!origin || !/^\d+$/.test(size ?? "") || !root) return null;
  return { size: Number(size), root };
}

/** @param {string} text */
function warn(text) {
  let el = document.getElementById("log-warning");
  if (!el) {
    el = document.createElement("div");
    el.id = "log-warning";
    el.className = "log-warning";
    el.setAttribute("role", "alert");
    document.body.prepend(el);
  }
  el.textContent = text;
}

/** @param {string} tenant */
async function check(tenant) {
  const res = await fetch(`/v1/ledger/checkpoint?tenant_id=${encodeURIComponent(tenant)}`, {
    headers: { Accept: "text/plain" },
    credentials: "same-origin",
  });
  if (!res.ok) return;
  const seen = parseCheckpoint(await res.text());
  if (!seen) return;
  /** @type {{ size: number, root: string } | null} */
  let last = null;
  try {
    last = JSON.parse(localStorage.getItem(storeKey(tenant)) ?? "null");
  } catch {
    last = null;
  }
  const remember = () => localStorage.setItem(storeKey(tenant), JSON.stringify(seen));
  if (!last || !Number.isSafeInteger(last.size)) return remember();
  if (seen.size === last.size && seen.root === last.root) return;
  let ok = false;
  if (seen.size > last.size) {
    const p = await fetch(
      `/v1/ledger/proof/consistency?tenant_id=${encodeURIComponent(tenant)}&from=${last.size}&to=${seen.size}`,
      {
        headers: { Accept: "application/json" },
        credentials: "same-origin",
      },
    );
    if (!p.ok) return; // unreachable now: try again later, never a false alarm
    const body = await p.json();
    ok = await consistent(last.size, seen.size, body.hashes.map(b64), b64(last.root), b64(seen.root));
  }
  if (ok) return remember();
  warn(t("log.diverged", { before: last.size, now: seen.size }));
}

/**
 * Starts watching the workspace's log: now, every few minutes and whenever the tab comes back.
 * @param {string} tenant
 */
export function watchLog(tenant) {
  if (!globalThis.crypto?.subtle || watching.has(tenant)) return;
  watching.add(tenant);
  const run = () => void check(tenant).catch(() => {});
  run();
  setInterval(run, CHECK_EVERY_MS);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") run();
  });
}
