import type { ImapFlow } from "imapflow";
import type { ImapConfig } from "./settings.js";
import type { Clock } from "../../shared/clock.js";

/** What the reader hands on: one mail, by its place in the mailbox. */
export interface InboundMail {
  /** `<UIDVALIDITY>:<UID>`: the same message always has the same key. */
  key: string;
  size: number;
  /** The raw message; absent when it is larger than `maxBytes` (it is not downloaded). */
  raw?: Buffer;
}

export interface ImapReaderDeps {
  config: ImapConfig;
  clock: Clock;
  /** A mail larger than this is handed on without its body (to be refused), never downloaded. */
  maxBytes: number;
  /** Records the mail (its answer, or its refusal). A throw leaves it unread, to be tried on the next pass. */
  handle(mail: InboundMail): Promise<void>;
  /** How often the mailbox is looked at even when IDLE says nothing (and the connection is checked). */
  pollMs?: number;
  /** Waits before each reconnect after a failure; the last one repeats. */
  backoffMs?: readonly number[];
  logger?: { error(obj: unknown, msg?: string): void; info?(obj: unknown, msg?: string): void };
}

export interface ImapReaderStatus {
  connected: boolean;
  /** The last connection or command failure, in words safe to show (no password). */
  last_error?: string;
  /** When the next connection attempt is due, while disconnected. */
  next_attempt_at?: string;
  failures: number;
}

export interface ImapReader {
  start(): void;
  stop(): Promise<void>;
  /** Reads what is unread now (tests, or a nudge); resolves when that pass is done. */
  check(): Promise<void>;
  status(): ImapReaderStatus;
}

const DEFAULT_BACKOFF_MS: readonly number[] = [1_000, 5_000, 15_000, 60_000, 300_000];

/**
 * Reads the organizer's mailbox with IMAP (imapflow): unread mail is handed on one message at a
 * time and marked \Seen only after `handle` recorded it, so a crash or a dropped connection
 * loses nothing (the message is read again; recording is idempotent by its key). New mail is
 * noticed through IDLE, and by a poll every `pollMs` in case IDLE is not offered or goes quiet.
 * When the server cannot be reached the reader waits (1 s, 5 s, 15 s, 1 min, then every 5 min)
 * and connects again; nothing it does throws to its caller.
 */
export function createImapReader(deps: ImapReaderDeps): ImapReader {
  const { clock, config } = deps;
  const pollMs = deps.pollMs ?? 60_000;
  const backoff = deps.backoffMs ?? DEFAULT_BACKOFF_MS;
  let client: ImapFlow | null = null;
  let stopped = true;
  let failures = 0;
  let lastError: string | undefined;
  let nextAttemptAt: string | undefined;
  let timer: { cancel(): void } | null = null;
  let pass: Promise<void> | null = null;
  let again = false;
  let connecting: Promise<void> | null = null;

  const safe = (err: unknown) => {
    const e = err as { code?: string; message?: string; responseText?: string; authenticationFailed?: boolean };
    if (e?.authenticationFailed) return "The mail server refused the IMAP user name or password.";
    const text = e?.responseText ?? e?.message ?? String(err);
    return `${e?.code ? `${e.code}: ` : ""}${text}`.replaceAll(config.password, "***").slice(0, 300);
  };

  function arm(delay: number, fn: () => void): void {
    timer?.cancel();
    timer = clock.setTimeout(() => {
      timer = null;
      fn();
    }, delay);
  }

  function dropped(err: unknown): void {
    const c = client;
    client = null;
    if (c) {
      c.removeAllListeners();
      c.on("error", () => undefined);
      c.close();
    }
    if (stopped) return;
    failures++;
    lastError = safe(err);
    const delay = backoff[Math.min(failures - 1, backoff.length - 1)] ?? 60_000;
    nextAttemptAt = new Date(clock.now() + delay).toISOString();
    deps.logger?.error({ err: lastError, retry_in_ms: delay }, "inbound mail: the mailbox is unreachable; retrying");
    arm(delay, () => void check());
  }

  function connect(): Promise<void> {
    if (connecting) return connecting;
    connecting = (async () => {
      if (stopped || client) return;
      // Loaded with the first connection: a server without IMAP_URL starts without it.
      const { ImapFlow } = await import("imapflow");
      if (stopped || client) return;
      const c = new ImapFlow({
        host: config.host,
        port: config.port,
        secure: config.secure,
        auth: { user: config.username, pass: config.password },
        logger: false,
        connectionTimeout: 15_000,
        greetingTimeout: 10_000,
        socketTimeout: 5 * 60_000,
      });
      c.on("error", (err) => dropped(err));
      try {
        await c.connect();
        await c.mailboxOpen(config.mailbox);
      } catch (err) {
        c.on("error", () => undefined);
        c.close();
        dropped(err);
        return;
      }
      if (stopped) {
        await c.logout().catch(() => c.close());
        return;
      }
      client = c;
      failures = 0;
      lastError = undefined;
      nextAttemptAt = undefined;
      c.on("close", () => {
        if (client === c) dropped(new Error("The mail server closed the connection."));
      });
      // IDLE (imapflow enters it by itself once the mailbox is open) tells of new mail here.
      c.on("exists", () => void check());
    })().finally(() => {
      connecting = null;
    });
    return connecting;
  }

  async function readUnseen(c: ImapFlow): Promise<void> {
    const box = c.mailbox;
    if (!box || typeof box !== "object") return;
    const validity = String(box.uidValidity);
    const uids = (await c.search({ seen: false }, { uid: true })) || [];
    for (const uid of uids) {
      if (stopped || client !== c) return;
      const meta = await c.fetchOne(String(uid), { size: true }, { uid: true });
      if (!meta) continue;
      const size = meta.size ?? 0;
      const key = `${validity}:${uid}`;
      let raw: Buffer | undefined;
      if (size <= deps.maxBytes) {
        const msg = await c.fetchOne(String(uid), { source: true }, { uid: true });
        raw = msg ? msg.source : undefined;
        if (!raw) continue;
      }
      // Recorded first, marked read after: a failure in between means it is read again, not lost.
      await deps.handle({ key, size, ...(raw ? { raw } : {}) });
      await c.messageFlagsAdd(String(uid), ["\\Seen"], { uid: true });
    }
  }

  function check(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (pass) {
      again = true;
      return pass;
    }
    pass = (async () => {
      do {
        again = false;
        if (!client) await connect();
        const c = client;
        if (!c) return;
        try {
          await readUnseen(c);
        } catch (err) {
          // A message whose recording failed stays unread; a broken connection is re-made.
          if (!c.usable) dropped(err);
          else {
            lastError = safe(err);
            deps.logger?.error({ err: lastError }, "inbound mail: a message could not be recorded; it stays unread");
            // Read again soon, not only when the next mail arrives: the ones after it wait too.
            arm(backoff[0] ?? 1_000, () => void check());
          }
          return;
        }
      } while (again && !stopped);
      if (!stopped && client) arm(pollMs, () => void check());
    })().finally(() => {
      pass = null;
    });
    return pass;
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      void check();
    },
    async stop() {
      stopped = true;
      timer?.cancel();
      timer = null;
      await connecting?.catch(() => undefined);
      await pass?.catch(() => undefined);
      const c = client;
      client = null;
      if (c) {
        c.removeAllListeners();
        c.on("error", () => undefined);
        await c.logout().catch(() => c.close());
      }
    },
    async check() {
      await check();
      while (pass) await pass.catch(() => undefined);
    },
    status: () => ({
      connected: Boolean(client?.usable),
      ...(lastError ? { last_error: lastError } : {}),
      ...(nextAttemptAt ? { next_attempt_at: nextAttemptAt } : {}),
      failures,
    }),
  };
}
