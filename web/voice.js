// @ts-check
// Voice notes: the composer records from the microphone (MediaRecorder) and sends the recording
// as an audio file, with the length measured here, through the same upload as any file.
import { t } from "./i18n.js";
import { toast } from "./store.js";
import { sendVoiceNote } from "./uploads.js";

/** The longest voice note: recording stops there and the note is sent. */
const MAX_MS = 10 * 60_000;
/** What to record in, best first (Chromium and Firefox: WebM/Opus; Safari: MP4/AAC). */
const TYPES = ["audio/webm;codecs=opus", "audio/ogg;codecs=opus", "audio/mp4", "audio/webm"];

/** Whether this browser can record a voice note at all. */
export const canRecord = () => typeof MediaRecorder !== "undefined" && !!navigator.mediaDevices?.getUserMedia;

/** @param {string} type */
const extensionOf = (type) => (type.includes("ogg") ? "ogg" : type.includes("mp4") ? "m4a" : "webm");

/**
 * Starts recording for a conversation; resolves to the recording (its start and a `finish` that
 * sends it or throws it away), or null when the microphone could not be used (the person is told).
 * @param {string} cid @param {() => void} onEnd called once the recording is over, either way
 * @returns {Promise<{ startedAt: number, finish: (send: boolean) => void } | null>}
 */
export async function startRecording(cid, onEnd) {
  /** @type {MediaStream} */
  let stream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({ audio: true });
  } catch (e) {
    toast(t("voice.no_mic", { reason: e instanceof Error ? e.message : String(e) }));
    return null;
  }
  const type = TYPES.find((x) => MediaRecorder.isTypeSupported(x)) ?? "";
  const rec = new MediaRecorder(stream, type ? { mimeType: type } : {});
  /** @type {Blob[]} */
  const chunks = [];
  const startedAt = performance.now();
  let send = false;
  let over = false;
  rec.ondataavailable = (e) => {
    if (e.data.size) chunks.push(e.data);
  };
  rec.onstop = () => {
    for (const track of stream.getTracks()) track.stop();
    clearTimeout(limit);
    const ms = performance.now() - startedAt;
    onEnd();
    if (!send || !chunks.length) return;
    const recorded = rec.mimeType || type || "audio/webm";
    const stamp = new Date().toISOString().slice(0, 19).replace(/[-:]/g, "").replace("T", "-");
    const file = new File(chunks, `${t("voice.file_name")}-${stamp}.${extensionOf(recorded)}`, { type: recorded });
    sendVoiceNote(cid, file, ms);
  };
  /** @param {boolean} andSend */
  const finish = (andSend) => {
    if (over) return;
    over = true;
    send = andSend;
    if (rec.state !== "inactive") rec.stop();
  };
  const limit = setTimeout(() => finish(true), MAX_MS);
  rec.start();
  return { startedAt, finish };
}
