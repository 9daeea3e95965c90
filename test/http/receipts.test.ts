import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openNote, parseCheckpoint, parseVerifierKey } from "../../src/ledger/merkle/note.js";
import { verifyReceipt } from "../../src/ledger/merkle/receipt.js";
import { leafHash, verifyConsistency, verifyInclusion } from "../../src/ledger/merkle/rfc6962.js";
import { createBackup } from "../../src/ops/backup.js";
import { restoreBackup } from "../../src/ops/restore.js";
import { cardFrame, click, openStream } from "../support/golden.js";
import { getJson, postJson, startTestServer, type TestServer } from "../support/server.js";
import { built } from "../support/built.js";

/**
 * Receipts through the real server: a job's receipt verifies offline with our verifier, with
 * the CLI, and with Go's own signed-note and tlog packages; it keeps verifying after a restart,
 * a backup and restore, a signing-key rotation and a vault erasure.
 */
const T = "tnt_acme_001";
const root = fileURLToPath(new URL("../..", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "receipts-"));
let t: TestServer;
let dan: string;
let ana: string;
let jobId: string;

const text = async (url: string, token: string, accept = "text/plain") => {
  const r = await fetch(url, { headers: { authorization: `Bearer ${token}`, accept } });
  return { status: r.status, type: r.headers.get("content-type") ?? "", body: await r.text() };
};

/**
 * Runs a command without blocking this process: the server under test lives here, and a
 * blocked event loop would let its keep-alive sockets expire under the client's feet.
 */
function run(
  cmd: string,
  args: string[],
  opts: { cwd?: string; env: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd: opts.cwd,
      env: opts.env,
      stdio: ["ignore", "pipe", "pipe"],
      timeout: opts.timeoutMs,
    });
    let out = "";
    let err = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (err += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, out, err }));
  });
}

function cli(...args: string[]) {
  return run(process.execPath, [built("src/cli/logline.ts"), ...args], {
    cwd: root,
    timeoutMs: 60_000,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" },
  });
}

const goEnv = {
  PATH: process.env.PATH ?? "",
  HOME: work,
  GO111MODULE: "off",
  GOPATH: "/usr/share/gocode",
  GOCACHE: join(tmpdir(), "logline-gocache"),
  GOFLAGS: "-mod=mod",
};
let goBinary: Promise<string> | undefined;

/**
 * Go's reference implementations (Debian's golang.org/x/mod), never our code: the verifier is
 * built once per run and the binary run for each check (`go run` would link it every time).
 */
async function goVerify(...args: string[]) {
  goBinary ??= (async () => {
    const out = join(work, "verify-receipt");
    const built = await run("go", ["build", "-o", out, join(root, "test", "interop", "verify-receipt.go")], {
      timeoutMs: 120_000,
      env: goEnv,
    });
    if (built.code !== 0) throw new Error(`go build failed: ${built.err}`);
    return out;
  })();
  return run(await goBinary, args, { timeoutMs: 60_000, env: goEnv });
}

const save = (name: string, content: string) => {
  const file = join(work, name);
  writeFileSync(file, content);
  return file;
};

async function finishedJob(server: TestServer, body: string): Promise<string> {
  const s = openStream(server.url, { token: dan });
  await s.waitFor((f) => f.event === "hello");
  await postJson(`${server.url}/v1/conversations/cnv_9f2a/messages`, dan, { kind: "text", body_text: body });
  const formalize = (await s.waitFor(cardFrame("job.formalize"))).data.item.message.card;
  await click(server.url, dan, formalize, "job.approve");
  const tracking = (await s.waitFor(cardFrame("job.tracking"))).data.item.message.card;
  await s.waitFor((f) => f.event === "job.update" && f.data.job.state === "waiting_input");
  await click(server.url, dan, tracking, "job.provide_input");
  await s.waitFor(cardFrame("job.finished"), 10_000, "finished card");
  s.close();
  await server.server.office.idle();
  return formalize.job_id;
}

beforeAll(async () => {
  t = await startTestServer({ keep: true, logName: "chat.example.com" });
  dan = t.demo.humans[0]!.token;
  ana = t.demo.humans[1]!.token;
  jobId = await finishedJob(t, "Can you schedule a 30-min call with maria@example.com next week?");
}, 60_000);
afterAll(async () => {
  await t?.close();
  rmSync(t.dataDir, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

describe("the tenant's log over HTTP", () => {
  it("the checkpoint is a signed note with Accept: text/plain, JSON otherwise; the verifier key is published", async () => {
    const note = await text(`${t.url}/v1/ledger/checkpoint?tenant_id=${T}`, dan);
    expect(note.status).toBe(200);
    expect(note.type).toMatch(/^text\/plain/);
    const keys = await text(`${t.url}/v1/ledger/verifier-key`, dan);
    expect(keys.status).toBe(200);
    const [key] = keys.body.trim().split("\n");
    expect(key).toMatch(/^chat\.example\.com\+[0-9a-f]{8}\+[A-Za-z0-9+/]{44}$/);
    const body = openNote(note.body, parseVerifierKey(key!));
    expect(body).not.toBeNull();
    const cp = parseCheckpoint(body!);
    expect(cp.origin).toBe(`chat.example.com/${T}`);
    expect(cp.size).toBe(t.server.ledger.head(T).tenant_seq);
    const json = await getJson(`${t.url}/v1/ledger/checkpoint?tenant_id=${T}`, dan);
    expect(json.body).toMatchObject({ tenant_id: T, tenant_seq: cp.size });
    // Another workspace's checkpoint is not mine to read.
    expect((await text(`${t.url}/v1/ledger/checkpoint?tenant_id=tnt_other`, dan)).status).toBe(403);
  });

  it("inclusion and consistency proofs verify against signed checkpoints; leaves are the stored bytes", async () => {
    const key = t.server.ledger.tlog.verifierKeys()[0]!;
    const firstNote = (await text(`${t.url}/v1/ledger/checkpoint?tenant_id=${T}`, dan)).body;
    const first = parseCheckpoint(openNote(firstNote, parseVerifierKey(key))!);
    await postJson(`${t.url}/v1/conversations/cnv_dan_ana/messages`, dan, { kind: "text", body_text: "one more" });
    await t.server.office.idle();
    const laterNote = (await text(`${t.url}/v1/ledger/checkpoint?tenant_id=${T}`, dan)).body;
    const later = parseCheckpoint(openNote(laterNote, parseVerifierKey(key))!);
    expect(later.size).toBeGreaterThan(first.size);
    const c = await getJson(
      `${t.url}/v1/ledger/proof/consistency?tenant_id=${T}&from=${first.size}&to=${later.size}`,
      dan,
    );
    expect(c.status).toBe(200);
    expect(
      verifyConsistency(
        first.size,
        later.size,
        c.body.hashes.map((h: string) => Buffer.from(h, "base64")),
        first.root,
        later.root,
      ),
    ).toBe(true);
    const leaves = await getJson(`${t.url}/v1/ledger/leaves?tenant_id=${T}&start=1&end=${later.size}`, dan);
    expect(leaves.body.leaves).toHaveLength(later.size);
    for (const seq of [1, 2, Math.floor(later.size / 2), later.size]) {
      const p = await getJson(`${t.url}/v1/ledger/proof/inclusion?tenant_id=${T}&seq=${seq}&size=${later.size}`, dan);
      expect(p.body).toMatchObject({ leaf_index: seq - 1, tree_size: later.size });
      const leaf = Buffer.from(leaves.body.leaves[seq - 1], "base64");
      expect(JSON.parse(leaf.toString("utf8")).seq).toBe(seq);
      expect(
        verifyInclusion(
          leafHash(leaf),
          seq - 1,
          later.size,
          p.body.hashes.map((h: string) => Buffer.from(h, "base64")),
          later.root,
        ),
      ).toBe(true);
    }
    // Go's note and tlog packages agree: both notes are signed, and the second extends the first.
    const go = await goVerify(
      "consistency",
      key,
      save("first.note", firstNote),
      save("later.note", laterNote),
      save("consistency.json", JSON.stringify(c.body)),
    );
    expect(go.err).toBe("");
    expect(go.out.trim()).toBe(`ok ${first.size} -> ${later.size}`);
    // A proof for another pair of sizes is refused.
    const wrong = await getJson(
      `${t.url}/v1/ledger/proof/consistency?tenant_id=${T}&from=${first.size - 1}&to=${later.size}`,
      dan,
    );
    expect(
      (
        await goVerify(
          "consistency",
          key,
          save("first.note", firstNote),
          save("later.note", laterNote),
          save("wrong.json", JSON.stringify(wrong.body)),
        )
      ).code,
    ).not.toBe(0);
  }, 150_000);

  it("a member reads only the leaves of conversations they are in; every leaf hash is there", async () => {
    const size = t.server.ledger.head(T).tenant_seq;
    const mine = await getJson(`${t.url}/v1/ledger/leaves?tenant_id=${T}&start=1&end=${size}`, ana);
    expect(mine.status).toBe(200);
    const events = mine.body.leaves.map((l: string | null) =>
      l === null ? null : JSON.parse(Buffer.from(l, "base64").toString("utf8")),
    );
    expect(events.some((e: unknown) => e === null)).toBe(true);
    expect(events.filter(Boolean).every((e: any) => e.conversation_id !== "cnv_9f2a")).toBe(true);
    expect(mine.body.leaf_hashes).toHaveLength(size);
    const all = await getJson(`${t.url}/v1/ledger/leaves?tenant_id=${T}&start=1&end=${size}`, dan);
    expect(all.body.leaf_hashes).toEqual(mine.body.leaf_hashes);
  });

  it("bad ranges get clear errors", async () => {
    const size = t.server.ledger.head(T).tenant_seq;
    const bad = [
      `/v1/ledger/proof/inclusion?tenant_id=${T}&seq=0`,
      `/v1/ledger/proof/inclusion?tenant_id=${T}&seq=1&size=${size + 1}`,
      `/v1/ledger/proof/inclusion?tenant_id=${T}&seq=x`,
      `/v1/ledger/proof/consistency?tenant_id=${T}&from=3&to=2`,
      `/v1/ledger/proof/consistency?tenant_id=${T}&from=1`,
      `/v1/ledger/leaves?tenant_id=${T}&start=1&end=1001`,
      `/v1/ledger/leaves?tenant_id=${T}&start=5&end=4`,
    ];
    for (const path of bad) {
      const r = await getJson(`${t.url}${path}`, dan);
      expect([400, 404], path).toContain(r.status);
      expect(r.body.error?.code, path).toMatch(/VALIDATION_ERROR|NOT_FOUND/);
    }
  });
});

describe("a job's receipt", () => {
  let receiptFile: string;
  let receipt: any;
  let firstKey: string;

  it("carries every event of the job with its proof, and verifies offline (library, CLI, Go)", async () => {
    const r = await fetch(`${t.url}/v1/jobs/${jobId}/receipt`, { headers: { authorization: `Bearer ${dan}` } });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-disposition")).toContain(`receipt-${jobId}.json`);
    receipt = await r.json();
    const jobEvents = t.server.ledger.query({ tenant_id: T, job_id: jobId, limit: 1000 }).events;
    expect(receipt.events.map((e: any) => e.tenant_seq)).toEqual(jobEvents.map((e) => e.seq));
    expect(receipt.events.length).toBeGreaterThanOrEqual(6);
    // Only what the ledger holds: the address typed in chat is there only as its redaction.
    expect(Buffer.concat(receipt.events.map((e: any) => Buffer.from(e.leaf, "base64"))).toString("utf8")).not.toContain(
      "maria@example.com",
    );
    firstKey = receipt.verifier_keys[0];
    expect(verifyReceipt(receipt, [firstKey])).toMatchObject({
      job_id: jobId,
      events: receipt.events.length,
      origin: `chat.example.com/${T}`,
      key_trusted: true,
    });
    receiptFile = save("receipt.json", JSON.stringify(receipt));
    const ok = await cli("verify-receipt", receiptFile, "--key", firstKey);
    expect(ok.err).toBe("");
    expect(ok.code).toBe(0);
    expect(ok.out).toMatch(
      new RegExp(
        `^ok: job ${jobId}: ${receipt.events.length} events, included in log chat\\.example\\.com/${T} at size \\d+, signed by chat\\.example\\.com`,
      ),
    );
    const go = await goVerify("receipt", firstKey, receiptFile);
    expect(go.err).toBe("");
    expect(go.out.trim()).toBe(
      `ok chat.example.com/${T} ${parseCheckpoint(openNote(receipt.checkpoint, parseVerifierKey(firstKey))!).size} ${jobId} ${receipt.events.length}`,
    );
  }, 150_000);

  it("another person's job reads as not found", async () => {
    const r = await fetch(`${t.url}/v1/jobs/${jobId}/receipt`, { headers: { authorization: `Bearer ${ana}` } });
    expect(r.status).toBe(404);
  });

  it("any flipped bit in a leaf, a proof, the root or the signature fails, here and in Go", async () => {
    const variants: Array<[string, any]> = [];
    const flip = (b: Buffer, at: number, mask: number) => b.writeUInt8(b.readUInt8(at) ^ mask, at);
    const leaf = Buffer.from(receipt.events[1].leaf, "base64");
    flip(leaf, 10, 1);
    variants.push([
      "leaf",
      {
        ...receipt,
        events: receipt.events.map((e: any, i: number) => (i === 1 ? { ...e, leaf: leaf.toString("base64") } : e)),
      },
    ]);
    const proof = Buffer.from(receipt.events[0].proof[0], "base64");
    flip(proof, 0, 0x80);
    variants.push([
      "proof",
      {
        ...receipt,
        events: receipt.events.map((e: any, i: number) =>
          i === 0 ? { ...e, proof: [proof.toString("base64"), ...e.proof.slice(1)] } : e,
        ),
      },
    ]);
    const lines = receipt.checkpoint.split("\n");
    const root = Buffer.from(lines[2], "base64");
    flip(root, 31, 1);
    variants.push([
      "root",
      { ...receipt, checkpoint: [lines[0], lines[1], root.toString("base64"), ...lines.slice(3)].join("\n") },
    ]);
    const sigLine = lines[4] as string;
    const sig = Buffer.from(sigLine.split(" ")[2]!, "base64");
    flip(sig, 20, 4);
    variants.push([
      "signature",
      {
        ...receipt,
        checkpoint: [
          ...lines.slice(0, 4),
          `${sigLine.split(" ").slice(0, 2).join(" ")} ${sig.toString("base64")}`,
          ...lines.slice(5),
        ].join("\n"),
      },
    ]);
    for (const [what, bad] of variants) expect(() => verifyReceipt(bad, [firstKey]), what).toThrow();
    // The command line and Go check every variant at once: each run is a process of its own.
    const other = "other.example+12345678+AaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaA";
    const runs = await Promise.all([
      ...variants.flatMap(([what, bad]) => {
        const file = save(`bad-${what}.json`, JSON.stringify(bad));
        return [
          cli("verify-receipt", file, "--key", firstKey).then((r) => ({ what: `cli ${what}`, code: r.code, want: 1 })),
          goVerify("receipt", firstKey, file).then((r) => ({ what: `go ${what}`, code: r.code, want: "not 0" })),
        ];
      }),
      // The right receipt with someone else's key proves nothing.
      cli("verify-receipt", receiptFile, "--key", other).then((r) => ({
        what: "cli other key",
        code: r.code,
        want: "not 0",
      })),
    ]);
    for (const r of runs) {
      if (r.want === 1) expect(r.code, r.what).toBe(1);
      else expect(r.code, r.what).not.toBe(0);
    }
  }, 300_000);

  it("still verifies after a restart, a backup and restore, a vault erasure and a key rotation; new checkpoints extend the old", async () => {
    const before = t.server.ledger.tlog.checkpointNote(T)!;
    // Restart on the same data.
    await t.close();
    t = await startTestServer({ keep: true, dataDir: t.dataDir, logName: "chat.example.com" });
    dan = t.demo.humans[0]!.token;
    const again = await getJson(`${t.url}/v1/jobs/${jobId}/receipt`, dan);
    expect(verifyReceipt(again.body, [firstKey]).events).toBe(receipt.events.length);
    expect(verifyReceipt(receipt, [firstKey]).job_id).toBe(jobId);

    const ref = (t.server.ledger.query({ tenant_id: T, event_type: "message.sent", limit: 1000 }).events as any[])
      .flatMap((e) => e.payload.pii_refs ?? [])
      .find((r: any) => r.redacted.includes("@"))?.vault_ref;
    expect(ref).toMatch(/^vault_ref:/);
    // Backup, then restore into a new data dir and serve from it.
    const backupFile = join(work, "backup.sqlite");
    expect((await createBackup({ dataDir: t.dataDir, target: backupFile })).ok).toBe(true);
    await t.close();
    const restored = join(work, "restored");
    restoreBackup({ file: backupFile, dataDir: restored });
    // Erase the address's vault entry (server stopped): receipts hold only its redaction.
    const erased = await cli("vault", "erase", "--tenant", T, "--ref", ref, "--data-dir", restored);
    expect(erased.code, erased.err).toBe(0);
    // A new signing key; the old one stays published.
    const rotated = await cli("keys", "rotate-signing", "--data-dir", restored);
    expect(rotated.code, rotated.err).toBe(0);
    t = await startTestServer({ keep: true, dataDir: restored, logName: "chat.example.com" });
    dan = t.demo.humans[0]!.token;
    const keys = (await text(`${t.url}/v1/ledger/verifier-key`, dan)).body.trim().split("\n");
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(firstKey);
    expect(keys[0]).not.toBe(firstKey);
    // The old receipt: still valid under the old key, listed as rotated out.
    expect(verifyReceipt(receipt, [keys[1]!]).events).toBe(receipt.events.length);
    expect((await goVerify("receipt", keys[1]!, receiptFile)).code).toBe(0);
    // A new receipt of the same job is signed by the new key, over a tree that extends the old one.
    await postJson(`${t.url}/v1/conversations/cnv_dan_ana/messages`, dan, {
      kind: "text",
      body_text: "after rotation",
    });
    const fresh = (await getJson(`${t.url}/v1/jobs/${jobId}/receipt`, dan)).body;
    expect(verifyReceipt(fresh, [keys[0]!]).key).toBe(keys[0]);
    expect(() => verifyReceipt(fresh, [keys[1]!])).toThrow(/not signed/);
    const now = t.server.ledger.tlog.checkpointNote(T)!;
    const proof = await getJson(
      `${t.url}/v1/ledger/proof/consistency?tenant_id=${T}&from=${before.size}&to=${now.size}`,
      dan,
    );
    expect(
      verifyConsistency(
        before.size,
        now.size,
        proof.body.hashes.map((h: string) => Buffer.from(h, "base64")),
        before.root,
        now.root,
      ),
    ).toBe(true);
  }, 300_000);
});
