import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { canonicalize } from "../../src/ledger/canonical-json.js";

describe("canonicalize (RFC 8785)", () => {
  it("sorts keys by UTF-16 code units, recursively, with no whitespace", () => {
    expect(canonicalize({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}',
    );
  });

  it("orders keys as RFC 8785 §3.2.3's sorting example", () => {
    // The RFC's example: keys sorted by their UTF-16 code units, not by code points or locale.
    const input = {
      "\u20ac": "Euro Sign",
      "\r": "Carriage Return",
      "\ufb33": "Hebrew Letter Dalet With Dagesh",
      "1": "One",
      "\ud83d\ude00": "Emoji: Grinning Face",
      "\u0080": "Control",
      "\u00f6": "Latin Small Letter O With Diaeresis",
    };
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
    const input = { string: "\u20ac$\u000f\u000aA'\u0042\u0022\u005c\\\"/" };
    expect(canonicalize(input)).toBe('{"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}');
    expect(canonicalize("\b\t\n\f\r\u0000\u001f\u007f")).toBe('"\\b\\t\\n\\f\\r\\u0000\\u001f\u007f"');
  });

  it("reproduces the RFC's complete example", () => {
    const input = JSON.parse(
      '{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001], "string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/", "literals": [null, true, false]}',
    );
    expect(canonicalize(input)).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
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

  it("is byte-identical to the plain reference serialiser (sort every object, regex surrogate test)", () => {
    // The chain hashes these bytes: the fast paths (keys already in order, cached key text,
    // native well-formedness test) must never change a single one.
    const lone = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    const reference = (v: unknown): string => {
      if (typeof v === "string") {
        if (lone.test(v)) throw new TypeError("lone surrogate");
        return JSON.stringify(v);
      }
      if (typeof v === "number") {
        if (!Number.isFinite(v)) throw new TypeError("not a JSON number");
        return String(v);
      }
      if (typeof v === "boolean") return String(v);
      if (v === null) return "null";
      if (Array.isArray(v)) return `[${v.map((x) => (x === undefined ? "null" : reference(x))).join(",")}]`;
      if (typeof v === "object") {
        const o = v as Record<string, unknown>;
        const keys = Object.keys(o)
          .sort()
          .filter((k) => o[k] !== undefined);
        return `{${keys.map((k) => `${reference(k)}:${reference(o[k])}`).join(",")}}`;
      }
      throw new TypeError("cannot serialise");
    };
    const outcome = (f: () => string) => {
      try {
        return f();
      } catch (e) {
        return `throws ${(e as Error).name}`;
      }
    };
    const anyString = fc.oneof(
      fc.string({ unit: "binary" }),
      fc.string({ unit: "grapheme" }),
      fc.string(),
      fc.constantFrom("\ud800", "a\udc00b", "\ud83d\ude00", "10", "9", "__proto__x"),
    );
    const value = fc.letrec((tie) => ({
      leaf: fc.oneof(anyString, fc.double(), fc.integer(), fc.boolean(), fc.constant(null), fc.constant(undefined)),
      node: fc.oneof(
        { depthSize: "small" },
        tie("leaf"),
        fc.array(tie("node"), { maxLength: 5 }),
        fc.dictionary(anyString, tie("node"), { maxKeys: 6 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, (v) => {
        expect(outcome(() => canonicalize(v))).toBe(outcome(() => reference(v)));
      }),
      { numRuns: 2000 },
    );
  });
});
