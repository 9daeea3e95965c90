import { afterEach, describe, expect, it } from "vitest";
import { createSmtpTransport, type MailTransport } from "../../../src/office/mail/index.js";
import { advance, createMailWorld, MAIL_FROM, T, type MailWorld } from "./mail-world.js";
import { startSmtp, type FakeSmtp } from "./smtp-fixture.js";

let w: MailWorld;
let server: FakeSmtp | undefined;
let transport: MailTransport | undefined;
afterEach(async () => {
  await w?.cleanup();
  transport?.close();
  await server?.close();
  server = transport = undefined;
});

const smtp = (s: FakeSmtp) => (transport = createSmtpTransport({ url: s.url, from: MAIL_FROM }));

describe("outbox durability across restarts", () => {
  it("a row queued while the worker was stopped is sent by a new worker on the same database file", async () => {
    w = createMailWorld();
    server = await startSmtp();
    server.rcptReplies.push({ code: 451, message: "4.3.0 try later" });
    const { outboxId } = w.enqueue();
    const first = w.worker({ transport: smtp(server) });
    first.start();
    await first.idle();
    expect(w.row(outboxId)).toMatchObject({ status: "queued", attempts: 1 });
    await first.stop();
    const late = w.enqueue();

    await w.reopen(); // the process restarts after the retry became due
    await w.clock.advance(30_000);
    const second = w.worker({ transport: smtp(server) });
    second.start();
    await second.idle();
    expect(w.row(outboxId)).toMatchObject({ status: "sent", attempts: 2 });
    expect(w.row(late.outboxId)).toMatchObject({ status: "sent", attempts: 1 });
    expect(server.received.map((r) => r.mail.messageId).sort()).toEqual(
      [`<${late.outboxId}@acme.test>`, `<${outboxId}@acme.test>`].sort(),
    );
  });

  it("a row left `sending` by a crash is re-sent first, with the same Message-ID, as a resumed attempt", async () => {
    w = createMailWorld();
    server = await startSmtp();
    const { outboxId } = w.enqueue();
    // The crash: claimed (attempt 1, Message-ID fixed) and maybe accepted, but never marked sent.
    w.db
      .prepare("UPDATE office_outbox SET status = 'sending', attempts = 1, message_id = ? WHERE outbox_id = ?")
      .run(`<${outboxId}@acme.test>`, outboxId);
    await w.reopen();
    const calls: string[] = [];
    const worker = w.worker({
      transport: smtp(server),
      hooks: { beforeAttempt: async (r, attempt, resumed) => void calls.push(`${r.outbox_id} ${attempt} ${resumed}`) },
    });
    worker.start();
    await worker.idle();
    expect(calls).toEqual([`${outboxId} 2 true`]);
    expect(server.received.map((r) => r.mail.messageId)).toEqual([`<${outboxId}@acme.test>`]);
    expect(w.row(outboxId)).toMatchObject({ status: "sent", attempts: 2, messageId: `<${outboxId}@acme.test>` });
  });

  it("rows queued before delivery existed (no due time) are held at start, not sent", async () => {
    w = createMailWorld();
    server = await startSmtp();
    const { outboxId } = w.enqueue();
    w.db
      .prepare("UPDATE office_outbox SET next_attempt_at = NULL, updated_at = NULL WHERE outbox_id = ?")
      .run(outboxId);
    const worker = w.worker({ transport: smtp(server) });
    worker.start();
    await worker.idle();
    expect(w.row(outboxId)).toMatchObject({
      status: "held",
      attempts: 0,
      lastError: "Queued before mail delivery existed; resend to send it",
    });
    expect(server.sessions).toBe(0);
  });
});

describe("held rows (mail not configured)", () => {
  it("are never sent without a transport; resend once configured sends them", async () => {
    w = createMailWorld();
    server = await startSmtp();
    const held = w.enqueue({ status: "held" });
    const queued = w.enqueue(); // enqueued as queued, but this server has no mail: held too
    expect(held.status).toBe("held");
    const unconfigured = w.worker();
    unconfigured.start();
    await advance(w, unconfigured, 3_600_000);
    expect(w.row(held.outboxId)).toMatchObject({ status: "held", attempts: 0, nextAttemptAt: null });
    expect(w.row(queued.outboxId)).toMatchObject({
      status: "held",
      attempts: 0,
      lastError: "Mail is not configured on this server",
    });
    expect(unconfigured.resend(T, held.outboxId)).toEqual({
      ok: false,
      code: "NOT_CONFIGURED",
      message: "Mail is not configured on this server",
    });
    await w.reopen();

    const configured = w.worker({ transport: smtp(server) });
    configured.start();
    await advance(w, configured, 3_600_000);
    expect(server.sessions).toBe(0); // configuring mail does not send what was held
    const r = configured.resend(T, held.outboxId);
    expect(r).toMatchObject({ ok: true, delivery: { status: "queued", outbox_id: held.outboxId } });
    await configured.idle();
    expect(w.row(held.outboxId)).toMatchObject({ status: "sent", attempts: 1, lastError: null });
    expect(w.row(queued.outboxId).status).toBe("held");
    expect(configured.list(T, { status: "sent" }).map((d) => d.outbox_id)).toEqual([held.outboxId]);
  });
});

describe("bad inputs and refusals", () => {
  it("enqueue without recipients is a VALIDATION_ERROR; the same idempotency key enqueues once", () => {
    w = createMailWorld();
    const base = {
      outbox_id: "obx_x",
      tenant_id: T,
      job_id: "job_1",
      idempotency_key: "idem_1",
      to_redacted: "",
      subject: "s",
      body: "b",
    };
    expect(() => w.artifacts.enqueue({ ...base, vault_refs: [] })).toThrow(
      expect.objectContaining({ code: "VALIDATION_ERROR", message: "An outbox message needs at least one recipient" }),
    );
    const a = w.enqueue({ key: "idem_same" });
    const b = w.enqueue({ key: "idem_same", status: "held" });
    expect(b).toMatchObject({ outboxId: a.outboxId, status: "queued" });
    expect(w.artifacts.outbox(T)).toHaveLength(1);
  });

  it("resend: unknown or another tenant's id is NOT_FOUND; a sent row is refused; a failed row is queued again with attempts continuing", async () => {
    w = createMailWorld();
    server = await startSmtp();
    server.dataReplies.push({ code: 554, message: "5.7.1 Message rejected" });
    const worker = w.worker({ transport: smtp(server) });
    expect(() => worker.resend(T, "obx_missing")).toThrow(expect.objectContaining({ code: "NOT_FOUND", status: 404 }));
    const { outboxId } = w.enqueue();
    expect(() => worker.resend("tnt_other", outboxId)).toThrow(expect.objectContaining({ code: "NOT_FOUND" }));
    worker.start();
    await worker.idle();
    expect(w.row(outboxId)).toMatchObject({ status: "failed", attempts: 1, lastError: "554 5.7.1 Message rejected" });
    expect(worker.resend(T, outboxId)).toMatchObject({ ok: true });
    await worker.idle();
    expect(w.row(outboxId)).toMatchObject({ status: "sent", attempts: 2, retryBase: 1 });
    expect(worker.resend(T, outboxId)).toEqual({
      ok: false,
      code: "ALREADY_SENT",
      message: "This message was already sent",
    });
  });

  it("an erased recipient fails the row before any SMTP call; the row and file keep only the redacted form", async () => {
    w = createMailWorld();
    server = await startSmtp();
    const { outboxId, refs, artifactId } = w.enqueue();
    expect(w.vault.erase(T, refs[0]!)).toBe(true);
    // forget() still rewrites the invite file through the outbox row when the value is erased.
    const ics = w.artifacts.get(T, artifactId)?.bytes.toString().replace(/\r\n /g, "");
    expect(ics).toContain("mailto:a***@example.com");
    expect(ics).not.toContain("ann@example.com");
    const outcomes: unknown[] = [];
    const worker = w.worker({
      transport: smtp(server),
      hooks: { afterAttempt: async (_r, attempt, o) => void outcomes.push({ attempt, ...o }) },
    });
    worker.start();
    await worker.idle();
    expect(server.sessions).toBe(0);
    expect(w.row(outboxId)).toMatchObject({
      status: "failed",
      attempts: 0,
      lastError: "The recipient's address is no longer available (erased)",
    });
    expect(outcomes).toEqual([
      { attempt: 0, status: "failed", error: "The recipient's address is no longer available (erased)", attempts: 0 },
    ]);
    expect(JSON.stringify(w.raw(outboxId))).not.toContain("ann@example.com");
  });
});
