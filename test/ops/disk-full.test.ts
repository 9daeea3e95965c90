import { spawnSync } from "node:child_process";
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cardFrame, openStream } from "../support/golden.js";
import { postJson, startTestServer, type TestServer } from "../support/server.js";

/**
 * A real full disk: DATA_DIR on a 24 MiB tmpfs, topped up with a filler file until the kernel
 * answers ENOSPC. Every write route then answers 507 STORAGE_FULL in the standard shape with
 * nothing half-written, and the same request (same Idempotency-Key) succeeds once the filler
 * is gone — no restart. Needs root for the mount; without it the test says why it is skipped.
 */
const mountPoint = mkdtempSync(join(tmpdir(), "logline-full-"));
const mounted =
  process.getuid?.() === 0 && spawnSync("mount", ["-t", "tmpfs", "-o", "size=24m", "tmpfs", mountPoint]).status === 0;
if (!mounted) console.warn(`disk-full test skipped: cannot mount a tmpfs at ${mountPoint} (needs root)`);

const T = "tnt_acme_001";
let t: TestServer;
let dan = "";
let jobId = "";
let approve: Record<string, unknown> = {};
let contactId = "";
let inviteToken = "";
const filler = () => join(t.dataDir, "filler");

/** Empties SQLite's write-ahead log and fills every free block, so the next write needs space there is none of. */
function fill(): void {
  // The server's checkpoint thread may be mid-round, and then TRUNCATE answers busy and leaves the
  // log as long as it was, with room for the next write: asked again until the log is empty.
  for (let i = 0; ; i++) {
    const [r] = t.server.db.pragma("wal_checkpoint(TRUNCATE)") as Array<{ busy: number; log: number }>;
    if (r?.busy === 0 && r.log === 0) break;
    if (i === 200) throw new Error("the write-ahead log could not be emptied");
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
  }
  const fd = openSync(filler(), "a");
  try {
    for (const size of [1 << 20, 1 << 16, 4096, 512, 1]) {
      const chunk = Buffer.alloc(size, 1);
      for (;;) {
        try {
          writeSync(fd, chunk);
        } catch {
          break;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
}
const unfill = () => rmSync(filler(), { force: true });

beforeAll(async () => {
  if (!mounted) return;
  const dataDir = join(mountPoint, "data");
  mkdirSync(dataDir);
  t = await startTestServer({ dataDir, keep: true });
  dan = t.demo.humans[0]!.token;
  const s = openStream(t.url, { token: dan });
  await postJson(`${t.url}/v1/conversations/cnv_9f2a/messages`, dan, {
    kind: "text",
    body_text: "Can you schedule a 30-min call with Maria next week?",
  });
  const card = (await s.waitFor(cardFrame("job.formalize"))).data.item.message.card;
  s.close();
  jobId = card.job_id;
  const b = card.buttons.find((x: { action: { type: string } }) => x.action.type === "job.approve");
  approve = { conversation_id: "cnv_9f2a", card_id: card.card_id, button_id: b.button_id, action: b.action };
  contactId = (await postJson(`${t.url}/v1/contacts`, dan, { display_name: "Setup Contact" })).body.contact_id;
  inviteToken = (await postJson(`${t.url}/v1/invites`, dan, { display_name: "Newcomer" })).body.invite_token;
  await t.server.office.idle();
}, 30_000);

afterAll(async () => {
  if (t) await t.close();
  if (mounted) spawnSync("umount", [mountPoint]);
  rmSync(mountPoint, { recursive: true, force: true });
});

type Req = { path: string; init: RequestInit; anonymous?: boolean; ok: number };
const json = (method: string, body: unknown): RequestInit => ({
  method,
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});
const message = (n: string) => ({
  event_id: `evt_full_${n}`,
  event_type: "message.sent",
  ts: new Date().toISOString(),
  tenant_id: T,
  trace_id: "trc_full",
  conversation_id: "cnv_9f2a",
  actor: { entity_id: "ent_human_dan", actor_type: "human" },
  payload: { message_id: `msg_full_${n}`, kind: "text", body_text: "hello" },
});

const ROUTES: Array<[string, () => Req]> = [
  [
    "POST /v1/workspaces",
    () => ({
      path: "/v1/workspaces",
      init: json("POST", { name: "Full Co", owner: { display_name: "Zed" } }),
      anonymous: true,
      ok: 201,
    }),
  ],
  [
    "POST /v1/invites/:invite/accept",
    () => ({
      path: `/v1/invites/${inviteToken}/accept`,
      init: json("POST", { display_name: "Newcomer" }),
      anonymous: true,
      ok: 201,
    }),
  ],
  ["PUT /v1/me/email", () => ({ path: "/v1/me/email", init: json("PUT", { email: "dan.full@example.com" }), ok: 200 })],
  ["POST /v1/invites", () => ({ path: "/v1/invites", init: json("POST", { display_name: "Later" }), ok: 201 })],
  [
    "POST /v1/agents",
    () => ({ path: "/v1/agents", init: json("POST", { display_name: "Helper", role: "Assistant" }), ok: 201 }),
  ],
  [
    "POST /v1/contacts",
    () => ({
      path: "/v1/contacts",
      init: json("POST", { display_name: "Bea", email: "bea.full@example.com" }),
      ok: 201,
    }),
  ],
  [
    "POST /v1/contacts/import",
    () => ({
      path: "/v1/contacts/import",
      init: json("POST", { csv: "name,email\nCy,cy.full@example.com\n" }),
      ok: 201,
    }),
  ],
  [
    "PATCH /v1/contacts/:id",
    () => ({
      path: `/v1/contacts/${contactId}`,
      init: json("PATCH", { display_name: "Setup Contact", company: "Acme" }),
      ok: 200,
    }),
  ],
  [
    "POST /v1/conversations",
    () => ({
      path: "/v1/conversations",
      init: json("POST", { title: "Pair", participants: [{ entity_id: "ent_agent_scheduler" }] }),
      ok: 202,
    }),
  ],
  [
    "POST /v1/conversations/:id/messages",
    () => ({
      path: "/v1/conversations/cnv_9f2a/messages",
      init: json("POST", { kind: "text", body_text: "still there?" }),
      ok: 202,
    }),
  ],
  [
    "POST /v1/conversations/:id/read",
    () => ({ path: "/v1/conversations/cnv_9f2a/read", init: json("POST", { cursor: "seq:1" }), ok: 202 }),
  ],
  [
    "POST /v1/conversations/:id/attachments",
    () => {
      const form = new FormData();
      form.append("file", new Blob([Buffer.alloc(256 * 1024, 7)], { type: "application/pdf" }), "Relatório — 東京.pdf");
      return { path: "/v1/conversations/cnv_9f2a/attachments", init: { method: "POST", body: form }, ok: 202 };
    },
  ],
  [
    "POST /v1/conversations/:id/context/pin",
    () => ({ path: "/v1/conversations/cnv_9f2a/context/pin", init: json("POST", { job_id: jobId }), ok: 200 }),
  ],
  [
    "POST /v1/conversations/:id/context/target",
    () => ({ path: "/v1/conversations/cnv_9f2a/context/target", init: json("POST", { job_id: jobId }), ok: 200 }),
  ],
  [
    "POST /v1/jobs/:job_id/actions",
    () => ({ path: `/v1/jobs/${jobId}/actions`, init: json("POST", approve), ok: 202 }),
  ],
  [
    "POST /v1/ledger/append",
    () => ({ path: "/v1/ledger/append", init: json("POST", { tenant_id: T, events: [message("1")] }), ok: 200 }),
  ],
  [
    "POST /v1/office/ingest_message",
    () => ({
      path: "/v1/office/ingest_message",
      init: json("POST", {
        tenant_id: T,
        trace_id: "trc_full",
        conversation_id: "cnv_9f2a",
        actor_entity_id: "ent_human_dan",
        body_text: "hello again",
      }),
      ok: 200,
    }),
  ],
  ["DELETE /v1/contacts/:id", () => ({ path: `/v1/contacts/${contactId}`, init: { method: "DELETE" }, ok: 200 })],
  ["DELETE /v1/session", () => ({ path: "/v1/session", init: { method: "DELETE" }, ok: 200 })],
];

async function send(r: Req, key: string, token: string): Promise<{ status: number; body: any }> {
  const headers = new Headers(r.init.headers);
  if (!r.anonymous) headers.set("authorization", `Bearer ${token}`);
  headers.set("idempotency-key", key);
  const res = await fetch(`${t.url}${r.path}`, { ...r.init, headers });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

describe.skipIf(!mounted)("a full disk (DATA_DIR on a small tmpfs)", () => {
  it.each(ROUTES)(
    "%s: 507 STORAGE_FULL, nothing half-written; the same request succeeds once space is back",
    async (_name, make) => {
      const r = make();
      const key = `full-${_name}-${Date.now()}-0123456789`;
      // Signing out revokes the token it is sent with: a token of its own.
      const token =
        _name === "DELETE /v1/session"
          ? t.server.gateway.tokens.issue({ tenantId: T, entityId: "ent_human_dan" })
          : dan;
      const headBefore = t.server.ledger.head(T).tenant_seq;
      const attachmentsBefore = listAttachments();
      fill();
      let refused: { status: number; body: any };
      try {
        refused = await send(r, key, token);
      } finally {
        unfill();
      }
      expect(refused.status, JSON.stringify(refused.body)).toBe(507);
      expect(refused.body).toEqual({
        error: { code: "STORAGE_FULL", message: expect.stringMatching(/disk is full/), details: expect.any(Object) },
      });
      expect(t.server.ledger.head(T).tenant_seq).toBe(headBefore);
      expect(listAttachments()).toEqual(attachmentsBefore);

      const retried = await send(make(), key, token);
      expect(retried.status, JSON.stringify(retried.body)).toBe(r.ok);
    },
  );

  it("after all of it: no file that nothing names, no temp file, and the ledger verifies", async () => {
    await t.server.office.idle();
    const named = new Set(
      (t.server.db.prepare("SELECT path FROM gateway_attachments").pluck().all() as string[]).map((p) =>
        p.split("/").pop(),
      ),
    );
    for (const f of listAttachments()) expect(named.has(f), f).toBe(true);
    expect(t.server.ledger.verify(T).ok).toBe(true);
  });
});

function listAttachments(): string[] {
  const dir = join(t.dataDir, "attachments");
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}
