import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { ImapFlow } from "imapflow";
import { freePort } from "./process.js";

/** A running Dovecot with one mailbox user; `stop` kills it and deletes its mail. */
export interface Dovecot {
  host: string;
  port: number;
  /** `imap://127.0.0.1:<port>` (plain IMAP over loopback). */
  url: string;
  username: string;
  password: string;
  /** Delivers a raw message (RFC 5322 text) to the user's INBOX by IMAP APPEND. */
  deliver(raw: string | Buffer, mailbox?: string): Promise<void>;
  /** How many messages the mailbox holds, and how many of them are \Seen. */
  count(mailbox?: string): Promise<{ total: number; seen: number }>;
  /** Stops the server without deleting its mail (a mailbox that is down); `start` brings it back on the same port. */
  pause(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

const DOVECOT = process.env.DOVECOT_BIN ?? "/usr/sbin/dovecot";

/**
 * Dovecot starts every process with a cleaned environment: only the variables named in
 * `import_environment` survive (its default list, then these). A clock moved by Debian's
 * `faketime` lives in the environment (`LD_PRELOAD`, `FAKETIME…`), so without passing it on the
 * login and mail processes would read the real time, and the master, once the preload re-reads
 * its cleaned environment, would see time go back and launch no new process for three minutes
 * (a login then waits for an auth process that never comes).
 */
const IMPORTED_ENVIRONMENT = [
  "TZ CORE_OUTOFMEM CORE_ERROR LISTEN_PID LISTEN_FDS NOTIFY_SOCKET",
  ...Object.keys(process.env).filter((name) => name === "LD_PRELOAD" || name.startsWith("FAKETIME")),
].join(" ");

/** Resolves once the IMAP greeting arrives on the port. */
async function waitForGreeting(port: number, child: ChildProcess, log: () => string): Promise<void> {
  const until = Date.now() + 15_000;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`dovecot exited (${child.exitCode}): ${log()}`);
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect(port, "127.0.0.1");
      const done = (v: boolean) => {
        s.destroy();
        resolve(v);
      };
      s.once("data", (b) => done(b.toString().startsWith("* OK")));
      s.once("error", () => done(false));
      s.setTimeout(1_000, () => done(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`dovecot did not greet on port ${port}: ${log()}`);
}

function idOf(name: string): { uid: number; gid: number } | null {
  try {
    return {
      uid: Number(execFileSync("id", ["-u", name]).toString().trim()),
      gid: Number(execFileSync("id", ["-g", name]).toString().trim()),
    };
  } catch {
    return null;
  }
}

/**
 * Starts Debian's Dovecot (`bash test/ensure-debian.sh dovecot` installs it) on a free 127.0.0.1 port
 * with its own config, run and mail directories under a temp dir, IMAP only, no TLS, and one
 * user from a passwd-file (plain password, plain auth allowed over loopback). Run as a normal
 * user, every process runs as that user; run as root, Dovecot drops to its package's
 * unprivileged users and the mail belongs to `dovecot`. Killed by `stop` and, as a fallback,
 * when the test process exits.
 */
export async function startDovecot(): Promise<Dovecot> {
  const dir = mkdtempSync(join(tmpdir(), "logline-dovecot-"));
  const username = "organizer@example.test";
  const password = "correct horse";
  const port = await freePort();
  const root = process.getuid?.() === 0;
  const me = userInfo();
  const mailUser = root ? (idOf("dovecot") ?? { uid: 65534, gid: 65534 }) : { uid: me.uid, gid: me.gid };
  const loginUser = root ? (idOf("dovenull") ? "dovenull" : "nobody") : me.username;
  const internalUser = root ? (idOf("dovecot") ? "dovecot" : "nobody") : me.username;
  for (const d of ["run", "state", "mail"]) mkdirSync(join(dir, d));
  if (root) {
    chownSync(join(dir, "mail"), mailUser.uid, mailUser.gid);
    chmodSync(dir, 0o755);
  }
  writeFileSync(join(dir, "users"), `${username}:{PLAIN}${password}::::::\n`);
  writeFileSync(
    join(dir, "dovecot.conf"),
    [
      `base_dir = ${join(dir, "run")}`,
      `state_dir = ${join(dir, "state")}`,
      `log_path = ${join(dir, "dovecot.log")}`,
      "protocols = imap",
      "listen = 127.0.0.1",
      "ssl = no",
      "disable_plaintext_auth = no",
      "auth_mechanisms = plain login",
      `default_login_user = ${loginUser}`,
      `default_internal_user = ${internalUser}`,
      ...(root ? [] : [`default_internal_group = ${me.username}`]),
      "first_valid_uid = 1",
      `import_environment = ${IMPORTED_ENVIRONMENT}`,
      `mail_location = maildir:${join(dir, "mail")}/%n`,
      `passdb {\n  driver = passwd-file\n  args = scheme=PLAIN username_format=%u ${join(dir, "users")}\n}`,
      `userdb {\n  driver = static\n  args = uid=${mailUser.uid} gid=${mailUser.gid} home=${join(dir, "mail")}/%n\n}`,
      `service imap-login {\n  inet_listener imap {\n    address = 127.0.0.1\n    port = ${port}\n  }\n  inet_listener imaps {\n    port = 0\n  }\n}`,
      "service anvil {\n  chroot =\n}",
      "service imap-login {\n  chroot =\n}",
      "",
    ].join("\n"),
  );

  let child: ChildProcess | null = null;
  let stderr = "";
  const killGroup = (c: ChildProcess | null, signal: NodeJS.Signals) => {
    if (!c?.pid) return;
    try {
      process.kill(-c.pid, signal);
    } catch {
      c.kill(signal);
    }
  };
  const killOnExit = () => killGroup(child, "SIGKILL");
  process.once("exit", killOnExit);

  async function start(): Promise<void> {
    // Its own process group: stopping it ends its login and mail processes too, and with them every open connection.
    const c = spawn(DOVECOT, ["-F", "-c", join(dir, "dovecot.conf")], {
      stdio: ["ignore", "ignore", "pipe"],
      detached: true,
    });
    child = c;
    c.stderr?.on("data", (b: Buffer) => {
      stderr = (stderr + b.toString()).slice(-4000);
    });
    await new Promise<void>((resolve, reject) => {
      c.once("spawn", resolve);
      c.once("error", (e) =>
        reject(new Error(`cannot start ${DOVECOT} (run 'bash test/ensure-debian.sh dovecot'): ${e.message}`)),
      );
    });
    await waitForGreeting(port, c, () => stderr);
  }

  async function pause(): Promise<void> {
    const c = child;
    child = null;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise((r) => c.once("exit", r));
    killGroup(c, "SIGKILL");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 3_000))]);
  }

  async function withClient<T>(fn: (client: ImapFlow) => Promise<T>): Promise<T> {
    // A login Dovecot leaves hanging fails here within 20 s, with what Dovecot logged, not at the test's timeout.
    const client = new ImapFlow({
      host: "127.0.0.1",
      port,
      secure: false,
      auth: { user: username, pass: password },
      logger: false,
      socketTimeout: 20_000,
    });
    try {
      await client.connect();
    } catch (err) {
      client.close();
      const log = existsSync(join(dir, "dovecot.log"))
        ? readFileSync(join(dir, "dovecot.log"), "utf8").trim().split("\n").slice(-5).join("\n")
        : "";
      throw new Error(`cannot log in to dovecot on port ${port}: ${(err as Error).message}\n${log}`);
    }
    try {
      return await fn(client);
    } finally {
      await client.logout().catch(() => client.close());
    }
  }

  const stop = async () => {
    process.off("exit", killOnExit);
    await pause();
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    await start();
    return {
      host: "127.0.0.1",
      port,
      url: `imap://127.0.0.1:${port}`,
      username,
      password,
      async deliver(raw, mailbox = "INBOX") {
        await withClient(async (c) => {
          await c.append(mailbox, raw);
        });
      },
      async count(mailbox = "INBOX") {
        return withClient(async (c) => {
          const lock = await c.getMailboxLock(mailbox);
          try {
            const total = typeof c.mailbox === "object" ? c.mailbox.exists : 0;
            const seen = total ? ((await c.search({ seen: true })) || []).length : 0;
            return { total, seen };
          } finally {
            lock.release();
          }
        });
      },
      pause,
      start,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
