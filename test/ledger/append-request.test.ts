import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { ZAppendRequest } from "../../contracts/ledger.js";
import { plainAppendRequest } from "../../src/ledger/ledger.js";

const tenantId = fc.oneof(
  fc.constantFrom("", "t", "a".repeat(128), "a".repeat(129), "😀".repeat(64), "😀".repeat(65)),
  fc.string({ maxLength: 12 }),
  fc.integer(),
  fc.constant(undefined),
);
const events = fc.oneof(
  fc.array(fc.anything(), { maxLength: 4 }),
  fc.constantFrom(
    [],
    new Array(3),
    Array.from({ length: 1000 }, () => ({})),
    Array.from({ length: 1001 }, () => ({})),
  ),
  fc.anything(),
);
const request = fc.oneof(
  fc.record({ tenant_id: tenantId, events }, { requiredKeys: [] }),
  fc.record({ tenant_id: tenantId, events, extra: fc.anything() }),
  fc.anything(),
);

describe("the append request's fast check", () => {
  it("accepts only what the contract accepts, with the same result", () => {
    fc.assert(
      fc.property(request, (req) => {
        const fast = plainAppendRequest(req);
        const parsed = ZAppendRequest.safeParse(req);
        if (fast) {
          expect(parsed.success).toBe(true);
          expect(fast).toStrictEqual(parsed.data);
          // a copy, as the parse makes: the caller's array can change without changing the batch
          expect(fast.events).not.toBe((req as { events: unknown }).events);
        }
        return true;
      }),
      { numRuns: 2000 },
    );
  });

  it("takes the commonest requests without the parse", () => {
    expect(plainAppendRequest({ tenant_id: "ten_a", events: [{ event_type: "message.sent" }] })).toEqual({
      tenant_id: "ten_a",
      events: [{ event_type: "message.sent" }],
    });
    expect(plainAppendRequest({ tenant_id: "ten_a", events: [] })).toBeNull();
    expect(plainAppendRequest(Object.assign(Object.create({ tenant_id: "ten_a" }), { events: [{}] }))).toBeNull();
  });
});
