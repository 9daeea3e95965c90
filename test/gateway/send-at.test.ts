import { describe, expect, it } from "vitest";
import { parseSendAt } from "../../src/gateway/scheduled/send-at.js";
import { AWKWARD_INSTANTS } from "../support/clock.js";

/** When a scheduled message is due: a wall-clock time read in the person's zone, by Temporal. */
describe("parseSendAt", () => {
  const now = Date.parse("2027-03-27T23:00:00.000Z");

  it("reads a wall-clock time in the person's zone, and an instant with its offset as it is", () => {
    expect(new Date(parseSendAt("2027-03-30T09:00", "America/Sao_Paulo", now)).toISOString()).toBe(
      "2027-03-30T12:00:00.000Z",
    );
    expect(new Date(parseSendAt("2027-03-30T09:00:00+09:00", "America/Sao_Paulo", now)).toISOString()).toBe(
      "2027-03-30T00:00:00.000Z",
    );
  });

  it("moves a time that does not exist on the night clocks go forward later, as a wall clock does", () => {
    // Lisbon, 28 March 2027: 01:00 becomes 02:00, so 01:30 is 02:30 summer time (01:30 UTC).
    expect(new Date(parseSendAt("2027-03-28T01:30", "Europe/Lisbon", now)).toISOString()).toBe(
      "2027-03-28T01:30:00.000Z",
    );
    // And the next morning at 9:00 is summer time (UTC+1).
    expect(new Date(parseSendAt("2027-03-28T09:00", "Europe/Lisbon", now)).toISOString()).toBe(
      "2027-03-28T08:00:00.000Z",
    );
  });

  it("refuses what is not a time, a time not ahead, and one too far ahead", () => {
    const code = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return (e as { code: string; details: unknown }).code;
      }
      return "accepted";
    };
    for (const bad of ["soon", "2027-02-30T09:00", "2027-03-27T22:00:00Z", "2028-04-01T09:00"])
      expect(
        code(() => parseSendAt(bad, "Europe/Lisbon", now)),
        bad,
      ).toBe("VALIDATION_ERROR");
  });

  it.each(AWKWARD_INSTANTS)("tomorrow at 9:00 is 9:00 where the person is ($name)", ({ zone, iso }) => {
    const nowMs = Date.parse(iso);
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: zone }).format(new Date(nowMs));
    const next = new Date(`${today}T12:00:00Z`);
    next.setUTCDate(next.getUTCDate() + 1);
    const ms = parseSendAt(`${next.toISOString().slice(0, 10)}T09:00`, zone, nowMs);
    const local = new Intl.DateTimeFormat("en-GB", { timeZone: zone, hour: "2-digit", minute: "2-digit" }).format(ms);
    expect(local).toBe("09:00");
    expect(ms).toBeGreaterThan(nowMs);
  });
});
