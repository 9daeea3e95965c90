import { type Translate, words } from "../speak.js";
/**
 * Where a meeting happens. Only options that really exist on this server are offered: a Jitsi
 * Meet room we name ourselves (Jitsi creates a room when the first person opens its URL), a link
 * the person pasted (their own Zoom, Google Meet or Teams meeting), a phone call, or in person.
 * We never derive a URL for a service we did not talk to.
 */

export const MEETING_TYPES = ["jitsi", "link", "phone", "in_person"] as const;
export type MeetingType = (typeof MEETING_TYPES)[number];

/** Where a booked meeting happens, as the calendar tool recorded it. */
export interface MeetingPlace {
  type: MeetingType;
  label: string;
  url?: string | undefined;
  /** The link is one a person pasted (kept in the vault), not a room made here. */
  pasted: boolean;
}

/** Values older jobs were proposed with: each now means "paste your own link". */
const LEGACY_LINK_LABEL: Record<string, string> = { google_meet: "Google Meet", zoom: "Zoom", teams: "Teams" };

export const MEETING_OPTIONS: Array<{ value: MeetingType; label: string }> = meetingOptions();

/** The places offered on the Provide info form, in a job's language. */
export function meetingOptions(t: Translate = words()): Array<{ value: MeetingType; label: string }> {
  return [
    { value: "jitsi", label: t("office.meeting.option.jitsi") },
    { value: "link", label: t("office.meeting.option.link") },
    { value: "phone", label: t("office.meeting.option.phone") },
    { value: "in_person", label: t("office.meeting.option.inPerson") },
  ];
}

/** The meeting type a slot value stands for; legacy provider names become a pasted link. */
export function meetingType(value: string | undefined): MeetingType | undefined {
  if (!value) return undefined;
  if ((MEETING_TYPES as readonly string[]).includes(value)) return value as MeetingType;
  return value in LEGACY_LINK_LABEL ? "link" : undefined;
}

/** A short name for the meeting place, e.g. "Jitsi Meet", "Zoom link", "Phone". */
export function meetingLabel(value: string | undefined, linkLabel?: string, say: Translate = words()): string {
  const t = meetingType(value);
  const legacy = value ? LEGACY_LINK_LABEL[value] : undefined;
  if (t === "jitsi") return "Jitsi Meet";
  if (t === "link")
    return say("office.meeting.label.link", { service: linkLabel ?? legacy ?? say("office.meeting.word") });
  if (t === "phone") return say("office.meeting.label.phone");
  if (t === "in_person") return say("office.meeting.label.inPerson");
  return value ?? say("office.meeting.word");
}

/** The service a pasted meeting URL belongs to, for labels ("Zoom link"). */
export function linkServiceOf(url: string): string {
  let host = "";
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return "meeting";
  }
  if (host === "zoom.us" || host.endsWith(".zoom.us")) return "Zoom";
  if (host === "meet.google.com") return "Google Meet";
  if (host.endsWith("teams.microsoft.com") || host.endsWith("teams.live.com")) return "Teams";
  if (host.includes("jit")) return "Jitsi Meet";
  if (host.endsWith("whereby.com")) return "Whereby";
  return host.replace(/^www\./, "");
}

/** A URL a person may paste as the meeting link: https only, no credentials, sane length. */
export function isMeetingUrl(value: string): boolean {
  if (value.length > 500 || !URL.canParse(value)) return false;
  const u = new URL(value);
  return u.protocol === "https:" && !u.username && !u.password && u.hostname.includes(".");
}

export interface MeetingRooms {
  /** The room URL for a job: the same key always names the same room, so a retry reuses it. */
  roomUrl(key: string): string;
  readonly baseUrl: string;
}

/**
 * Jitsi Meet rooms named from a keyed hash of the job's idempotency key: unguessable without
 * the key (a Jitsi room is open to whoever knows its name), stable across retries and restarts.
 * Letters only, so no digit run in a room name reads as a phone number to the PII scanners.
 */
export function createJitsiRooms(deps: { baseUrl: string; keyedHash: (value: string) => string }): MeetingRooms {
  const base = deps.baseUrl.replace(/\/+$/, "");
  return {
    baseUrl: base,
    roomUrl(key) {
      const hex = deps.keyedHash(key).replace(/^[a-z0-9]+:/, "");
      let name = "";
      for (let i = 0; i + 1 < hex.length && name.length < 24; i += 2)
        name += String.fromCharCode(97 + (parseInt(hex.slice(i, i + 2), 16) % 26));
      return `${base}/LogLine-${name.slice(0, 4)}-${name.slice(4, 10)}-${name.slice(10, 24)}`;
    },
  };
}
