import { spawnSync } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { createBackup } from "../../src/ops/backup.js";
import { writePidFile } from "../../src/ops/data-dir.js";
import { restoreBackup } from "../../src/ops/restore.js";
import { silentLogger } from "../../src/ops/logger.js";
import { createServer } from "../../src/server.js";
import { DataKeyError } from "../../src/shared/errors.js";
import { tempDir } from "../ledger/helpers.js";
import { postJson, startTestServer } from "../support/server.js";
import { built } from "../support/built.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

function logline(dataDir: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [built("src/cli/logline.ts"), ...args, "--data-dir", dataDir], {
    cwd: root,
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" },
    timeout: 30_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** A data dir with history: the demo workspace and a conversation with an email in it (a vault entry). */
async function dataDirWithHistory(): Promise<string> {
  const s = await startTestServer({ keep: true });
  cleanups.push(() => rmSync(s.dataDir, { recursive: true, force: true }));
  await postJson(`${s.url}/v1/conversations/cnv_dan_ana/messages`, s.demo.humans[0]!.token, {
    kind: "text",
    body_text: "Write to maria@example.com please",
  });
  await s.server.office.idle();
  await s.close();
  return s.dataDir;
}

const checkpointKeys = (dir: string) => {
  const db = new Database(join(dir, "logline.sqlite"), { readonly: true });
  try {
    return db.prepare("SELECT key_id, COUNT(*) AS n FROM ledger_checkpoints GROUP BY key_id").all() as Array<{
      key_id: string;
      n: number;
    }>;
  } finally {
    db.close();
  }
};

describe("keys rotate-signing", { timeout: 120_000 }, () => {
  it("signs from now on with a new key; every old checkpoint still verifies, the old public key stays published, backups carry it", async () => {
    const dir = await dataDirWithHistory();
    const before = checkpointKeys(dir);
    expect(before).toHaveLength(1);
    const oldKey = before[0]!.key_id;

    const r = logline(dir, "keys", "rotate-signing");
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(new RegExp(`${oldKey} retired`));
    const newKey = /(ed25519:[0-9a-f]+) signs from now on/.exec(r.out)?.[1];
    expect(newKey).toBeDefined();
    expect(newKey).not.toBe(oldKey);
    expect(readdirSync(join(dir, "retired-signing-keys"))).toHaveLength(1);
    expect(
      readFileSync(join(dir, "retired-signing-keys", readdirSync(join(dir, "retired-signing-keys"))[0]!), "utf8"),
    ).toMatch(/BEGIN PUBLIC KEY/);

    const verified = logline(dir, "verify");
    expect(verified.code, verified.out + verified.err).toBe(0);
    expect(verified.out).toMatch(/^ok +tnt_acme_001/m);

    // The server starts, publishes both keys, and signs new commits with the new one.
    const s = await startTestServer({ dataDir: dir, keep: true });
    const keys = s.server.ledger.keys().keys;
    expect(keys.map((k) => [k.key_id, k.current])).toEqual([
      [newKey, true],
      [oldKey, false],
    ]);
    expect(
      (
        await postJson(`${s.url}/v1/conversations/cnv_dan_ana/messages`, s.demo.humans[0]!.token, {
          kind: "text",
          body_text: "after the rotation",
        })
      ).status,
    ).toBe(202);
    expect(s.server.ledger.checkpoint("tnt_acme_001")!.key_id).toBe(newKey);
    expect(s.server.ledger.verify("tnt_acme_001").ok).toBe(true);
    await s.close();

    // A backup after the rotation checks (and restores) with both keys.
    const backup = join(mkdtempSync(join(tmpdir(), "rot-bak-")), "b.sqlite");
    cleanups.push(() => rmSync(backup, { force: true }));
    const made = await createBackup({ dataDir: dir, target: backup });
    expect(made.ok).toBe(true);
    const elsewhere = tempDir("rot-restore-");
    cleanups.push(() => elsewhere.cleanup());
    restoreBackup({ file: backup, dataDir: join(elsewhere.dir, "data") });
    expect(logline(join(elsewhere.dir, "data"), "verify").code).toBe(0);

    // An old checkpoint tampered with is still caught, by the retired key.
    const db = new Database(join(dir, "logline.sqlite"));
    // As someone editing the file would: the append-only triggers go first.
    for (const t of db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'ledger_checkpoints'")
      .pluck()
      .all() as string[])
      db.exec(`DROP TRIGGER "${t}"`);
    db.prepare(
      "UPDATE ledger_checkpoints SET signature = ? WHERE id = (SELECT MIN(id) FROM ledger_checkpoints WHERE key_id = ?)",
    ).run("A".repeat(86), oldKey);
    db.close();
    const tampered = logline(dir, "verify");
    expect(tampered.code).toBe(1);
    expect(tampered.out).toMatch(/BROKEN tnt_acme_001 .*bad_signature/);
  });

  it("a stop between the commit and the rename is finished at the next start; one before the commit leaves the old key", async () => {
    const dir = await dataDirWithHistory();
    const original = readFileSync(join(dir, "ledger-signing-key.pem"));
    expect(logline(dir, "keys", "rotate-signing").code).toBe(0);
    // As if the process stopped before step 4: the new key still waits as .next, the old is in place.
    copyFileSync(join(dir, "ledger-signing-key.pem"), join(dir, "ledger-signing-key.pem.next"));
    writeFileSync(join(dir, "ledger-signing-key.pem"), original);
    const s = await createServer({ dataDir: dir, demo: false, logger: silentLogger() });
    expect(existsSync(join(dir, "ledger-signing-key.pem.next"))).toBe(false);
    expect(s.ledger.verify("tnt_acme_001").ok).toBe(true);
    await s.close();

    // Before the commit: a stray new key is dropped and the ledger's key keeps signing.
    const stray = generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" });
    writeFileSync(join(dir, "ledger-signing-key.pem.next"), stray);
    const current = readFileSync(join(dir, "ledger-signing-key.pem"));
    const again = await createServer({ dataDir: dir, demo: false, logger: silentLogger() });
    expect(existsSync(join(dir, "ledger-signing-key.pem.next"))).toBe(false);
    expect(readFileSync(join(dir, "ledger-signing-key.pem"))).toEqual(current);
    await again.close();
  });

  it("a missing current key still stops the start after a rotation (one line, the key the ledger names)", async () => {
    const dir = await dataDirWithHistory();
    expect(logline(dir, "keys", "rotate-signing").code).toBe(0);
    rmSync(join(dir, "ledger-signing-key.pem"));
    await expect(createServer({ dataDir: dir, demo: false, logger: silentLogger() })).rejects.toThrow(DataKeyError);
  });
});

describe("keys rotate-vault", { timeout: 120_000 }, () => {
  it("re-encrypts every entry with a new key in one go: the values read back, the old key opens nothing, hashes are unchanged", async () => {
    const dir = await dataDirWithHistory();
    const oldKey = readFileSync(join(dir, "office-vault.key"), "utf8");
    const hashesBefore = new Database(join(dir, "logline.sqlite"), { readonly: true })
      .prepare("SELECT hash FROM office_vault ORDER BY vault_ref")
      .pluck()
      .all();
    const r = logline(dir, "keys", "rotate-vault");
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/vault key rotated: [1-9]\d* entr/);
    expect(readFileSync(join(dir, "office-vault.key"), "utf8")).not.toBe(oldKey);

    const s = await startTestServer({ dataDir: dir, keep: true });
    const tl = await (
      await fetch(`${s.url}/v1/conversations/cnv_dan_ana/timeline`, {
        headers: { authorization: `Bearer ${s.demo.humans[0]!.token}` },
      })
    ).json();
    expect(JSON.stringify(tl)).toContain("maria@example.com");
    // The same address typed again is recognised (same salted hash), not stored twice.
    expect(s.server.db.prepare("SELECT hash FROM office_vault ORDER BY vault_ref").pluck().all()).toEqual(hashesBefore);
    await s.close();

    // The old key file no longer opens the vault: the start refuses it with one line.
    writeFileSync(join(dir, "office-vault.key"), oldKey);
    await expect(createServer({ dataDir: dir, demo: false, logger: silentLogger() })).rejects.toThrow(
      /does not open the vault/,
    );
  });

  it("a stop between the re-encryption and the rename is finished at the next start; a stray new key is dropped", async () => {
    const dir = await dataDirWithHistory();
    const oldKey = readFileSync(join(dir, "office-vault.key"));
    expect(logline(dir, "keys", "rotate-vault").code).toBe(0);
    copyFileSync(join(dir, "office-vault.key"), join(dir, "office-vault.key.next"));
    writeFileSync(join(dir, "office-vault.key"), oldKey);
    const s = await createServer({ dataDir: dir, demo: false, logger: silentLogger() });
    expect(existsSync(join(dir, "office-vault.key.next"))).toBe(false);
    const ref = s.db.prepare("SELECT tenant_id, vault_ref FROM office_vault WHERE erased_at IS NULL LIMIT 1").get() as {
      tenant_id: string;
      vault_ref: string;
    };
    expect(s.office.vault.get(ref.tenant_id, ref.vault_ref)).toBe("maria@example.com");
    await s.close();

    writeFileSync(join(dir, "office-vault.key.next"), `${"ab".repeat(32)}\n`);
    const again = await createServer({ dataDir: dir, demo: false, logger: silentLogger() });
    expect(existsSync(join(dir, "office-vault.key.next"))).toBe(false);
    expect(again.office.vault.get(ref.tenant_id, ref.vault_ref)).toBe("maria@example.com");
    await again.close();
  });

  it("refuses while the server runs, and says what to do", async () => {
    const dir = await dataDirWithHistory();
    cleanups.push(writePidFile(dir));
    for (const which of ["rotate-vault", "rotate-signing"]) {
      const r = logline(dir, "keys", which);
      expect(r.code).toBe(1);
      expect(r.err.trim()).toMatch(/needs the server stopped: LogLine \(pid \d+\) is running/);
    }
    const bad = logline(dir, "keys", "rotate");
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/keys: unknown subcommand rotate/);
  });
});
