/** Limits every layer enforces: the REST contracts, the ledger's event schema, the UI's fields. */
export const LIMITS = {
  /** A chat message's text, in characters. */
  messageChars: 8000,
  /** A conversation's or job's title. */
  titleChars: 120,
  /** An email address (RFC 5321). */
  emailChars: 254,
  /** Any request body but an upload. */
  bodyBytes: 1024 * 1024,
  /** An attachment upload. */
  attachmentBytes: 8 * 1024 * 1024,
  /** A picture is shown inline (and decoded by browsers) only up to this many pixels; larger ones are a download. */
  imagePixels: 40_000_000,
  /** Nor past this many pixels on either side. */
  imageSide: 20_000,
  /** The longest recording a voice note or audio file may say it lasts (a day, in ms). */
  audioMs: 86_400_000,
  /** Files sent together from the composer (one upload request each). */
  filesPerSend: 10,
  /** A person's display name. */
  nameChars: 120,
  /** An IANA time-zone name ("America/Argentina/Buenos_Aires"). */
  timeZoneChars: 64,
  /** A BCP 47 language tag ("pt-PT"). */
  localeChars: 35,
  /** A profile picture upload (PNG, JPEG, GIF or WebP). */
  avatarBytes: 2 * 1024 * 1024,
  /** Nor past this many pixels on either side. */
  avatarSide: 4096,
  /** How far ahead a message may be scheduled, or a reminder set, in days. */
  scheduleDays: 365,
  /** Messages and reminders one person may have waiting at once. */
  schedulesPending: 100,
  /** A custom status's words. */
  statusChars: 100,
} as const;
