import { describe, expect, it } from "vitest";
import {
  changeTarget,
  emptyThreadContext,
  noteJobs,
  pinJob,
  resolveTarget,
  type ThreadContext,
} from "../../../src/office/llm/thread-context.js";

const offered = new Set(["A", "B", "C", "D"]);
const ctx = (c: Partial<ThreadContext>): ThreadContext => ({ recentJobIds: [], ...c });

describe("target precedence (tokens → conversation focus → pinned → last)", () => {
  const table: Array<[string, Parameters<typeof resolveTarget>[0], ReturnType<typeof resolveTarget>]> = [
    [
      "tokens win over everything",
      {
        tokenJobIds: ["B"],
        roomFocusJobId: "A",
        ctx: ctx({ pinnedJobId: "C", lastJobId: "D" }),
        candidateIds: offered,
      },
      { kind: "tokens", jobIds: ["B"] },
    ],
    [
      "several tokens stay several (the model must choose or ask)",
      { tokenJobIds: ["B", "C", "B"], ctx: ctx({}), candidateIds: offered },
      { kind: "tokens", jobIds: ["B", "C"] },
    ],
    [
      "room focus before pinned and last",
      { tokenJobIds: [], roomFocusJobId: "A", ctx: ctx({ pinnedJobId: "C", lastJobId: "D" }), candidateIds: offered },
      { kind: "default", jobId: "A", source: "focus" },
    ],
    [
      "a person's Change outranks the room focus",
      { tokenJobIds: [], roomFocusJobId: "A", ctx: ctx({ focusJobId: "B", pinnedJobId: "C" }), candidateIds: offered },
      { kind: "default", jobId: "B", source: "focus" },
    ],
    [
      "pinned before last",
      { tokenJobIds: [], ctx: ctx({ pinnedJobId: "C", lastJobId: "D" }), candidateIds: offered },
      { kind: "default", jobId: "C", source: "pinned" },
    ],
    [
      "last when nothing else",
      { tokenJobIds: [], ctx: ctx({ lastJobId: "D" }), candidateIds: offered },
      { kind: "default", jobId: "D", source: "last" },
    ],
    [
      "a stale focus falls through to pinned",
      { tokenJobIds: [], roomFocusJobId: "GONE", ctx: ctx({ pinnedJobId: "C" }), candidateIds: offered },
      { kind: "default", jobId: "C", source: "pinned" },
    ],
    [
      "a stale pin falls through to last",
      { tokenJobIds: [], ctx: ctx({ pinnedJobId: "GONE", lastJobId: "D" }), candidateIds: offered },
      { kind: "default", jobId: "D", source: "last" },
    ],
    [
      "nothing known: no default (never the only job by guess)",
      { tokenJobIds: [], ctx: ctx({ recentJobIds: ["A"] }), candidateIds: offered },
      { kind: "none" },
    ],
    [
      "nothing offered: no default",
      { tokenJobIds: [], roomFocusJobId: "A", ctx: ctx({ lastJobId: "A" }), candidateIds: new Set() },
      { kind: "none" },
    ],
  ];
  it.each(table)("%s", (_name, input, expected) => {
    expect(resolveTarget(input)).toEqual(expected);
  });

  it("noteJobs keeps the last mentioned and a bounded, de-duplicated recent list", () => {
    let c = emptyThreadContext();
    for (const id of ["A", "B", "C", "A", "D", "E", "F"]) c = noteJobs(c, [id]);
    expect(c.lastJobId).toBe("F");
    expect(c.recentJobIds).toEqual(["F", "E", "D", "A", "C"]);
  });

  it("pin, unpin and change target", () => {
    let c = pinJob(emptyThreadContext(), "A");
    expect(c.pinnedJobId).toBe("A");
    c = pinJob(c, null);
    expect(c.pinnedJobId).toBeUndefined();
    c = changeTarget(c, "B");
    expect(c).toMatchObject({ focusJobId: "B", lastJobId: "B" });
  });
});
