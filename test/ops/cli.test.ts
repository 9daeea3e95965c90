import { afterEach, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { createServer } from "../../src/server.js";
import { silentLogger } from "../../src/ops/logger.js";
import { tempDir } from "../ledger/helpers.js";
import { built } from "../support/built.js";

const root = fileURLToPath(new URL("../..", import.meta.url));

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

function logline(dataDir: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [built("src/cli/logline.ts"), ...args], {
    cwd: root,
    encoding: "utf8",
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      DATA_DIR: dataDir,
      PUBLIC_URL: "https://chat.example.com",
    },
    timeout: 30_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** Whether a token opens the gateway, asked of a freshly booted server on the same data dir. */
async function tokenWorks(dataDir: string, token: string): Promise<boolean> {
  const s = await createServer({ dataDir, demo: false, logger: silentLogger() });
  try {
    const res = await s.app.request("/v1/conversations", { headers: { authorization: `Bearer ${token}` } });
    return res.status === 200;
  } finally {
    await s.close();
  }
}

// Each test runs the CLI several times, each a process of its own: slow on a busy machine.
describe("logline CLI", { timeout: 120_000 }, () => {
  it("creates a workspace with a sign-in link, rotates the owner's token, and never seeds the demo", async () => {
    const dir = tempDir("cli-");
    cleanups.push(() => dir.cleanup());
    const created = logline(dir.dir, "workspace", "create", "--name", "Acme Plumbing", "--owner", "Maria");
    expect(created.code, created.err).toBe(0);
    const tenant = /workspace (\S+) created; owner (\S+)/.exec(created.out)!;
    const link = /https:\/\/chat\.example\.com\/signin\?token=(\S+)/.exec(created.out)!;
    expect(link).not.toBeNull();
    const token = decodeURIComponent(link[1]!);

    const db = new Database(join(dir.dir, "logline.sqlite"), { readonly: true });
    expect(db.prepare("SELECT DISTINCT tenant_id FROM ledger_events").pluck().all()).toEqual([tenant[1]]);
    db.close();
    expect(await tokenWorks(dir.dir, token)).toBe(true);

    const rotated = logline(dir.dir, "token", "rotate", "--tenant", tenant[1]!, "--entity", tenant[2]!);
    expect(rotated.code, rotated.err).toBe(0);
    expect(rotated.out).toMatch(/revoked 1 token\(s\)/);
    const fresh = decodeURIComponent(/signin\?token=(\S+)/.exec(rotated.out)![1]!);
    expect(await tokenWorks(dir.dir, token)).toBe(false);
    expect(await tokenWorks(dir.dir, fresh)).toBe(true);

    const unknown = logline(dir.dir, "token", "rotate", "--tenant", tenant[1]!, "--entity", "ent_nobody");
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/No entity ent_nobody/);
  });

  it("vault erase forgets one entry with the server stopped; the chain still verifies", async () => {
    const dir = tempDir("cli-");
    cleanups.push(() => dir.cleanup());
    const s = await createServer({ dataDir: dir.dir, demo: false, logger: silentLogger() });
    const put = s.office.vault.put("tnt_cli", "email", "maria@acme.com");
    await s.close();

    const bad = logline(dir.dir, "vault", "erase", "--tenant", "tnt_cli", "--ref", "maria@acme.com");
    expect(bad.code).toBe(2);
    const erased = logline(dir.dir, "vault", "erase", "--tenant", "tnt_cli", "--ref", put.vault_ref);
    expect(erased.code, erased.err).toBe(0);
    expect(erased.out).toContain(`erased ${put.vault_ref}`);
    const again = logline(dir.dir, "vault", "erase", "--tenant", "tnt_cli", "--ref", put.vault_ref);
    expect(again.code).toBe(1);

    const after = await createServer({ dataDir: dir.dir, demo: false, logger: silentLogger() });
    try {
      expect(after.office.vault.get("tnt_cli", put.vault_ref)).toBeNull();
    } finally {
      await after.close();
    }
    expect(logline(dir.dir, "verify").code).toBe(0);
  });

  it("backs up, verifies, exports and imports through the commands, with exit codes that mean something", () => {
    const dir = tempDir("cli-");
    cleanups.push(() => dir.cleanup());
    expect(logline(dir.dir, "workspace", "create", "--name", "Acme", "--owner", "Dan").code).toBe(0);

    const file = join(dir.dir, "..", `${process.pid}-cli-backup.sqlite`);
    cleanups.push(() => spawnSync("rm", ["-f", file, `${file}.failed`]));
    const backup = logline(dir.dir, "backup", file);
    expect(backup.code, backup.err).toBe(0);
    expect(backup.out.trim()).toBe(file.replace(/\/[^/]+\/\.\.\//, "/"));

    expect(logline(dir.dir, "verify").out).toMatch(/^ok +tnt_/m);

    const tenant = /^ok +(\S+)/m.exec(logline(dir.dir, "verify").out)![1]!;
    const exported = logline(dir.dir, "export", "--tenant", tenant);
    expect(exported.code).toBe(0);
    expect(
      exported.out
        .trim()
        .split("\n")
        .every((l) => JSON.parse(l).tenant_id === tenant),
    ).toBe(true);

    const usage = logline(dir.dir, "export");
    expect(usage.code).toBe(2);
    expect(usage.err).toMatch(/--tenant is required/);

    const empty = tempDir("cli-restore-");
    cleanups.push(() => empty.cleanup());
    const restored = logline(empty.dir, "restore", file);
    expect(restored.code, restored.err).toBe(0);
    expect(logline(empty.dir, "verify").out).toMatch(new RegExp(`^ok +${tenant}`, "m"));
  });
});
