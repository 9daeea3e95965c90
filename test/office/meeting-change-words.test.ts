import { describe, expect, it } from "vitest";
import { parseMeetingChange } from "../../src/office/planner/meeting-change-words.js";

describe("a change to a booked meeting, said in the chat", () => {
  it.each([
    ["move it to Thursday 10am", { kind: "move", time: "Thursday 10am", locale: "en" }],
    ["Move the call with Maria to tomorrow 16:00", { kind: "move", who: "Maria", time: "tomorrow 16:00" }],
    ["please reschedule the meeting with Ana to Friday at 3pm.", { kind: "move", who: "Ana", time: "Friday at 3pm" }],
    ["cancel the call with Maria", { kind: "cancel", who: "Maria", locale: "en" }],
    ["Cancel it", { kind: "cancel" }],
    [
      "muda a reunião com a Maria para amanhã às 16h",
      { kind: "move", who: "Maria", time: "amanhã às 16h", locale: "pt" },
    ],
    ["muda-a para quinta às 10h", { kind: "move", time: "quinta às 10h", locale: "pt" }],
    ["cancela a chamada com a Maria", { kind: "cancel", who: "Maria", locale: "pt" }],
    ["desmarca a reunião com o Rui, por favor", { kind: "cancel", who: "Rui" }],
    ["cancela-a", { kind: "cancel", locale: "pt" }],
  ])("%s", (text, want) => {
    expect(parseMeetingChange(text)).toMatchObject(want);
  });

  it.each([
    "move the files to Dropbox",
    "cancel my subscription",
    "cancel",
    "cancela",
    "Can you schedule a 30-min call with Maria next week?",
    "move it",
  ])("%s is no meeting change", (text) => {
    expect(parseMeetingChange(text)).toBeNull();
  });

  it("reads a long line in linear time", () => {
    const started = performance.now();
    expect(parseMeetingChange(`move ${"the call ".repeat(5_000)}`)).toBeNull();
    expect(performance.now() - started).toBeLessThan(200);
  });
});
