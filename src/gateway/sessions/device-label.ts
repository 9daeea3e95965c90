import Bowser from "bowser";

/** At most this much of a User-Agent is read: the header is the caller's to fill. */
const MAX_UA = 512;

/**
 * A short, human label for the device a session was made on ("Safari on iOS (iPhone)",
 * "Chrome on Linux"), parsed by bowser. Only the label is kept, never the raw header; a client
 * that is not a known browser is "Unknown device" (or its product name, like "curl").
 */
export function deviceLabel(userAgent: string | undefined): string {
  const ua = (userAgent ?? "").slice(0, MAX_UA).trim();
  if (!ua) return "Unknown device";
  const r = Bowser.parse(ua);
  const browser = r.browser.name?.replace(/^Chrome Headless$/, "Chrome") || "";
  const os = r.os.name ?? "";
  const model = r.platform.model ?? "";
  if (!browser && !os) {
    const product = /^([A-Za-z][\w.-]{0,30})\//.exec(ua)?.[1];
    return product ? product : "Unknown device";
  }
  const where = [os, model && model !== os ? `(${model})` : ""].filter(Boolean).join(" ");
  return [browser || "A browser", where ? `on ${where}` : ""].filter(Boolean).join(" ").slice(0, 80);
}
