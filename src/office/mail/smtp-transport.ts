import type { ConnectionOptions } from "node:tls";
import nodemailer, { type SendMailOptions } from "nodemailer";
import type { MailConfig } from "./settings.js";

/** What the server said when it took the message. */
interface SendResult {
  /** The server's final answer, e.g. `250 2.0.0 Ok: queued as 4F2A`. */
  response: string;
  messageId: string;
  accepted: string[];
  rejected: string[];
}

/** The one thing the outbox worker needs from a mail transport. */
export interface MailTransport {
  /** Resolves once the server accepted the message for at least one recipient; rejects with nodemailer's error (code, responseCode, response) otherwise. */
  send(message: SendMailOptions): Promise<SendResult>;
  /** Closes idle connections; safe to call twice. */
  close(): void;
}

export interface SmtpTransportOptions {
  /** Extra TLS options (tests pass `{ rejectUnauthorized: false }` for a self-signed server). */
  tls?: ConnectionOptions;
  /** Refuse to go on without STARTTLS on smtp://; see `createSmtpTransport` for the default. */
  requireTLS?: boolean;
  connectionTimeoutMs?: number;
  greetingTimeoutMs?: number;
  socketTimeoutMs?: number;
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "::1"]);

/**
 * An SMTP transport for `MailConfig`. `smtps://` speaks TLS from the first byte (default port
 * 465); `smtp://` upgrades with STARTTLS whenever the server offers it (default port 587).
 *
 * requireTLS: on by default when credentials are configured and the host is not loopback.
 * Without it, a man in the middle who strips the STARTTLS offer would get the password in
 * clear text; a relay on the same machine (no credentials, or localhost) keeps working.
 *
 * Timeouts are short (10 s to connect, 15 s for the greeting, 30 s idle) instead of nodemailer's
 * minutes: the worker sends one message at a time, and a hung server must not stall the queue;
 * a timeout is retried later like any connection failure.
 */
export function createSmtpTransport(cfg: MailConfig, opts: SmtpTransportOptions = {}): MailTransport {
  const url = new URL(cfg.url);
  const secure = url.protocol === "smtps:";
  if (!secure && url.protocol !== "smtp:")
    throw new Error(`Mail URL must start with smtp:// or smtps:// (got ${url.protocol})`);
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const hasCredentials = Boolean(cfg.user);
  const transporter = nodemailer.createTransport({
    host,
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    requireTLS: !secure && (opts.requireTLS ?? (hasCredentials && !LOOPBACK.has(host))),
    ...(hasCredentials ? { auth: { user: cfg.user!, pass: cfg.password ?? "" } } : {}),
    connectionTimeout: opts.connectionTimeoutMs ?? 10_000,
    greetingTimeout: opts.greetingTimeoutMs ?? 15_000,
    socketTimeout: opts.socketTimeoutMs ?? 30_000,
    ...(opts.tls ? { tls: opts.tls } : {}),
  });
  return {
    async send(message) {
      const info = await transporter.sendMail(message);
      return {
        response: info.response,
        messageId: info.messageId,
        accepted: info.accepted.map(String),
        rejected: info.rejected.map(String),
      };
    },
    close() {
      transporter.close();
    },
  };
}
