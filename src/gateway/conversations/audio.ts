/**
 * Audio a browser plays inline: the type is read from the file's first bytes (its container's
 * signature), never taken from the name or the declared type alone, so a voice note recorded in
 * the browser (WebM/Opus, or MP4/AAC in Safari) and an uploaded .ogg, .mp3, .m4a, .wav or .flac
 * are served as what they are, and anything else stays a download.
 */

/** Declared types under which audio may arrive: an audio type, a generic one, or a container's video/application name. */
const MAY_BE_AUDIO = new Set([
  "",
  "application/octet-stream",
  "application/ogg",
  "video/ogg",
  "video/webm",
  "video/mp4",
]);

/** MP4 brands that are audio whatever the file was called (iTunes audio and audiobooks). */
const AUDIO_BRANDS = new Set(["M4A ", "M4B ", "M4P "]);

const ascii = (b: Uint8Array, from: number, to: number) => String.fromCharCode(...b.subarray(from, to));

/**
 * The audio type of these bytes, or null when they are not audio the Messenger plays (or were
 * declared as something else: a file sent as text stays text).
 */
export function inspectAudio(bytes: Uint8Array, declaredType: string, filename: string): string | null {
  const declared = declaredType.split(";")[0]!.trim().toLowerCase();
  if (!declared.startsWith("audio/") && !MAY_BE_AUDIO.has(declared)) return null;
  if (bytes.length < 12) return null;
  if (ascii(bytes, 0, 4) === "OggS") return "audio/ogg";
  if (ascii(bytes, 0, 4) === "fLaC") return "audio/flac";
  if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 12) === "WAVE") return "audio/wav";
  // EBML header; the document type names WebM (Matroska is not played by every browser).
  if (bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3)
    return ascii(bytes, 4, Math.min(bytes.length, 64)).includes("webm") ? "audio/webm" : null;
  if (ascii(bytes, 4, 8) === "ftyp") {
    // An MP4 is audio by its brand, or when it was sent as audio or named as audio.
    const brand = ascii(bytes, 8, 12);
    const named = /\.(m4a|m4b|aac)$/i.test(filename);
    return AUDIO_BRANDS.has(brand) || declared.startsWith("audio/") || named ? "audio/mp4" : null;
  }
  // MP3: an ID3 tag, or straight into an MPEG audio frame (11 sync bits, layer III).
  if (ascii(bytes, 0, 3) === "ID3") return "audio/mpeg";
  if (bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe6) === 0xe2) return "audio/mpeg";
  return null;
}
