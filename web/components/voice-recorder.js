// @ts-check
import { t } from "../i18n.js";
import { html, useEffect, useRef, useState } from "../lib/preact.js";
import { canRecord, startRecording } from "../voice.js";
import { minutes } from "./audio-player.js";
import { Icon } from "./icon.js";

/**
 * The composer's microphone: press to record a voice note; while recording, a bar over the
 * composer says so with the time running, and offers Cancel (nothing is sent) and Send (the
 * note goes like a file, with its length). Escape cancels. Hidden where the browser cannot record.
 * @param {{ cid: string }} props
 */
export function VoiceRecorder({ cid }) {
  const [recording, setRecording] = useState(
    /** @type {{ startedAt: number, finish: (send: boolean) => void } | null} */ (null),
  );
  const [, tick] = useState(0);
  const sendBtn = useRef(/** @type {HTMLButtonElement | null} */ (null));
  const micBtn = useRef(/** @type {HTMLButtonElement | null} */ (null));
  useEffect(() => {
    if (!recording) return undefined;
    sendBtn.current?.focus();
    const timer = setInterval(() => tick((n) => n + 1), 250);
    return () => clearInterval(timer);
  }, [recording]);
  // Leaving the conversation throws an unsent recording away.
  useEffect(() => () => recording?.finish(false), [recording]);
  if (!canRecord()) return null;
  const start = async () => {
    const r = await startRecording(cid, () => {
      setRecording(null);
      requestAnimationFrame(() => micBtn.current?.focus());
    });
    if (r) setRecording(r);
  };
  if (!recording)
    return html`<button ref=${micBtn} type="button" class="icon-btn voice-mic" aria-label=${t("voice.record")} title=${t("voice.record")}
      onClick=${() => void start()}><${Icon} name="mic" /></button>`;
  const elapsed = minutes((performance.now() - recording.startedAt) / 1000);
  return html`<div class="voice-bar" role="group" aria-label=${t("voice.recording_label")}
      onKeyDown=${(/** @type {KeyboardEvent} */ e) => {
        if (e.key === "Escape") {
          e.preventDefault();
          recording.finish(false);
        }
      }}>
    <span class="voice-dot" aria-hidden="true"></span>
    <span class="voice-time" role="status">${t("voice.recording", { time: elapsed })}</span>
    <button type="button" class="btn btn-small btn-secondary voice-cancel" onClick=${() => recording.finish(false)}>${t("voice.cancel")}</button>
    <button ref=${sendBtn} type="button" class="btn btn-primary btn-small voice-send" onClick=${() => recording.finish(true)}>${t("voice.send")}</button>
  </div>`;
}
