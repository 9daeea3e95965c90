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

  it("Office writes job and tool events only through its decider: no other module drafts one", () => {
    // The decider (src/office/jobs/) and the two draft builders it uses are the only places a
    // job or tool event is drafted; the job engine writes what the decider decided, nothing else.
    const builders = ["src/office/job-drafts.ts", "src/office/job-proposals.ts"];
    const drafts = /event_type:\s*"((?:job|tool)\.[a-z_]+)"/g;
    const found: string[] = [];
    const where = (f: string) => f.slice(f.indexOf("src/"));
    for (const file of sources("office")) {
      const name = where(file);
      if (name.startsWith("src/office/jobs/") || builders.includes(name)) continue;
      for (const m of readFileSync(file, "utf8").matchAll(drafts)) found.push(`${name}: ${m[1]}`);
    }
    expect(found).toEqual([]);
    // The builders' job-event drafts are used by the decider alone (a proposal, a card, a state change).
    const uses = /\.(cardDrafts|stateDraft|proposeDrafts)\(/g;
    const users = new Set<string>();
    for (const file of sources("office")) {
      const name = where(file);
      if (!name.startsWith("src/office/jobs/") && !builders.includes(name) && uses.test(readFileSync(file, "utf8")))
        users.add(name);
      uses.lastIndex = 0;
    }
    expect([...users]).toEqual([]);
  });

  it("invite replies are the mailbox's side only: their events are decided as record_reply", () => {
    const text = readFileSync(new URL("../../src/office/mail/invite-replies.ts", import.meta.url), "utf8");
    expect(text).not.toMatch(/\.emit\(/);
    expect(text).toContain('type: "record_reply"');
  });

  it("the words of an answer's card come from the narrator", () => {
    // Catalog look-ups ("office.…" keys) are the narrator's; the step only hands it the recorded facts.
    for (const file of ["src/office/jobs/replies.ts"]) {
      const text = readFileSync(new URL(`../../${file}`, import.meta.url), "utf8");
      expect(text.match(/\bt\(\s*[`"]office\./g) ?? [], file).toEqual([]);
    }
  });
});
