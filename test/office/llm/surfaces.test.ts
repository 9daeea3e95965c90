import { describe, expect, it } from "vitest";
import { validateSurfaces, type SurfaceChecks } from "../../../src/office/llm/surfaces.js";

const checks: SurfaceChecks = {
  candidateIds: new Set(["job_a", "job_b"]),
  checkOp: (op) => (op.type === "retry" ? "op retry not allowed while proposed" : null),
};
const op = (type: string, job = "job_a") => `[op v:1 type:"${type}" job:"${job}"]`;
const kinds = {
  what_next_v1: {
    headline: "Approve the invoice",
    primaryAction: { label: "Approve", opToken: op("approve"), confirm: true },
    secondaryActions: [{ label: "Reject", opToken: op("reject") }],
  },
  today_schedule_v1: {
    blocks: [
      {
        kind: "event",
        title: "Call with Maria",
        start: "2026-02-14T14:00:00Z",
        end: "2026-02-14T14:30:00Z",
        locked: true,
        jobId: "job_a",
      },
    ],
    suggestions: [{ previewChange: "Move focus block to 16:00", acceptOp: op("ack") }],
  },
  priority_list_v1: {
    items: [
      {
        rank: 1,
        label: "Invoice",
        reason: "Due today",
        estimateMinutes: 15,
        jobId: "job_b",
        actions: [{ label: "Approve", opToken: op("approve", "job_b") }],
      },
    ],
  },
  triage_table_v1: {
    groups: [
      {
        summary: "Two proposals",
        approveOp: op("approve"),
        items: [{ preview: "Invoice", jobId: "job_b", declineOp: op("reject", "job_b") }],
      },
    ],
  },
};

describe("surfaces v0", () => {
  it("accepts each v0 kind with valid buttons", () => {
    const input = Object.entries(kinds).map(([kind, payload], i) => ({
      surface_id: `s${i}`,
      kind,
      title: kind,
      payload,
    }));
    const r = validateSurfaces(input, checks);
    expect(r.dropped).toEqual([]);
    expect(r.surfaces.map((s) => s.kind)).toEqual(Object.keys(kinds));
  });

  const bad: Array<[string, unknown, string]> = [
    [
      "unknown kind",
      { surface_id: "x", kind: "what_next_v2", title: "t", payload: kinds.what_next_v1 },
      "unknown surface kind",
    ],
    [
      "missing required field",
      { surface_id: "x", kind: "what_next_v1", title: "t", payload: { body: "no headline" } },
      "malformed what_next_v1",
    ],
    [
      "bad surface id",
      { surface_id: "<script>", kind: "what_next_v1", title: "t", payload: kinds.what_next_v1 },
      "malformed surface envelope",
    ],
    [
      "button with a non-token",
      {
        surface_id: "x",
        kind: "what_next_v1",
        title: "t",
        payload: { headline: "h", primaryAction: { label: "Go", opToken: "javascript:alert(1)" } },
      },
      "exactly one [op",
    ],
    [
      "button with a ref token",
      {
        surface_id: "x",
        kind: "what_next_v1",
        title: "t",
        payload: { headline: "h", primaryAction: { label: "Go", opToken: '[ref v:1 type:"job" id:"job_a"]' } },
      },
      "exactly one [op",
    ],
    [
      "button with two ops",
      {
        surface_id: "x",
        kind: "what_next_v1",
        title: "t",
        payload: { headline: "h", primaryAction: { label: "Go", opToken: op("approve") + op("reject") } },
      },
      "exactly one [op",
    ],
    [
      "button with text around the token",
      {
        surface_id: "x",
        kind: "what_next_v1",
        title: "t",
        payload: { headline: "h", primaryAction: { label: "Go", opToken: `${op("approve")} and more` } },
      },
      "exactly one [op",
    ],
    [
      "op token v:2",
      {
        surface_id: "x",
        kind: "what_next_v1",
        title: "t",
        payload: { headline: "h", primaryAction: { label: "Go", opToken: '[op v:2 type:"approve" job:"job_a"]' } },
      },
      "TOKEN_VERSION",
    ],
    [
      "op on an unknown job",
      {
        surface_id: "x",
        kind: "triage_table_v1",
        title: "t",
        payload: { groups: [{ summary: "s", approveOp: op("approve", "job_z"), items: [{ preview: "p" }] }] },
      },
      "unknown job",
    ],
    [
      "op the job's state refuses",
      {
        surface_id: "x",
        kind: "priority_list_v1",
        title: "t",
        payload: { items: [{ rank: 1, label: "l", actions: [{ label: "Retry", opToken: op("retry") }] }] },
      },
      "not allowed",
    ],
    [
      "unknown jobId for navigation",
      {
        surface_id: "x",
        kind: "priority_list_v1",
        title: "t",
        payload: { items: [{ rank: 1, label: "l", jobId: "job_z" }] },
      },
      "unknown job id",
    ],
    [
      "bad schedule time",
      {
        surface_id: "x",
        kind: "today_schedule_v1",
        title: "t",
        payload: { blocks: [{ kind: "event", title: "x", start: "2pm", end: "3pm" }] },
      },
      "malformed today_schedule_v1",
    ],
  ];
  it.each(bad)("drops a surface: %s", (_n, surface, reason) => {
    const r = validateSurfaces([surface], checks);
    expect(r.surfaces).toEqual([]);
    expect(r.dropped[0]!.reason).toContain(reason);
  });

  it("drops duplicates and anything past six; a non-array is dropped whole", () => {
    const one = { surface_id: "same", kind: "what_next_v1", title: "t", payload: kinds.what_next_v1 };
    expect(validateSurfaces([one, one], checks).surfaces).toHaveLength(1);
    expect(
      validateSurfaces(
        Array.from({ length: 8 }, (_, i) => ({ ...one, surface_id: `s${i}` })),
        checks,
      ).surfaces,
    ).toHaveLength(6);
    expect(validateSurfaces({ kind: "what_next_v1" }, checks).surfaces).toEqual([]);
  });
});
