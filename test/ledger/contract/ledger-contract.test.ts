import { afterAll, afterEach, describe, expect, it } from "vitest";
import { verifierFromPublicKey } from "../../../src/ledger/index.js";
import {
  conversationCreated,
  entityRegistered,
  messageSent,
  openTestLedger,
  setupTenant,
  type TestLedger,
} from "../helpers.js";
import { openPgLedger, stopSharedPostgres } from "../pg/pg-helpers.js";
import { DoorError, httpDoor, inProcessDoor, type LedgerDoor } from "./ledger-door.js";

/** A ledger behind a door, and a way around it: an edit of a stored payload with the append-only guard lifted. */
interface Subject {
  door: LedgerDoor;
  /** Replaces `from` with `to` in the payload of event `seq` of `tenant`, as a stray script with the owner's rights could. */
  tamper(tenant: string, seq: number, from: string, to: string): Promise<void>;
  cleanup(): Promise<void>;
}

const onSqlite = (open: (t: TestLedger) => Promise<LedgerDoor>) => async (): Promise<Subject> => {
  const t = openTestLedger();
  const door = await open(t);
  return {
    door,
    async tamper(tenant, seq, from, to) {
      for (const trigger of t.db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'ledger_events'")
        .pluck()
        .all() as string[])
        t.db.exec(`DROP TRIGGER "${trigger}"`);
      t.db
        .prepare("UPDATE ledger_events SET payload = replace(payload, ?, ?) WHERE tenant_id = ? AND tenant_seq = ?")
        .run(from, to, tenant, seq);
    },
    cleanup: async () => (await door.close(), t.cleanup()),
  };
};

const onPostgres = (open: (t: Awaited<ReturnType<typeof openPgLedger>>) => Promise<LedgerDoor>) => async () => {
  const t = await openPgLedger();
  const door = await open(t);
  return {
    door,
    async tamper(tenant: string, seq: number, from: string, to: string) {
      await t.owner.query("ALTER TABLE ledger.events DISABLE TRIGGER events_append_only");
      await t.owner.query(
        "UPDATE ledger.events SET payload = replace(payload, $1, $2) WHERE tenant_id = $3 AND tenant_seq = $4",
        [from, to, tenant, seq],
      );
    },
    cleanup: async () => (await door.close(), await t.cleanup()),
  };
};

/**
 * One contract, every door: each case below runs against LedgerApi called in-process and
 * against its REST mirror over a real HTTP server, on SQLite and on PostgreSQL (a throwaway
 * cluster of Debian's server), so the interface, the routes and the two stores cannot drift.
 */
const DOORS: Array<[string, () => Promise<Subject>]> = [
  ["SQLite, in-process", onSqlite(async (t) => inProcessDoor(t.ledger))],
  ["SQLite, REST", onSqlite((t) => httpDoor(t.ledger))],
  ["PostgreSQL, in-process", onPostgres(async (t) => inProcessDoor(t.ledger))],
  ["PostgreSQL, REST", onPostgres((t) => httpDoor(t.ledger))],
];

afterAll(stopSharedPostgres);

describe.each(DOORS)("the ledger's contract (%s)", (_name, open) => {
  let subject: Subject | undefined;
  let door: LedgerDoor;
  afterEach(async () => {
    await subject?.cleanup();
    subject = undefined;
  });
  const start = async () => {
    subject = await open();
    door = subject.door;
    await door.append({ tenant_id: "ten_a", events: setupTenant("ten_a") });
  };

  it("appends a batch all or nothing: one bad event and none of the batch is written", async () => {
    await start();
    const good = messageSent("ten_a", "kept out too");
    const bad = { ...messageSent("ten_a"), event_type: "no.such_type" };
    await expect(door.append({ tenant_id: "ten_a", events: [good, bad] })).rejects.toBeInstanceOf(DoorError);
    const page = await door.query({ tenant_id: "ten_a", limit: 100 });
    expect(page.events.map((e) => e.event_id)).not.toContain(good.event_id);
    const ok = await door.append({
      tenant_id: "ten_a",
      events: [messageSent("ten_a", "one"), messageSent("ten_a", "two")],
    });
    expect(ok.accepted_event_ids).toHaveLength(2);
    expect(ok.cursor).toMatch(/^seq:\d+$/);
  });

  it("a refused event answers the policy's code and leaves a policy.violation in its place", async () => {
    await start();
    await door.append({ tenant_id: "ten_a", events: [entityRegistered("ten_a", "ent_bob")] });
    const outsider = {
      ...messageSent("ten_a", "let me in"),
      actor: { entity_id: "ent_bob", actor_type: "human" as const },
    };
    const refused = await door.append({ tenant_id: "ten_a", events: [outsider] }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DoorError);
    expect(refused).toMatchObject({
      code: "NOT_A_MEMBER",
      details: { policy_id: "policy.conversation_membership", event_index: 0 },
    });
    const violations = await door.query({ tenant_id: "ten_a", event_type: "policy.violation", limit: 10 });
    expect(violations.events.map((e) => e.event_id)).toEqual([(refused as DoorError).details.violation_event_id]);
  });

  it("refuses an event id it has seen", async () => {
    await start();
    const m = messageSent("ten_a");
    await door.append({ tenant_id: "ten_a", events: [m] });
    await expect(door.append({ tenant_id: "ten_a", events: [m] })).rejects.toMatchObject({
      code: "DUPLICATE_EVENT_ID",
    });
  });

  it("queries by filter and cursor, in order, and refuses a bad limit in the standard way", async () => {
    await start();
    await door.append({ tenant_id: "ten_a", events: [conversationCreated("ten_a", "cnv_other")] });
    for (let i = 0; i < 5; i++) await door.append({ tenant_id: "ten_a", events: [messageSent("ten_a", `m${i}`)] });
    const first = await door.query({ tenant_id: "ten_a", event_type: "message.sent", limit: 2 });
    expect(first.events.map((e) => (e.payload as { body_text: string }).body_text)).toEqual(["m0", "m1"]);
    expect(first.next_cursor).toMatch(/^seq:\d+$/);
    const rest = await door.query({
      tenant_id: "ten_a",
      event_type: "message.sent",
      limit: 10,
      after_cursor: first.next_cursor!,
    });
    expect(rest.events.map((e) => (e.payload as { body_text: string }).body_text)).toEqual(["m2", "m3", "m4"]);
    const seqs = [...first.events, ...rest.events].map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(
      (await door.query({ tenant_id: "ten_a", conversation_id: "cnv_other", limit: 10 })).events.map(
        (e) => e.event_type,
      ),
    ).toEqual(["conversation.created"]);
    await expect(door.query({ tenant_id: "ten_a", limit: 5000 })).rejects.toMatchObject({
      code: "VALIDATION_ERROR",
      details: { field: "limit" },
    });
    await expect(door.query({ tenant_id: "ten_a", after_cursor: "seven", limit: 1 })).rejects.toMatchObject({
      code: "VALIDATION_ERROR",
    });
  });

  it("keeps tenants apart", async () => {
    await start();
    await door.append({ tenant_id: "ten_b", events: setupTenant("ten_b") });
    await door.append({ tenant_id: "ten_a", events: [messageSent("ten_a", "for a only")] });
    const b = await door.query({ tenant_id: "ten_b", limit: 100 });
    expect(b.events.every((e) => e.tenant_id === "ten_b")).toBe(true);
    expect(JSON.stringify(b.events)).not.toContain("for a only");
    await expect(door.append({ tenant_id: "ten_b", events: [messageSent("ten_a", "claims a")] })).rejects.toMatchObject(
      { code: "TENANT_SCOPE_VIOLATION" },
    );
  });

  it("checkpoints every commit, signed by a published key", async () => {
    await start();
    expect(await door.checkpoint("ten_nobody")).toBeNull();
    const r = await door.append({ tenant_id: "ten_a", events: [messageSent("ten_a")] });
    const cp = await door.checkpoint("ten_a");
    expect(cp).not.toBeNull();
    expect(`seq:${cp!.tenant_seq}`).toBe(r.cursor);
    const key = (await door.keys()).keys.find((k) => k.key_id === cp!.key_id);
    expect(key?.current).toBe(true);
    expect(verifierFromPublicKey(key!.public_key_pem).verifyCheckpoint(cp!, cp!.signature)).toBe(true);
    expect(
      verifierFromPublicKey(key!.public_key_pem).verifyCheckpoint({ ...cp!, head_hash: "0".repeat(64) }, cp!.signature),
    ).toBe(false);
  });

  it("verifies, and names the first event an edit broke", async () => {
    await start();
    for (let i = 0; i < 3; i++) await door.append({ tenant_id: "ten_a", events: [messageSent("ten_a", `m${i}`)] });
    expect(await door.verify("ten_a")).toMatchObject({ ok: true, first_break: null });
    await subject!.tamper("ten_a", 4, "m1", "M1");
    expect(await door.verify("ten_a")).toMatchObject({
      ok: false,
      first_break: { tenant_seq: 4, reason: "hash_mismatch" },
    });
  });

  it("a stream resumed from a cursor delivers exactly what came after it, in order, then what is new", async () => {
    await start();
    for (let i = 0; i < 3; i++) await door.append({ tenant_id: "ten_a", events: [messageSent("ten_a", `old${i}`)] });
    const from = 3; // after setup (2 events) and old0
    const pending = door.streamFrom("ten_a", from, 4);
    await door.append({ tenant_id: "ten_a", events: [messageSent("ten_a", "new0"), messageSent("ten_a", "new1")] });
    const got = await pending;
    expect(got.map((e) => e.seq)).toEqual([4, 5, 6, 7]);
    expect(got.map((e) => (e.payload as { body_text: string }).body_text)).toEqual(["old1", "old2", "new0", "new1"]);
  });
});
