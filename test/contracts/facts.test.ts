import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZCardAction } from "../../contracts/cards.js";
import { ACTION_VERBS, LIMITS, REACTIONS } from "../../contracts/facts.js";
import { startTestServer, type TestServer } from "../support/server.js";

const webDir = fileURLToPath(new URL("../../web", import.meta.url));
const webFiles = (dir = webDir): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? webFiles(join(dir, e.name)) : e.name.endsWith(".js") ? [join(dir, e.name)] : [],
  );

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

describe("one copy of each fact (contracts/facts.ts)", () => {
  it("every card action has its verb", () => {
    const types = ZCardAction.options.map((o) => o.shape.type.value);
    expect(Object.keys(ACTION_VERBS).sort()).toEqual([...types].sort());
  });

  it("the web app gets the facts from the server, as served from the contracts", async () => {
    const res = await fetch(`${t.url}/app/facts.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/javascript/);
    const served = await import(`data:text/javascript,${encodeURIComponent(await res.text())}`);
    expect(served.LIMITS).toEqual(LIMITS);
    expect(served.ACTION_VERBS).toEqual(ACTION_VERBS);
    expect(served.REACTIONS).toEqual(REACTIONS);
  });

  it("the web code re-types none of them", () => {
    for (const file of webFiles()) {
      const src = readFileSync(file, "utf8");
      for (const verb of Object.values(ACTION_VERBS))
        if (verb.includes(" ")) expect(src, `${file} re-types "${verb}"`).not.toContain(`"${verb}"`);
      expect(src, `${file} hard-codes a maxlength`).not.toMatch(/maxlength="\d+"/i);
      // Limits up to 100 (10 files at a time, 100 waiting messages) are too common a number to
      // search for (icon paths, sizes, percentages): the maxlength check above covers fields.
      for (const n of Object.values(LIMITS).filter((v) => v > 100))
        expect(src, `${file} hard-codes ${n}`).not.toMatch(new RegExp(`\\b${n}\\b`));
    }
  });

  it("the server's click bubble and the limits it enforces come from the same facts", async () => {
    const dan = t.demo.humans[0]!.token;
    const long = "x".repeat(LIMITS.messageChars + 1);
    const res = await fetch(`${t.url}/v1/conversations/cnv_dan_ana/messages`, {
      method: "POST",
      headers: { authorization: `Bearer ${dan}`, "content-type": "application/json", "idempotency-key": "facts-long" },
      body: JSON.stringify({ kind: "text", body_text: long }),
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({ code: "VALIDATION_ERROR", details: { field: "body_text" } });
  });
});
