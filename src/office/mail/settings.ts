import { z } from "zod";
import { ConfigError, int } from "../../shared/env.js";

/** Office's mail settings: outgoing (SMTP, the invites) and incoming (IMAP, the invitees' answers). */

export const MAIL_ENV = z.object({
  SMTP_URL: z
    .string()
    .trim()
    .refine((v) => /^smtps?:\/\/[^\s]+$/.test(v) && URL.canParse(v), {
      message:
        "SMTP_URL must be an smtp:// (STARTTLS) or smtps:// (TLS) URL, e.g. smtp://user:pass@mail.example.com:587",
    })
    .optional(),
  SMTP_USER: z.string().trim().min(1).optional(),
  SMTP_PASSWORD: z.string().min(1).optional(),
  MAIL_FROM: z
    .string()
    .trim()
    .refine((v) => /^(?:[^<>@\s][^<>@]*<[^<>@\s]+@[^<>@\s]+\.[^<>@\s]+>|[^<>@\s]+@[^<>@\s]+\.[^<>@\s]+)$/.test(v), {
      message: "MAIL_FROM must be an address, e.g. office@example.com or Office <office@example.com>",
    })
    .optional(),
});

export const IMAP_ENV = z.object({
  IMAP_URL: z
    .string()
    .trim()
    .refine((v) => /^imaps?:\/\/[^\s]+$/.test(v) && URL.canParse(v), {
      message:
        "IMAP_URL must be an imap:// (STARTTLS when offered) or imaps:// (TLS) URL, e.g. imaps://user:pass@mail.example.com:993",
    })
    .optional(),
  IMAP_USER: z.string().trim().min(1).optional(),
  IMAP_PASSWORD: z.string().min(1).optional(),
  IMAP_MAILBOX: z.string().trim().min(1).max(200).optional(),
  INBOUND_MAX_BYTES: int("INBOUND_MAX_BYTES", 10_000, 50_000_000).optional(),
});

type MailEnv = z.infer<typeof MAIL_ENV>;
type ImapEnv = z.infer<typeof IMAP_ENV>;

export interface MailConfig {
  /** smtp:// (STARTTLS when the server offers it) or smtps:// (TLS from the first byte); credentials removed. */
  url: string;
  user?: string;
  password?: string;
  /** The envelope and header sender, also the invite's ORGANIZER unless a person's address is known. */
  from: { name?: string; address: string };
}

export interface ImapConfig {
  /** imap:// or imaps://, credentials removed (for logs). */
  url: string;
  host: string;
  port: number;
  /** TLS from the first byte (imaps://); imap:// upgrades with STARTTLS when the server offers it. */
  secure: boolean;
  username: string;
  password: string;
  /** The folder answers arrive in (default INBOX). */
  mailbox: string;
  /** A mail larger than this is refused unread (default 1 MB). */
  maxBytes: number;
}

/** SMTP settings: credentials from the URL or from SMTP_USER/SMTP_PASSWORD (which win). */
export function mailSettings(e: MailEnv): MailConfig | undefined {
  if (!e.SMTP_URL && !e.MAIL_FROM) return undefined;
  if (!e.SMTP_URL)
    throw new ConfigError(
      "SMTP_URL",
      "Invalid configuration: SMTP_URL is required when MAIL_FROM is set (e.g. smtp://user:pass@mail.example.com:587)",
    );
  if (!e.MAIL_FROM)
    throw new ConfigError(
      "MAIL_FROM",
      "Invalid configuration: MAIL_FROM is required when SMTP_URL is set (the address invites come from, e.g. Office <office@example.com>)",
    );
  const url = new URL(e.SMTP_URL);
  const user = e.SMTP_USER ?? (url.username ? decodeURIComponent(url.username) : undefined);
  const password = e.SMTP_PASSWORD ?? (url.password ? decodeURIComponent(url.password) : undefined);
  url.username = "";
  url.password = "";
  const m = /^\s*(?:"?([^"<]*?)"?\s*<([^>]+)>|(\S+))\s*$/.exec(e.MAIL_FROM)!;
  const name = m[1]?.trim();
  return {
    url: url.toString().replace(/\/$/, ""),
    ...(user ? { user } : {}),
    ...(password ? { password } : {}),
    from: { ...(name ? { name } : {}), address: (m[2] ?? m[3])!.trim() },
  };
}

/** IMAP settings: credentials from the URL or from IMAP_USER/IMAP_PASSWORD (which win), like SMTP's. */
export function imapSettings(e: ImapEnv): ImapConfig | undefined {
  if (!e.IMAP_URL) {
    if (e.IMAP_USER || e.IMAP_PASSWORD || e.IMAP_MAILBOX)
      throw new ConfigError(
        "IMAP_URL",
        "Invalid configuration: IMAP_URL is required when IMAP_USER, IMAP_PASSWORD or IMAP_MAILBOX is set",
      );
    return undefined;
  }
  const url = new URL(e.IMAP_URL);
  const username = e.IMAP_USER ?? (url.username ? decodeURIComponent(url.username) : undefined);
  const password = e.IMAP_PASSWORD ?? (url.password ? decodeURIComponent(url.password) : undefined);
  if (!username || !password)
    throw new ConfigError(
      username ? "IMAP_PASSWORD" : "IMAP_USER",
      "Invalid configuration: IMAP_URL needs a user name and password (in the URL, or IMAP_USER and IMAP_PASSWORD)",
    );
  const secure = url.protocol === "imaps:";
  url.username = "";
  url.password = "";
  return {
    url: url.toString().replace(/\/$/, ""),
    host: url.hostname.replace(/^\[|\]$/g, ""),
    port: url.port ? Number(url.port) : secure ? 993 : 143,
    secure,
    username,
    password,
    mailbox: e.IMAP_MAILBOX ?? "INBOX",
    maxBytes: e.INBOUND_MAX_BYTES ?? 1_000_000,
  };
}
