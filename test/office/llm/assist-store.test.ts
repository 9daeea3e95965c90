import { describe, expect, it } from "vitest";
import type { TFormalizeCard } from "../../../contracts/cards.js";
import { openDatabase } from "../../../src/shared/db.js";
import { applyCardChange, cardChangeOf, deferral } from "../../../src/office/llm/assist-apply.js";
import { SUGGESTION_TTL_MS, createAssistStore } from "../../../src/office/llm/assist-store.js";

const view = (id: string, type = "set_priority", payload: Record<string, unknown> = { priority: "low" }) => ({
  suggestion_id: id,
  type,
  confidence: 0.5,
  rationale: "r",
  requires_confirmation: false,
  preview: `p ${id}`,
  payload,
});
const T0 = Date.parse("2026-03-04T09:00:00Z"); // a Wednesday

describe("stored Assist suggestions", () => {
  it("are offered per tenant and job until they expire, claimed once and carried out once", () => {
    const db = openDatabase({ path: ":memory:" });
    const store = createAssistStore(db);
    store.offer("ten_a", "job_1", [view("s1"), view("s2")], T0);
    expect(store.offered("ten_a", "job_1", "s1", T0)?.preview).toBe("p s1");
    expect(store.offered("ten_b", "job_1", "s1", T0)).toBeNull();
    expect(store.offered("ten_a", "job_2", "s1", T0)).toBeNull();
    expect(store.offered("ten_a", "job_1", "s1", T0 + SUGGESTION_TTL_MS + 1)).toBeNull();
    expect(store.claim("ten_a", "job_1", "s2", T0 + SUGGESTION_TTL_MS + 1)).toBe(false);

    expect(store.take("ten_a", "job_1", "s1")).toBeNull();
    expect(store.claim("ten_a", "job_1", "s1", T0)).toBe(true);
    expect(store.claim("ten_a", "job_1", "s1", T0)).toBe(false);
    expect(store.offered("ten_a", "job_1", "s1", T0)).toBeNull();
    expect(store.take("ten_a", "job_1", "s1")?.suggestion_id).toBe("s1");
    expect(store.take("ten_a", "job_1", "s1")).toBeNull();

    // Shown again (rules ids are stable): offered afresh; a later offer drops expired rows.
    store.offer("ten_a", "job_1", [view("s1")], T0 + 1000);
    expect(store.claim("ten_a", "job_1", "s1", T0 + 1000)).toBe(true);
    store.offer("ten_a", "job_3", [view("s9")], T0 + SUGGESTION_TTL_MS + 5000);
    expect((db.prepare("SELECT count(*) AS n FROM office_assist_suggestions").get() as { n: number }).n).toBe(1);
    db.close();
  });
});

describe("what Apply puts on a re-proposed card", () => {
  const card = (job: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    ({ title: "Old", job: { job_id: "job_1", goal: "g", ...job }, ...extra }) as unknown as TFormalizeCard;
  const id = (s: string) => s;

  it("defer_task maps each strategy onto a due date or priority", () => {
    expect(deferral("someday", T0)).toEqual({ priority: "low", due_at: null });
    expect(deferral("next_week", T0)).toEqual({ due_at: "2026-03-13T17:00:00.000Z" });
    expect(deferral("next_month", T0)).toEqual({ due_at: "2026-04-30T17:00:00.000Z" });
    expect(deferral("next_month", Date.parse("2026-12-15T00:00:00Z"))).toEqual({ due_at: "2027-01-31T17:00:00.000Z" });
  });

  it("rewrite_title renames the card; earlier due date, priority and steps are kept unless changed", () => {
    const previous = card({ due_at: "2026-03-10T17:00:00.000Z", priority: "high" }, { plan_hint: ["a", "b"] });
    const renamed = applyCardChange(
      card({ priority: "normal" }),
      previous,
      cardChangeOf({ type: "rewrite_title", payload: { title: "New" } }, T0, id),
    );
    expect(renamed).toMatchObject({
      title: "New",
      plan_hint: ["a", "b"],
      job: { due_at: "2026-03-10T17:00:00.000Z", priority: "high" },
    });
    const someday = applyCardChange(
      card({ priority: "normal" }),
      previous,
      cardChangeOf({ type: "defer_task", payload: { strategy: "someday" } }, T0, id),
    );
    expect(someday.title).toBe("Old");
    expect(someday.job.priority).toBe("low");
    expect(someday.job.due_at).toBeUndefined();
    expect(cardChangeOf({ type: "propose_next_action", payload: { text: "x" } }, T0, id)).toEqual({});
  });
});
