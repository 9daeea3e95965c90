import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * `test/ensure-debian.sh` as someone who cannot install: it names what is missing in one line
 * each and fails, and it passes when everything asked for is here. (Run as root it would install
 * with apt-get, which this test does not do; `npm test` itself goes through that path on a
 * fresh machine.)
 */
const script = fileURLToPath(new URL("../ensure-debian.sh", import.meta.url));
/** The script's text on stdin: a clone in a private temp dir is not readable by nobody. */
const asNobody = (args: string[], env: Record<string, string> = {}) => {
  const root = process.getuid?.() === 0;
  const bash = ["bash", "-s", "--", ...args];
  const r = spawnSync(root ? "runuser" : bash[0]!, root ? ["-u", "nobody", "--", ...bash] : bash.slice(1), {
    input: readFileSync(script),
    cwd: "/",
    encoding: "utf8",
    env: { ...process.env, ...env },
  });
  return { status: r.status, lines: r.stderr.trim().split("\n").filter(Boolean) };
};

describe("what the tests need from Debian", () => {
  it("names each missing piece in one line with the package to install, and fails", () => {
    const r = asNobody(["chromium"], { CHROMIUM_PATH: "/nonexistent/chromium" });
    expect(r.status).toBe(1);
    expect(r.lines).toEqual([
      "Browser tests need Chromium at /nonexistent/chromium: run 'sudo apt-get install -y chromium' (or set CHROMIUM_PATH).",
    ]);
  });

  it("passes when what is asked for is here, and refuses a piece it does not know", () => {
    expect(asNobody(["radicale", "postgres"]).status).toBe(0);
    const r = asNobody(["postgress"]);
    expect(r.status).toBe(2);
    expect(r.lines[0]).toMatch(/unknown piece 'postgress'/);
  });
});
