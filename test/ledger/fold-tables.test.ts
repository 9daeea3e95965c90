import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { PrintTable } from "../../src/ledger/print-table.js";
import { RecentSenders } from "../../src/ledger/recent-senders.js";

describe("the fold's tables", () => {
  it("a print table answers as a Map for any sequence of sets, gets and deletes (property)", () => {
    // Few distinct prints, many low bits alike: long probe runs, deleted slots and growth.
    const print = fc.integer({ min: 0, max: 40 }).map((n) => (n * 4096) % 2 ** 30);
    const op = fc.oneof(
      fc.tuple(fc.constant("set" as const), print, fc.nat(1_000_000)),
      fc.tuple(fc.constant("delete" as const), print, fc.constant(0)),
      fc.tuple(fc.constant("get" as const), print, fc.constant(0)),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 3000 }), (ops) => {
        const table = new PrintTable();
        const model = new Map<number, number>();
        for (const [kind, p, v] of ops) {
          if (kind === "set") table.set(p, v), model.set(p, v);
          else if (kind === "delete") expect(table.delete(p)).toBe(model.delete(p));
          else expect(table.get(p)).toBe(model.get(p) ?? -1);
          expect(table.size).toBe(model.size);
        }
        for (let p = 0; p <= 40; p++) expect(table.has((p * 4096) % 2 ** 30)).toBe(model.has((p * 4096) % 2 ** 30));
      }),
    );
  });

  it("a print table holds a million entries", () => {
    const table = new PrintTable();
    for (let i = 0; i < 1_000_000; i++) table.set((i * 2654435761) & 0x3fffffff, i);
    expect(table.size).toBe(1_000_000);
    for (let i = 0; i < 1_000_000; i += 9973) expect(table.get((i * 2654435761) & 0x3fffffff)).toBe(i);
  });

  it("recent senders keep the latest, drop the oldest first, and undo exactly", () => {
    const recent = new RecentSenders(3);
    for (const n of [1, 2, 3, 4]) recent.add(`evt_${n}`, `ent_${n}`);
    expect(recent.get("evt_1")).toBeUndefined();
    expect([...recent.entries()].sort()).toEqual([
      ["evt_2", "ent_2"],
      ["evt_3", "ent_3"],
      ["evt_4", "ent_4"],
    ]);
    const undo5 = recent.undoOfAdd();
    recent.add("evt_5", "ent_5");
    const undo6 = recent.undoOfAdd();
    recent.add("evt_6", "ent_6");
    expect(recent.get("evt_2")).toBeUndefined();
    undo6();
    undo5();
    expect([...recent.entries()].sort()).toEqual([
      ["evt_2", "ent_2"],
      ["evt_3", "ent_3"],
      ["evt_4", "ent_4"],
    ]);
    // The same slot is next again: evt_2 is still the oldest.
    recent.add("evt_7", "ent_7");
    expect(recent.get("evt_2")).toBeUndefined();
    expect(recent.get("evt_3")).toBe("ent_3");
    expect(recent.get("evt_7")).toBe("ent_7");
    expect(recent.get("evt_8")).toBeUndefined();
    // Not full yet: a lookup stops at the first empty slot.
    const few = new RecentSenders(1024);
    few.add("evt_a", "ent_a");
    expect(few.get("evt_a")).toBe("ent_a");
    expect(few.get("evt_b")).toBeUndefined();
  });
});
