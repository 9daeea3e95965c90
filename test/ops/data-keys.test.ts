import { spawnSync } from "node:child_process";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createServer } from "../../src/server.js";
import { DataKeyError } from "../../src/shared/errors.js";
import { built } from "../support/built.js";

/**
 * Keys are part of the data: once there is history, a missing or different signing key or vault
 * key stops the start with one line naming the file — never a silent new key.
 */
const quiet = { info() {}, warn() {}, error() {} };
let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const SIGNING = "ledger-signing-key.pem";
const VAULT = "office-vault.key";

async function boot() {
  return createServer({ dataDir: dir, demo: true, logger: quiet, ledgerSync: "normal", port: 0, host: "127.0.0.1" });
}

/** A data dir with signed history and a vault entry (a contact's address). */
async function withHistory(): Promise<string> {
  dir = mkdtempSync(join(tmpdir(), "logline-keys-"));
  const s = await boot();
  const { url } = await s.listen();
  const dan = s.demo!.humans[0]!.token;
  const r = await fetch(`${url}/v1/contacts`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${dan}`,
      "content-type": "application/json",
      "idempotency-key": "k-keys-contact",
    },
    body: JSON.stringify({ display_name: "Maria", email: "maria@acme.com" }),
  });
  expect(r.status).toBe(201);
  await s.close();
  return dan;
}

async function refused(pattern: RegExp) {
  const err = await boot().then(
    async (s) => {
      await s.close();
      return null;
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DataKeyError);
  expect((err as Error).message).toMatch(pattern);
}

describe("the ledger's signing key", () => {
  it("missing: refused, naming the file; restored: the same history verifies", async () => {
    await withHistory();
    const saved = readFileSync(join(dir, SIGNING));
    unlinkSync(join(dir, SIGNING));
    await refused(
      /ledger-signing-key\.pem is missing, but this ledger was signed with ed25519:[0-9a-f]{16}: restore the file from a backup/,
    );
    // Nothing was written in its place.
    expect(() => readFileSync(join(dir, SIGNING))).toThrow();
    writeFileSync(join(dir, SIGNING), saved, { mode: 0o600 });
    const s = await boot();
    expect(s.ledger.verify("tnt_acme_001").ok).toBe(true);
    await s.close();
  });

  it("replaced by another key: refused", async () => {
    await withHistory();
    writeFileSync(
      join(dir, SIGNING),
      generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }),
    );
    await refused(
      /ledger-signing-key\.pem holds key ed25519:[0-9a-f]{16}, but this ledger was signed with ed25519:[0-9a-f]{16}: put back the original file/,
    );
  });
});

describe("the vault key", () => {
  it("missing or replaced: refused; restored: the addresses read again", async () => {
    const dan = await withHistory();
    copyFileSync(join(dir, VAULT), join(dir, "vault.saved"));
    unlinkSync(join(dir, VAULT));
    await refused(/office-vault\.key is missing, but the vault holds encrypted entries/);
    writeFileSync(join(dir, VAULT), randomBytes(32).toString("hex"));
    await refused(/office-vault\.key does not open the vault's entries/);
    copyFileSync(join(dir, "vault.saved"), join(dir, VAULT));
    const s = await boot();
    const { url } = await s.listen();
    const list = (await (
      await fetch(`${url}/v1/contacts?reveal=1`, { headers: { authorization: `Bearer ${dan}` } })
    ).json()) as { items: Array<{ display_name: string }> };
    expect(list.items.map((c) => c.display_name)).toContain("Maria");
    await s.close();
  });
});

describe("from the command line", () => {
  it("exits 78 (no restart loop under systemd) with one line saying which file", async () => {
    await withHistory();
    unlinkSync(join(dir, SIGNING));
    const r = spawnSync(process.execPath, [built("src/main.ts")], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", DATA_DIR: dir, PORT: "0", LOGLINE_DEMO: "0" },
      encoding: "utf8",
      // A process's start under load can take many seconds; a refusal is what is waited for, not a time.
      timeout: 45_000,
    });
    expect(r.status).toBe(78);
    expect(r.stderr.trim().split("\n").at(-1)).toMatch(/^LogLine will not start: .*ledger-signing-key\.pem is missing/);
  }, 60_000);

  it.each([
    [SIGNING, /ledger-signing-key\.pem is damaged: .*Put back the file from a backup/],
    [VAULT, /office-vault\.key does not hold a 32-byte hex key: it is damaged\. Put back the file from a backup/],
  ])(
    "a %s full of garbage: exit 78 with one line naming the file and the remedy",
    async (file, pattern) => {
      await withHistory();
      writeFileSync(join(dir, file), randomBytes(300));
      const r = spawnSync(process.execPath, [built("src/main.ts")], {
        cwd: dir,
        env: {
          PATH: process.env.PATH ?? "",
          HOME: process.env.HOME ?? "",
          DATA_DIR: dir,
          PORT: "0",
          LOGLINE_DEMO: "0",
        },
        encoding: "utf8",
        timeout: 45_000,
      });
      expect(r.status).toBe(78);
      const last = r.stderr.trim().split("\n").at(-1) ?? "";
      expect(last).toMatch(/^LogLine will not start: /);
      expect(last).toMatch(pattern);
    },
    60_000,
  );
});
