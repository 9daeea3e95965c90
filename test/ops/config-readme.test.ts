import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CONFIG_VARIABLES, loadConfig } from "../../src/config.js";

/** The configuration table (docs/operate/configuration.md), checked against the one schema every setting is read by. */
function tableVariables(): string[] {
  const doc = readFileSync(new URL("../../docs/operate/configuration.md", import.meta.url), "utf8");
  const rows = doc.split("\n").filter((l) => l.startsWith("| `"));
  return rows.flatMap((r) => [...(r.split("|")[1] ?? "").matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]!));
}

describe("configuration", () => {
  it("the documented table lists exactly the variables the schema reads", () => {
    const listed = tableVariables();
    expect([...CONFIG_VARIABLES].filter((v) => !listed.includes(v)).sort()).toEqual([]);
    expect(listed.filter((v) => !CONFIG_VARIABLES.includes(v)).sort()).toEqual([]);
  });

  it("is parsed once into a frozen object: nothing changes a setting afterwards", () => {
    const c = loadConfig({ PORT: "3100" }, "/tmp");
    expect(Object.isFrozen(c)).toBe(true);
    expect(Object.isFrozen(c.rateLimit)).toBe(true);
    expect(() => {
      (c as { port: number }).port = 1;
    }).toThrow(TypeError);
  });
});
