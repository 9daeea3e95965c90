// @ts-check
import { t } from "./i18n.js";
// Files on their way into a conversation: staged in the composer (picked, pasted or dropped, with
// a preview for pictures), then sent one request each, in order, every one with its progress and
// a cancel; the caption typed with them goes with the first.
import { ApiError, newKey, uploadWithProgress } from "./api.js";
import { LIMITS } from "./lib/facts.js";
import { useEffect, useState } from "./lib/preact.js";
import { addLocal, removeLocal, toast, updateLocal } from "./store.js";

/** Types the Messenger previews and shows inline (never SVG). */
export const PICTURE_MIMES = ["image/png", "image/jpeg", "image/gif", "image/webp"];

/** @typedef {{ id: string, file: File, preview: string | null, durationMs?: number }} Staged */

/** @type {Map<string, Staged[]>} */
const staged = new Map();
/** @type {Set<() => void>} */
const listeners = new Set();
const changed = () => {
  for (const f of listeners) f();
};

/** The files waiting in a conversation's composer; re-renders the caller when they change. @param {string} cid */
export function useStaged(cid) {
  const [, bump] = useState(0);
  useEffect(() => {
    const f = () => bump((n) => n + 1);
    listeners.add(f);
    return () => void listeners.delete(f);
  }, []);
  return staged.get(cid) ?? [];
}

/**
 * Adds files to the composer. Refuses, saying why, a file over the upload limit or more files
 * than can be sent together; the rest are kept.
 * @param {string} cid @param {Iterable<File>} files
 */
export function stageFiles(cid, files) {
  const list = [...(staged.get(cid) ?? [])];
  for (const file of files) {
    if (list.length >= LIMITS.filesPerSend) {
      toast(t("upload.too_many", { count: LIMITS.filesPerSend }));
      break;
    }
    if (file.size > LIMITS.attachmentBytes) {
      toast(t("upload.larger_than", { name: file.name, mb: Math.round(LIMITS.attachmentBytes / 1024 / 1024) }));
      continue;
    }
    if (file.size === 0) {
      toast(t("upload.empty", { name: file.name }));
      continue;
    }
    const preview = PICTURE_MIMES.includes(file.type) ? URL.createObjectURL(file) : null;
    list.push({ id: newKey().slice(3), file, preview });
  }
  staged.set(cid, list);
  changed();
}

/** @param {string} cid @param {string} id */
export function unstage(cid, id) {
  const list = staged.get(cid) ?? [];
  for (const s of list) if (s.id === id && s.preview) URL.revokeObjectURL(s.preview);
  staged.set(
    cid,
    list.filter((s) => s.id !== id),
  );
  changed();
}

/**
 * Sends the staged files, one after another so they arrive in the order chosen. Each has a
 * bubble with its progress and a Cancel; a cancelled one is dropped and the caption moves on to
 * the next. A failed one keeps its bubble with a retry (same idempotency key: never twice).
 * @param {string} cid @param {string} caption
 */
export function sendStaged(cid, caption) {
  const list = staged.get(cid) ?? [];
  if (!list.length) return;
  staged.set(cid, []);
  changed();
  sendFiles(cid, list, caption);
}

/**
 * Sends a voice note recorded in the composer: one audio file with its length, through the same
 * upload (progress, cancel, retry with the same key) as any file.
 * @param {string} cid @param {File} file @param {number} durationMs
 */
export function sendVoiceNote(cid, file, durationMs) {
  sendFiles(cid, [{ id: newKey().slice(3), file, preview: null, durationMs }], "");
}

/** @param {string} cid @param {Staged[]} list @param {string} caption */
function sendFiles(cid, list, caption) {
  let pendingCaption = caption.trim();
  /** @type {Array<() => Promise<void>>} */
  const queue = list.map((s) => {
    if (s.preview) URL.revokeObjectURL(s.preview);
    const localId = `lf_${s.id}`;
    const key = newKey();
    let cancelled = false;
    /** @type {(() => void) | null} */
    let abort = null;
    const cancel = () => {
      cancelled = true;
      abort?.();
      removeLocal(cid, localId);
    };
    /** @type {string | undefined} */
    let myCaption;
    const attempt = async () => {
      if (cancelled) return;
      // The caption rides with the first file that is really sent.
      if (myCaption === undefined && pendingCaption) {
        myCaption = pendingCaption;
        pendingCaption = "";
      }
      updateLocal(cid, localId, { status: "sending", progress: 0 });
      const up = uploadWithProgress(cid, s.file, {
        key,
        ...(myCaption ? { caption: myCaption } : {}),
        ...(s.durationMs ? { durationMs: s.durationMs } : {}),
        onProgress: (f) => updateLocal(cid, localId, { progress: f }),
      });
      abort = up.abort;
      try {
        const r = await up.done;
        updateLocal(cid, localId, { status: "sent", progress: 1, event_ids: r?.created_event_ids ?? [] });
      } catch (e) {
        if (cancelled) {
          // Cancelled before it was sent: the next file carries the caption instead.
          if (myCaption && !pendingCaption) pendingCaption = myCaption;
          return;
        }
        updateLocal(cid, localId, { status: "failed" });
        if (e instanceof ApiError)
          toast(
            e.status === 413
              ? t("upload.too_large", { name: s.file.name })
              : t("upload.failed", { name: s.file.name, reason: e.message }),
          );
      }
    };
    addLocal(cid, {
      local_id: localId,
      kind: "file",
      text: s.file.name,
      size: s.file.size,
      ts: new Date().toISOString(),
      status: "waiting",
      progress: 0,
      event_ids: [],
      retry: () => void attempt(),
      cancel,
    });
    return attempt;
  });
  void (async () => {
    for (const run of queue) await run();
  })();
}
