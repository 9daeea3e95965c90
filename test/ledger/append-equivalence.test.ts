import { readFileSync } from "node:fs";
import { createPrivateKey } from "node:crypto";
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { openDatabase } from "../../src/shared/db.js";
import { canonicalize } from "../../src/ledger/canonical-json.js";
import { envelopeOf } from "../../src/ledger/commit-group.js";
import { createSqliteLedger } from "../../src/ledger/ledger.js";
import { createSigner } from "../../src/ledger/signing.js";
import { createLedgerStore, migrateLedger } from "../../src/ledger/store.js";
import { verifyTenant } from "../../src/ledger/verify.js";
import type { TUblEvent } from "../../contracts/events.js";
import { mth } from "./merkle/reference.js";
import { GOLDEN_KEY_PEM, writeGoldenLedger, type GoldenRows } from "./fixtures/golden-ledger.js";
import { messageSent, openTestLedger, setupTenant } from "./helpers.js";
import { isIsoTime } from "../../src/ledger/policy/fast-event.js";
import { ZIsoTime } from "../../contracts/primitives.js";

const golden = JSON.parse(
  readFileSync(new URL("./fixtures/golden-ledger.json", import.meta.url), "utf8"),
) as GoldenRows;

describe("the append path keeps its bytes", () => {
  it("writes the golden rows byte for byte: payloads, hashes, checkpoints, signatures, answers", async () => {
    expect(JSON.stringify(await writeGoldenLedger())).toBe(JSON.stringify(golden));
  });

  it("verifies rows written by an earlier build, boots on them and keeps the chain going", async () => {
    const db = openDatabase({ path: ":memory:" });
    migrateLedger(db);
    const cols = (o: Record<string, unknown>) => Object.keys(o);
    const insertAll = (table: string, rows: Record<string, unknown>[]) => {
      const stmt = db.prepare(
        `INSERT INTO ${table} (${cols(rows[0]!).join(", ")}) VALUES (${cols(rows[0]!)
          .map((c) => `@${c}`)
          .join(", ")})`,
      );
      for (const r of rows) stmt.run(r);
    };
    insertAll("ledger_events", golden.events);
    insertAll("ledger_checkpoints", golden.checkpoints);
    const signer = createSigner(createPrivateKey(GOLDEN_KEY_PEM));
    const store = createLedgerStore(db);
    for (const tenant of ["ten_a", "ten_b"]) expect(verifyTenant(store, [signer], tenant)).toMatchObject({ ok: true });

    const ledger = createSqliteLedger({ db, signer });
    await ledger.append({
      tenant_id: "ten_a",
      events: [
        { ...messageSent("ten_a"), conversation_id: "cnv_room", actor: { entity_id: "ent_ana", actor_type: "human" } },
      ],
    });
    expect(ledger.verify("ten_a")).toMatchObject({ ok: true });
    // Those rows had no tree hashes: boot filled them in, and the tree is the one of the payloads.
    const payloads = db
      .prepare("SELECT payload FROM ledger_events WHERE tenant_id = 'ten_a' ORDER BY tenant_seq")
      .pluck()
      .all() as string[];
    expect(ledger.tlog.checkpointNote("ten_a")!.root).toEqual(mth(payloads.map((p) => Buffer.from(p, "utf8"))));
    ledger.close();
    db.close();
  });

  it("builds the stored envelope with the members and values of { ...rest, seq }, keys in order", () => {
    const key = fc.oneof(
      fc.string({ maxLength: 6 }),
      fc.constantFrom("seq", "integrity", "sep", "sez", "10", "9", "payload", "actor"),
    );
    const value = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.constant(undefined),
      fc.constant(null),
      fc.dictionary(fc.string({ maxLength: 3 }), fc.string(), { maxKeys: 3 }),
    );
    fc.assert(
      fc.property(fc.dictionary(key, value, { maxKeys: 14 }), fc.nat(), (raw, seq) => {
        const event = raw as unknown as TUblEvent;
        const { integrity: _i, seq: _s, ...rest } = raw as Record<string, unknown>;
        const reference = { ...rest, seq };
        const built = envelopeOf(event, seq) as unknown as Record<string, unknown>;
        expect(built).toStrictEqual(reference);
        expect(Object.keys(built).sort()).toEqual(Object.keys(reference).sort());
        expect(canonicalize(built)).toBe(canonicalize(reference));
      }),
      { numRuns: 500 },
    );
  });
});

describe("canonicalize's key sort", () => {
  it("orders objects of up to 40 keys exactly as the built-in sort does", () => {
    const reference = (v: unknown): string => {
      if (v === null || typeof v !== "object") return JSON.stringify(v);
      if (Array.isArray(v)) return `[${v.map(reference).join(",")}]`;
      const o = v as Record<string, unknown>;
      return `{${Object.keys(o)
        .sort()
        .map((k) => `${JSON.stringify(k)}:${reference(o[k])}`)
        .join(",")}}`;
    };
    const key = fc.oneof(
      fc.string({ maxLength: 4 }),
      fc.string({ unit: "grapheme", maxLength: 3 }),
      fc.constantFrom("10", "9", "0", "a", "A", "\u00e9", "\ud83d\ude00", "\uff61"),
    );
    const obj = fc.dictionary(key, fc.oneof(fc.integer(), fc.dictionary(key, fc.boolean(), { maxKeys: 30 })), {
      maxKeys: 40,
    });
    fc.assert(
      fc.property(obj, (o) => {
        expect(canonicalize(o)).toBe(reference(o));
      }),
      { numRuns: 400 },
    );
  });
});

describe("a group's first batch undoes itself without a savepoint", () => {
  it("a throwing withinCommit in the first batch undoes only it; the next batch of the group commits", async () => {
    const t = openTestLedger();
    try {
      await t.ledger.append({ tenant_id: "ten_a", events: setupTenant("ten_a") });
      t.db.exec("CREATE TABLE caller_rows (cursor TEXT)");
      const insert = t.db.prepare("INSERT INTO caller_rows VALUES (?)");
      const first = messageSent("ten_a", "first");
      const [failed, ok] = await Promise.allSettled([
        t.ledger.append(
          { tenant_id: "ten_a", events: [first] },
          {
            withinCommit: (r) => {
              insert.run(r.cursor);
              throw new Error("caller changed its mind");
            },
          },
        ),
        t.ledger.append(
          { tenant_id: "ten_a", events: [messageSent("ten_a", "second")] },
          { withinCommit: (r) => void insert.run(r.cursor) },
        ),
      ]);
      expect(failed).toMatchObject({ status: "rejected", reason: { message: "caller changed its mind" } });
      expect(ok).toMatchObject({ status: "fulfilled", value: { cursor: "seq:3" } });
      expect(t.db.prepare("SELECT cursor FROM caller_rows").pluck().all()).toEqual(["seq:3"]);
      expect(t.db.prepare("SELECT count(*) FROM ledger_events WHERE event_id = ?").pluck().get(first.event_id)).toBe(0);
      expect(t.ledger.verify("ten_a").ok).toBe(true);
      // the first event's id was not burned
      await expect(t.ledger.append({ tenant_id: "ten_a", events: [first] })).resolves.toMatchObject({
        cursor: "seq:4",
      });
    } finally {
      t.cleanup();
    }
  });

  it("a first batch refused at its second event leaves nothing but its policy.violation; the next batch commits", async () => {
    const t = openTestLedger();
    try {
      await t.ledger.append({ tenant_id: "ten_a", events: setupTenant("ten_a") });
      const good = messageSent("ten_a", "good");
      const [refused, ok] = await Promise.allSettled([
        t.ledger.append({
          tenant_id: "ten_a",
          events: [good, { ...messageSent("ten_a"), event_type: "message.exploded" }],
        }),
        t.ledger.append({ tenant_id: "ten_a", events: [messageSent("ten_a", "next")] }),
      ]);
      expect(refused).toMatchObject({ status: "rejected", reason: { code: "UNKNOWN_EVENT_TYPE" } });
      expect(ok).toMatchObject({ status: "fulfilled", value: { cursor: "seq:4" } });
      const types = t.ledger.query({ tenant_id: "ten_a", after_cursor: "seq:2" }).events.map((e) => e.event_type);
      expect(types).toEqual(["policy.violation", "message.sent"]);
      expect(t.db.prepare("SELECT count(*) FROM ledger_events WHERE event_id = ?").pluck().get(good.event_id)).toBe(0);
      expect(t.ledger.verify("ten_a").ok).toBe(true);
    } finally {
      t.cleanup();
    }
  });
});

describe("the fast path's timestamp check", () => {
  it("gives ZIsoTime's verdict on date-like and random strings", () => {
    const part = (n: number) => fc.integer({ min: 0, max: 10 ** n + 3 }).map((x) => String(x).padStart(n, "0"));
    const dateLike = fc
      .tuple(
        part(4),
        part(2),
        part(2),
        fc.constantFrom("T", "t", " "),
        part(2),
        part(2),
        part(2),
        fc.constantFrom("", ".0", ".123", ".1234567"),
        fc.constantFrom("Z", "z", "", "+02:00", "-23:59", "+24:00", "+0200"),
      )
      .map(([y, mo, d, t, h, mi, s, f, z]) => `${y}-${mo}-${d}${t}${h}:${mi}:${s}${f}${z}`);
    fc.assert(
      fc.property(
        fc.oneof(
          dateLike,
          fc.string(),
          fc.constantFrom("2024-02-29T00:00:00Z", "2023-02-29T00:00:00Z", "2000-02-29T12:00Z", "1900-02-29T12:00Z"),
        ),
        (s) => {
          expect(isIsoTime(s)).toBe(ZIsoTime.safeParse(s).success);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
