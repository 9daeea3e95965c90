import { afterEach, describe, expect, it } from "vitest";
import { ZAppendResponse, ZCheckpoint, ZQueryResponse } from "../../contracts/ledger.js";
import { canonicalize } from "../../src/ledger/canonical-json.js";
import { chainHash, GENESIS_HASH } from "../../src/ledger/chain.js";
import type { TStoredEvent } from "../../contracts/events.js";
import { messageSent, openTestLedger, setupTenant, type TestLedger } from "./helpers.js";

let t: TestLedger;
afterEach(() => t?.cleanup());

describe("append", () => {
  it("chains, stores and acknowledges a batch with the tenant cursor", async () => {
    t = openTestLedger();
    const events = [...setupTenant("ten_a"), messageSent("ten_a", "first"), messageSent("ten_a", "second")];
    const res = await t.ledger.append({ tenant_id: "ten_a", events });
    expect(ZAppendResponse.parse(res)).toEqual({
      ok: true,
      accepted_event_ids: events.map((e) => e.event_id),
      cursor: "seq:4",
    });

    const stored = t.ledger.query({ tenant_id: "ten_a" }).events as TStoredEvent[];
    expect(stored.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    let prev = GENESIS_HASH;
    for (const e of stored) {
      const { integrity, ...envelope } = e;
      expect(integrity.prev_hash).toBe(prev);
      expect(integrity.hash).toBe(chainHash(prev, canonicalize(envelope)));
      prev = integrity.hash;
    }
    expect(t.ledger.head("ten_a")).toEqual({ tenant_seq: 4, hash: prev });
  });

  it("keeps tenant sequences independent and gapless", async () => {
    t = openTestLedger();
    await Promise.all([
      t.ledger.append({ tenant_id: "ten_a", events: setupTenant("ten_a") }),
      t.ledger.append({ tenant_id: "ten_b", events: setupTenant("ten_b") }),
      t.ledger.append({ tenant_id: "ten_a", events: [messageSent("ten_a")] }),
    ]);
    expect(t.ledger.head("ten_a").tenant_seq).toBe(3);
    expect(t.ledger.head("ten_b").tenant_seq).toBe(2);
    expect(t.ledger.tenants()).toEqual(["ten_a", "ten_b"]);
    expect(t.ledger.head("ten_none")).toEqual({ tenant_seq: 0, hash: GENESIS_HASH });
  });

  it("ignores integrity and seq sent by the caller: the ledger assigns them", async () => {
    t = openTestLedger();
    const ev = { ...setupTenant("ten_a")[0]!, seq: 99, integrity: { hash: "blake3:forged" } };
    await t.ledger.append({ tenant_id: "ten_a", events: [ev] });
    const [stored] = t.ledger.query({ tenant_id: "ten_a" }).events as TStoredEvent[];
    expect(stored!.seq).toBe(1);
    expect(stored!.integrity.hash).not.toBe("blake3:forged");
    expect(t.ledger.verify("ten_a").ok).toBe(true);
  });

  it("signs one checkpoint per tenant per commit over the new head", async () => {
    t = openTestLedger();
    await t.ledger.append({ tenant_id: "ten_a", events: setupTenant("ten_a") });
    const cp = ZCheckpoint.parse(t.ledger.checkpoint("ten_a"));
    expect(cp).toMatchObject({
      tenant_id: "ten_a",
      tenant_seq: 2,
      head_hash: t.ledger.head("ten_a").hash,
      key_id: t.ledger.keys().keys[0]!.key_id,
    });
    expect(t.ledger.checkpoint("ten_other")).toBeNull();
    const n = t.db.prepare("SELECT count(*) FROM ledger_checkpoints").pluck().get();
    expect(n).toBe(1);
  });

  it("rejects a malformed request with VALIDATION_ERROR", async () => {
    t = openTestLedger();
    await expect(t.ledger.append({ tenant_id: "ten_a", events: [] })).rejects.toMatchObject({
      code: "VALIDATION_ERROR",
    });
    await expect(t.ledger.append({ events: [{}] } as never)).rejects.toMatchObject({ code: "VALIDATION_ERROR" });
  });
});

describe("query", () => {
  it("filters by conversation, job and type and paginates with next_cursor", async () => {
    t = openTestLedger();
    await t.ledger.append({ tenant_id: "ten_a", events: setupTenant("ten_a") });
    const msgs = Array.from({ length: 25 }, (_, i) => messageSent("ten_a", `m${i}`));
    await t.ledger.append({ tenant_id: "ten_a", events: msgs });
    await t.ledger.append({ tenant_id: "ten_b", events: [...setupTenant("ten_b"), messageSent("ten_b")] });

    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = ZQueryResponse.parse(
        t.ledger.query({
          tenant_id: "ten_a",
          event_type: "message.sent",
          limit: 10,
          ...(cursor ? { after_cursor: cursor } : {}),
        }),
      );
      seen.push(...page.events.map((e) => e.event_id as string));
      cursor = page.next_cursor ?? undefined;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(msgs.map((m) => m.event_id));

    expect(t.ledger.query({ tenant_id: "ten_a", conversation_id: "cnv_workspace" }).events).toHaveLength(1);
    expect(t.ledger.query({ tenant_id: "ten_a", job_id: "job_none" }).events).toHaveLength(0);
    expect(t.ledger.query({ tenant_id: "ten_a", after_cursor: "seq:26" }).events.map((e) => e.seq)).toEqual([27]);
    expect(t.ledger.query({ tenant_id: "ten_a" }).next_cursor).toBeNull();
  });

  it("refuses bad filters", () => {
    t = openTestLedger();
    expect(() => t.ledger.query({ tenant_id: "ten_a", limit: 1001 })).toThrow(
      expect.objectContaining({ code: "VALIDATION_ERROR" }),
    );
    expect(() => t.ledger.query({ tenant_id: "ten_a", after_cursor: "seq:-1" })).toThrow(
      expect.objectContaining({ code: "VALIDATION_ERROR" }),
    );
    expect(() => t.ledger.query({ tenant_id: "ten_a", event_type: "nope" as never })).toThrow(
      expect.objectContaining({ code: "VALIDATION_ERROR" }),
    );
  });

  it("replays in order, for one tenant after a seq, and subscribers see commits in order", async () => {
    t = openTestLedger();
    const live: number[] = [];
    const stop = t.ledger.subscribe((e) => e.tenant_id === "ten_a" && live.push(e.seq));
    await t.ledger.append({ tenant_id: "ten_a", events: setupTenant("ten_a") });
    await Promise.all(
      [1, 2, 3].map((i) => t.ledger.append({ tenant_id: "ten_a", events: [messageSent("ten_a", `x${i}`)] })),
    );
    stop();
    await t.ledger.append({ tenant_id: "ten_a", events: [messageSent("ten_a")] });
    expect(live).toEqual([1, 2, 3, 4, 5]);
    const replayed: number[] = [];
    t.ledger.replay((e) => replayed.push(e.seq), { tenantId: "ten_a", afterTenantSeq: 3 });
    expect(replayed).toEqual([4, 5, 6]);
  });
});
