import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { PID_FILE, processStartTime, runningServerPid, writePidFile } from "../../src/ops/data-dir.js";

/** A pid file blocks a start only while it names a live LogLine process. */
let dir: string;
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

function pidFile(pid: number, started?: string) {
  dir = mkdtempSync(join(tmpdir(), "logline-pid-"));
  writeFileSync(join(dir, PID_FILE), `${pid}${started ? ` ${started}` : ""}\n`);
  return dir;
}

function live(args: string[]): Promise<number> {
  const c = spawn(process.execPath, args, { stdio: "ignore" });
  children.push(c);
  return new Promise((resolve) => c.once("spawn", () => resolve(c.pid!)));
}

describe("the pid file", () => {
  it("a server writes its pid and start time, and removes the file when it stops", () => {
    dir = mkdtempSync(join(tmpdir(), "logline-pid-"));
    const remove = writePidFile(dir);
    const [pid, started] = readFileSync(join(dir, PID_FILE), "utf8").trim().split(" ");
    expect(Number(pid)).toBe(process.pid);
    expect(started).toBe(processStartTime(process.pid));
    remove();
    expect(existsSync(join(dir, PID_FILE))).toBe(false);
  });

  it("naming the process that wrote it (same start time): running, whatever its command line", async () => {
    const pid = await live(["-e", "setTimeout(() => {}, 30000)"]);
    expect(runningServerPid(pidFile(pid, processStartTime(pid)))).toBe(pid);
  });

  it("naming a pid now used by a process that started later: stale", async () => {
    const pid = await live(["-e", "setTimeout(() => {}, 30000)", "src/main.ts"]);
    expect(runningServerPid(pidFile(pid, "1"))).toBeNull();
  });

  it("naming a live LogLine server: it is running", async () => {
    const pid = await live(["-e", "setTimeout(() => {}, 30000)", "src/main.ts"]);
    expect(runningServerPid(pidFile(pid))).toBe(pid);
  });

  it("naming a live process that is not LogLine (the pid was reused after a crash): stale, the start goes on", async () => {
    const pid = await live(["-e", "setTimeout(() => {}, 30000)"]);
    expect(runningServerPid(pidFile(pid))).toBeNull();
  });

  it("naming no process, or garbage: stale", () => {
    expect(runningServerPid(pidFile(2 ** 22 + 12345))).toBeNull();
    writeFileSync(join(dir, PID_FILE), "not a pid\n");
    expect(runningServerPid(dir)).toBeNull();
  });
});
