import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The one database file every module shares, inside DATA_DIR. */
export const DB_FILE = "logline.sqlite";
/** Written by a running server; admin commands that rewrite data refuse while it is alive. */
export const PID_FILE = "logline.pid";
/** Written by a running server for the CLI on this machine: its URL and a per-boot admin secret. */
export const ADMIN_FILE = "admin.json";

export const databasePath = (dataDir: string) => join(dataDir, DB_FILE);

/**
 * The database and its WAL companions (copied by the backup API, never as plain files) and the
 * files that belong to one running process, which a backup must not carry.
 */
export function isDatabaseFile(name: string): boolean {
  return name === DB_FILE || name.startsWith(`${DB_FILE}-`) || name === PID_FILE || name === ADMIN_FILE;
}

/** The pid of a live server using this data dir, or null. A stale file (crash, SIGKILL) is ignored. */
export function runningServerPid(dataDir: string): number | null {
  const file = join(dataDir, PID_FILE);
  if (!existsSync(file)) return null;
  const [pidText, started] = readFileSync(file, "utf8").trim().split(/\s+/, 2);
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return null;
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: alive but someone else's process — possibly a server under another user.
    if ((err as NodeJS.ErrnoException).code !== "EPERM") return null;
  }
  // After a reboot or a crash the pid may belong to anything else now: it is the server only if
  // it is the very process that wrote the file (same start time), or, for a file without one,
  // a LogLine process.
  if (started) {
    const now = processStartTime(pid);
    return now === undefined || now === started ? pid : null;
  }
  return isLogLineProcess(pid) ? pid : null;
}

/** When a process started, as the system records it (/proc's start tick, or ps), or undefined when it cannot be told. */
export function processStartTime(pid: number): string | undefined {
  try {
    if (existsSync("/proc/self/stat")) {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      // Fields after the command name (which may hold spaces, in parentheses); starttime is field 22.
      return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
    }
    return (
      execFileSync("ps", ["-p", String(pid), "-o", "lstart="], { encoding: "utf8" })
        .trim()
        .replace(/\s+/g, "_") || undefined
    );
  } catch {
    return undefined;
  }
}

/**
 * True when `pid` runs LogLine (its command line names the entry point or the project), read
 * from /proc where there is one, else from `ps`. When it cannot be told, it is assumed to be.
 */
function isLogLineProcess(pid: number): boolean {
  let command: string;
  try {
    command = existsSync("/proc/self/cmdline")
      ? readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ")
      : execFileSync("ps", ["-p", String(pid), "-o", "command="], { encoding: "utf8" });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return !(code === "ENOENT" || (err as { status?: number }).status === 1);
  }
  return /src[\\/]main\.ts|logline/i.test(command);
}

export function writePidFile(dataDir: string): () => void {
  const file = join(dataDir, PID_FILE);
  writeFileSync(file, `${`${process.pid} ${processStartTime(process.pid) ?? ""}`.trim()}\n`);
  return () => {
    try {
      if (readFileSync(file, "utf8").trim().split(/\s+/)[0] === String(process.pid)) rmSync(file);
    } catch {
      // Already gone.
    }
  };
}

/** Throws a clear error when a server is using `dataDir`: offline tools must not write under it. */
export function assertServerStopped(dataDir: string, what: string): void {
  const pid = runningServerPid(dataDir);
  if (pid !== null) {
    throw new Error(
      `${what} needs the server stopped: LogLine (pid ${pid}) is running on ${dataDir}. Stop it first (e.g. systemctl stop logline).`,
    );
  }
}
