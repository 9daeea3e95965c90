import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { canonicalize } from "../../src/ledger/canonical-json.js";

describe("canonicalize (RFC 8785)", () => {
  it("sorts keys by UTF-16 code units, recursively, with no whitespace", () => {
    expect(canonicalize({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}');
  });

  it("orders keys as RFC 8785 §3.2.3's sorting example", () => {
    // The RFC's example: keys sorted by their UTF-16 code units, not by code points or locale.
    const input = { "\u20ac": "Euro Sign", "\r": "Carriage Return", "\ufb33": "Hebrew Letter Dalet With Dagesh", "1": "One", "\ud83d\ude00": "Emoji: Grinning Face", "\u0080": "Control", "\u00f6": "Latin Small Letter O With Diaeresis" };
    // Read the keys off the text: JSON.parse would hoist the integer-like key "1" to the front.
    const keys = [...canonicalize(input).matchAll(/"((?:[^"\\]|\\.)*)":/g)].map((m) => JSON.parse(`"${m[1]}"`));
    expect(keys).toEqual(["\r", "1", "\u0080", "\u00f6", "\u20ac", "\ud83d\ude00", "\ufb33"]);
  });

  it("serialises numbers as the RFC's test vectors", () => {
    // RFC 8785 Appendix B (IEEE-754 → JSON text).
    const cases: Array<[number, string]> = [
      [0, "0"],
      [-0, "0"],
      [5e-324, "5e-324"],
      [1.7976931348623157e308, "1.7976931348623157e+308"],
      [-1.7976931348623157e308, "-1.7976931348623157e+308"],
      [9007199254740992, "9007199254740992"],
      [-9007199254740992, "-9007199254740992"],
      [295147905179352830000, "295147905179352830000"],
      [9.999999999999997e22, "9.999999999999997e+22"],
      [1e23, "1e+23"],
      [1.0000000000000001e23, "1.0000000000000001e+23"],
      [999999999999999700000, "999999999999999700000"],
      [999999999999999900000, "999999999999999900000"],
      [1e21, "1e+21"],
      [9.999999999999997e-7, "9.999999999999997e-7"],
      [0.000001, "0.000001"],
      [333333333.3333332, "333333333.3333332"],
      [333333333.33333325, "333333333.33333325"],
      [333333333.3333333, "333333333.3333333"],
      [333333333.3333334, "333333333.3333334"],
      [333333333.33333343, "333333333.33333343"],
      [-0.0000033333333333333333, "-0.0000033333333333333333"],
      [1424953923781206.2, "1424953923781206.2"],
    ];
    for (const [n, s] of cases) expect(canonicalize(n)).toBe(s);
  });

  it("escapes strings as the RFC does (short escapes, lowercase \\u00xx, everything else literal)", () => {
    // RFC 8785 §3.2.2.2 example input and output.
    const input = { string: "\u20ac$\u000f\u000aA'\u0042\u0022\u005c\\\"\/" };
    expect(canonicalize(input)).toBe('{"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}');
    expect(canonicalize("\b\t\n\f\r\u0000\u001f\u007f")).toBe('"\\b\\t\\n\\f\\r\\u0000\\u001f\u007f"');
  });

  it("reproduces the RFC's complete example", () => {
    const input = JSON.parse('{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001], "string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/", "literals": [null, true, false]}');
    expect(canonicalize(input)).toBe('{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}');
  });

  it("refuses values JSON cannot carry", () => {
    expect(() => canonicalize(Number.NaN)).toThrow(TypeError);
    expect(() => canonicalize(Infinity)).toThrow(TypeError);
    expect(() => canonicalize("\ud800")).toThrow(/lone surrogate/);
    expect(() => canonicalize({ a: 1n })).toThrow(TypeError);
  });

  it("drops undefined members, like JSON.stringify", () => {
    expect(canonicalize({ a: undefined, b: 2 })).toBe('{"b":2}');
  });

  it("round-trips: parsing the canonical form and canonicalising again is the identity", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const once = canonicalize(v);
        expect(canonicalize(JSON.parse(once))).toBe(once);
        expect(JSON.parse(once)).toEqual(JSON.parse(JSON.stringify(v)));
      }),
      { numRuns: 300 },
    );
  });
});
