import { afterEach, describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { createFold, foldsEqual } from "../../src/ledger/fold.js";
import { createPolicyEngine, loadPolicyPack } from "../../src/ledger/policy/index.js";
import type { TStoredEvent } from "../../contracts/events.js";
import {
  conversationCreated,
  entityRegistered,
  messageSent,
  openTestLedger,
  setupTenant,
  type TestLedger,
} from "./helpers.js";

const GOLDEN = fileURLToPath(new URL("../../fixtures/golden-path/", import.meta.url));
const goldenFiles = readdirSync(GOLDEN).filter((f) => f.endsWith(".json"));

let t: TestLedger;
afterEach(() => t?.cleanup());

/** A ledger with the real pack whose fold the test can look at. */
function openWithFold(dir?: string) {
  const fold = createFold();
  const l = openTestLedger({ fold, engine: createPolicyEngine(loadPolicyPack()) }, dir);
  return { l, fold };
}

describe("golden path through append", () => {
  it.each(goldenFiles)("%s: every event is accepted, in one request each, and the chain verifies", async (file) => {
    const fixture = JSON.parse(readFileSync(GOLDEN + file, "utf8")) as {
      tenant_id: string;
      events: Array<{ event_id: string; event_type: string }>;
    };
    t = openTestLedger();
    for (const [i, event] of fixture.events.entries()) {
      const res = await t.ledger.append({ tenant_id: fixture.tenant_id, events: [event] }).catch((e) => e);
      expect(res, `${file} #${i} ${event.event_type} ${event.event_id}`).toMatchObject({
        ok: true,
        cursor: `seq:${i + 1}`,
      });
    }
    const stored = t.ledger.query({ tenant_id: fixture.tenant_id, limit: 1000 }).events as TStoredEvent[];
    expect(stored.map((e) => e.event_id)).toEqual(fixture.events.map((e) => e.event_id));
    expect(t.ledger.verify(fixture.tenant_id)).toMatchObject({ ok: true, events_checked: fixture.events.length });
  });
});

describe("fold rebuilt on boot", () => {
  it("equals the live fold after the golden paths, refusals and rolled-back batches", async () => {
    const { l, fold: live } = openWithFold();
    t = l;
    for (const file of goldenFiles) {
      // Each golden file in its own tenant: the tenant id is in envelopes and in cards alike.
      const text = readFileSync(GOLDEN + file, "utf8");
      const original = (JSON.parse(text) as { tenant_id: string }).tenant_id;
      const tenant = `${original}_${file.replace(".json", "")}`;
      const { events } = JSON.parse(text.replaceAll(JSON.stringify(original), JSON.stringify(tenant))) as {
        events: unknown[];
      };
      await expect(t.ledger.append({ tenant_id: tenant, events })).resolves.toMatchObject({ ok: true });
      // refused: the golden path again (duplicate ids) and a message from a stranger
      await t.ledger.append({ tenant_id: tenant, events: events.slice(0, 3) }).catch(() => undefined);
    }
    await t.ledger.append({ tenant_id: "ten_x", events: setupTenant("ten_x") });
    await t.ledger
      .append({
        tenant_id: "ten_x",
        events: [
          messageSent("ten_x"),
          { ...messageSent("ten_x"), actor: { entity_id: "ent_stranger", actor_type: "human" } },
        ],
      })
      .catch(() => undefined);

    const { l: rebooted, fold: rebuilt } = openWithFold(t.reopen().dir);
    t.close();
    t = rebooted;
    expect(rebuilt.snapshot()).toEqual(live.snapshot());
    expect(foldsEqual(rebuilt, live)).toBe(true);
  });

  it("equals the live fold for random sequences of valid and invalid appends (property)", async () => {
    const step = fc.oneof(
      fc.constant("member" as const),
      fc.constant("stranger" as const),
      fc.constant("register" as const),
      fc.constant("conversation" as const),
      fc.constant("duplicate" as const),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(step, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 12 }),
        async (batches) => {
          const { l, fold: live } = openWithFold();
          try {
            await l.ledger.append({ tenant_id: "ten_p", events: setupTenant("ten_p") });
            let n = 0;
            const pending = batches.map((steps) => {
              const events = steps.map((s) => {
                n++;
                if (s === "member") return messageSent("ten_p", `m${n}`);
                if (s === "stranger")
                  return { ...messageSent("ten_p"), actor: { entity_id: `ent_${n}`, actor_type: "human" } };
                if (s === "register") return entityRegistered("ten_p", `ent_${n}`, "agent");
                if (s === "conversation") return conversationCreated("ten_p", `cnv_${n}`, ["ent_alice"]);
                return setupTenant("ten_p")[0];
              });
              return l.ledger.append({ tenant_id: "ten_p", events }).catch(() => undefined);
            });
            await Promise.all(pending); // concurrent: one commit group with independent batches
            const { l: r, fold: rebuilt } = openWithFold(l.reopen().dir);
            try {
              expect(rebuilt.snapshot()).toEqual(live.snapshot());
              expect(r.ledger.verify("ten_p").ok).toBe(true);
            } finally {
              r.close();
            }
          } finally {
            l.cleanup();
          }
        },
      ),
      { numRuns: 15 },
    );
  });
});
