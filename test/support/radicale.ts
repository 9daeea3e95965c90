import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./process.js";

/** A running Radicale with one user and its calendars; `stop` kills it and deletes its storage. */
export interface Radicale {
  /** The server root, where CalDAV discovery starts. */
  url: string;
  username: string;
  password: string;
  /** The URLs of the calendars created at start, in the order asked for. */
  calendarUrls: string[];
  /** Stops the server and keeps its storage (a calendar that is down); `resume` starts it again on the same port. */
  pause(): Promise<void>;
  resume(): Promise<void>;
  stop(): Promise<void>;
}

export interface CalendarSpec {
  slug: string;
  displayName: string;
  /** Component types the calendar accepts (default VEVENT). */
  components?: string[];
}

const RADICALE = process.env.RADICALE_BIN ?? "radicale";

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
const xmlEscape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

async function waitUntilAnswering(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const until = Date.now() + 15_000;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`radicale exited (${child.exitCode}): ${log()}`);
    try {
      await fetch(url, { method: "OPTIONS", signal: AbortSignal.timeout(1_000) });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`radicale did not answer at ${url}: ${log()}`);
}

async function makeCalendar(root: string, auth: string, user: string, spec: CalendarSpec): Promise<string> {
  const url = new URL(`/${user}/${spec.slug}/`, root).href;
  const comps = (spec.components ?? ["VEVENT"]).map((c) => `<C:comp name="${c}"/>`).join("");
  const body = `<?xml version="1.0" encoding="utf-8"?>
<C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
  <D:set><D:prop><D:displayname>${xmlEscape(spec.displayName)}</D:displayname><C:supported-calendar-component-set>${comps}</C:supported-calendar-component-set></D:prop></D:set>
</C:mkcalendar>`;
  const res = await fetch(url, {
    method: "MKCALENDAR",
    headers: { authorization: auth, "content-type": "application/xml; charset=utf-8" },
    body,
  });
  if (res.status !== 201) throw new Error(`MKCALENDAR ${spec.slug} answered ${res.status}: ${await res.text()}`);
  return url;
}

/**
 * Starts Debian's Radicale (3.1.x; `bash test/ensure-debian.sh radicale` installs it) on a free
 * 127.0.0.1 port with fresh storage, htpasswd auth from a plain-text users file and no auth
 * delay, and creates the user's calendars (default one "Work" for events). The process is
 * killed by `stop` and, as a fallback, when the test process exits.
 */
export async function startRadicale(
  calendars: CalendarSpec[] = [{ slug: "work", displayName: "Work" }],
): Promise<Radicale> {
  const dir = mkdtempSync(join(tmpdir(), "logline-radicale-"));
  const username = "organizer";
  const password = "correct horse";
  writeFileSync(join(dir, "users"), `${username}:${password}\n`);
  const port = await freePort();
  // Only -C is read when given, so the system's /etc/radicale/config (remote_user auth) is ignored.
  writeFileSync(
    join(dir, "config"),
    [
      "[server]",
      `hosts = 127.0.0.1:${port}`,
      "[auth]",
      "type = htpasswd",
      `htpasswd_filename = ${join(dir, "users")}`,
      "htpasswd_encryption = plain",
      "delay = 0",
      "[rights]",
      "type = owner_only",
      "[storage]",
      `filesystem_folder = ${join(dir, "collections")}`,
      "[web]",
      "type = none",
      "[logging]",
      "level = warning",
      "",
    ].join("\n"),
  );
  let stderr = "";
  const spawnServer = () => {
    const c = spawn(RADICALE, ["-C", join(dir, "config")], { stdio: ["ignore", "ignore", "pipe"] });
    c.stderr?.on("data", (b: Buffer) => {
      stderr = (stderr + b.toString()).slice(-4000);
    });
    return c;
  };
  let child = spawnServer();
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  const pause = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 3_000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
  };
  const stop = async () => {
    process.off("exit", killOnExit);
    await pause();
    rmSync(dir, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}/`;
  const started = async () => {
    await new Promise<void>((resolve, reject) => {
      child.once("spawn", resolve);
      child.once("error", (e) =>
        reject(new Error(`cannot start ${RADICALE} (run 'bash test/ensure-debian.sh radicale'): ${e.message}`)),
      );
    });
    await waitUntilAnswering(url, child, () => stderr);
  };
  const resume = async () => {
    if (child.exitCode === null && child.signalCode === null) return;
    child = spawnServer();
    await started();
  };
  try {
    await started();
    const auth = basic(username, password);
    const calendarUrls: string[] = [];
    for (const spec of calendars) calendarUrls.push(await makeCalendar(url, auth, username, spec));
    return { url, username, password, calendarUrls, pause, resume, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
