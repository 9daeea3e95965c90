import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/** Every .ts file under a folder of src/. */
function sources(dir: string): string[] {
  const root = new URL(`../../src/${dir}/`, import.meta.url).pathname;
  return readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .map((f) => join(root, f));
}

describe("who writes a job's events", () => {
  it("the gateway writes none: it asks Office, whose decider writes them all", () => {
    // The gateway's one way to write is core.event(tenant, type, …); a job or tool event there is a second job machine.
    const writes = /\bevent\(\s*[\w.]+,\s*"((?:job|tool)\.[a-z_]+)"/g;
    const found: string[] = [];
    for (const file of sources("gateway")) {
      const text = readFileSync(file, "utf8");
      for (const m of text.matchAll(writes)) found.push(`${file.slice(file.indexOf("src/"))}: ${m[1]}`);
    }
    expect(found).toEqual([]);
  });

  it("Office writes job.handed_over in one place, the decider's hand-over step", () => {
    const found = sources("office").filter((f) => /event_type:\s*"job\.handed_over"/.test(readFileSync(f, "utf8")));
    expect(found.map((f) => f.slice(f.indexOf("src/")))).toEqual(["src/office/jobs/hand-over.ts"]);
  });
});
