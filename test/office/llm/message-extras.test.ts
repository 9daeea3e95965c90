import { describe, expect, it } from "vitest";
import { messageExtras } from "../../../src/office/intake/message-extras.js";
import { findPii } from "../../../src/office/pii.js";

/** The scrub Office applies to free text: emails and phones replaced by a redacted form. */
const scrub = (s: string) => findPii(s).reduce((out, p) => out.split(p.value).join("[redacted]"), s);
// A time-ordered id whose digits Office's phone pattern would read as a number.
const JOB = "job_01a1fd4d78107000f21c83d016cab206";
const op = `[op v:1 type:"approve" job:"${JOB}"]`;

describe("structured extras on an agent's message", () => {
  it("keeps ids and tokens intact, scrubs free text, and drops a token that carries PII", () => {
    const out = messageExtras(
      {
        outcome: "clarify",
        dropped: [],
        action_summary: {
          job_id: JOB,
          job_title: "Call Bruno",
          action: "provide_input",
          assumed: true,
          source: "focus",
          text: "Applied to: Call Bruno",
          change_candidates: [],
        },
        surfaces: [
          {
            surface_id: "s1",
            kind: "what_next_v1",
            title: "Next",
            payload: {
              headline: "Write to bruno@acme.com",
              targetJobId: JOB,
              primaryAction: { label: "Approve", opToken: op },
            },
          },
          {
            surface_id: "s2",
            kind: "what_next_v1",
            title: "Next",
            payload: {
              headline: "x",
              primaryAction: {
                label: "Set",
                opToken: `[op v:1 type:"provide_input" job:"${JOB}" time_window:"call +351 912 345 678"]`,
              },
            },
          },
        ],
        confirm_op: { label: "Approve it", token: op },
      },
      scrub,
    );
    expect((out.action_summary as any).job_id).toBe(JOB);
    const surfaces = out.surfaces as any[];
    // The surface whose token carries a phone number drops alone.
    expect(surfaces.map((x) => x.surface_id)).toEqual(["s1"]);
    expect(surfaces[0].payload.headline).toBe("Write to [redacted]");
    expect((out.choices as any[])[0].token).toBe(op);
  });

  it("keeps a clean surface with its op token", () => {
    const out = messageExtras(
      {
        outcome: "reply",
        dropped: [],
        surfaces: [
          {
            surface_id: "s1",
            kind: "what_next_v1",
            title: "Next",
            payload: {
              headline: "Write to bruno@acme.com",
              targetJobId: JOB,
              primaryAction: { label: "Approve", opToken: op },
            },
          },
        ],
      },
      scrub,
    );
    const s = (out.surfaces as any[])[0];
    expect(s.payload.primaryAction.opToken).toBe(op);
    expect(s.payload.targetJobId).toBe(JOB);
    expect(s.payload.headline).toBe("Write to [redacted]");
  });
});
