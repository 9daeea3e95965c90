import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CONFIG_VARIABLES, loadConfig } from "../../src/config.js";

/** The README's configuration table, checked against the one schema every setting is read by. */
function tableVariables(): string[] {
  const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
  const start = readme.indexOf("## Configuration\n");
  const section = readme.slice(start, readme.indexOf("\n## ", start + 5));
  const rows = section.split("\n").filter((l) => l.startsWith("| `"));
  return rows.flatMap((r) => [...(r.split("|")[1] ?? "").matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]!));
}

describe("configuration", () => {
  it("the README's table lists exactly the variables the schema reads", () => {
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
