// @ts-check
import { t } from "../i18n.js";
import { html, useRef, useState } from "../lib/preact.js";
import { Icon } from "./icon.js";

/** Seconds as m:ss. @param {number} s */
export function minutes(s) {
  const whole = Number.isFinite(s) && s > 0 ? Math.floor(s) : 0;
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

/**
 * An audio file in the chat (a voice note or an uploaded .ogg, .mp3, .m4a …): a play/pause
 * button and a scrubber with the time, all reachable by keyboard and named for screen readers.
 * The length is the one recorded with the file when there is one (a browser's WebM recording
 * has none in its header), else what the browser reads.
 * @param {{ src: string, title: string, durationMs?: number }} props
 */
export function AudioPlayer({ src, title, durationMs }) {
  const audio = useRef(/** @type {HTMLAudioElement | null} */ (null));
  const [playing, setPlaying] = useState(false);
  const [at, setAt] = useState(0);
  const [read, setRead] = useState(0);
  const length = durationMs ? durationMs / 1000 : read;
  const toggle = () => {
    const a = audio.current;
    if (!a) return;
    if (a.paused) void a.play().catch(() => setPlaying(false));
    else a.pause();
  };
  /** @param {any} e */
  const seek = (e) => {
    const a = audio.current;
    const to = Number(e.currentTarget.value);
    if (!a || !Number.isFinite(to)) return;
    a.currentTime = to;
    setAt(to);
  };
  const name = playing ? t("audio.pause", { title }) : t("audio.play", { title });
  return html`<div class="audio-player">
    <audio ref=${audio} src=${src} preload="metadata"
      onLoadedMetadata=${(/** @type {any} */ e) => {
        const d = e.currentTarget.duration;
        if (Number.isFinite(d) && d > 0) setRead(d);
      }}
      onTimeUpdate=${(/** @type {any} */ e) => setAt(e.currentTarget.currentTime)}
      onPlay=${() => setPlaying(true)} onPause=${() => setPlaying(false)}
      onEnded=${() => {
        setPlaying(false);
        setAt(0);
      }}></audio>
    <button type="button" class="icon-btn audio-toggle" aria-label=${name} title=${name} aria-pressed=${playing ? "true" : "false"} onClick=${toggle}>
      <${Icon} name=${playing ? "pause" : "play"} /></button>
    <input type="range" class="audio-scrub" min="0" max=${length || 0} step="0.1" value=${Math.min(at, length || at)}
      aria-label=${t("audio.position", { title })} aria-valuetext=${t("audio.time", { at: minutes(at), total: minutes(length) })}
      onInput=${seek} />
    <span class="audio-time" aria-hidden="true">${minutes(at)} / ${minutes(length)}</span>
  </div>`;
}
