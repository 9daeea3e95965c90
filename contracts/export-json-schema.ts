/**
 * Writes JSON Schema (draft 2020-12) for the event envelope and the cards into
 * contracts/json-schema/, using zod's own conversion, so other languages can validate what
 * they send. Run with `npm run schemas`; a test checks the committed files equal a fresh export.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { ZArtifactRef, ZCardAction, ZCardButton, ZInputSchema, ZJobCard } from "./cards.js";
import { ZUblEvent } from "./events.js";

export const JSON_SCHEMA_DIR = fileURLToPath(new URL("./json-schema/", import.meta.url));

const SCHEMAS = {
  "ubl-event": { schema: ZUblEvent, title: "UBL event envelope (discriminated by event_type)" },
  "job-card": { schema: ZJobCard, title: "Job card (formalize | tracking | finished)" },
  "card-button": { schema: ZCardButton, title: "Card button" },
  "card-action": { schema: ZCardAction, title: "Card action" },
  "input-schema": { schema: ZInputSchema, title: "Input schema (the form a button asks for)" },
  "artifact-ref": { schema: ZArtifactRef, title: "Artifact reference" },
} as const;

/** File name → file text, deterministic (what `npm run schemas` writes). */
export function buildJsonSchemas(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, { schema, title }] of Object.entries(SCHEMAS)) {
    // "input": what a writer may send (defaults such as roles: [] are optional on the wire).
    // reused "ref": a sub-schema used more than once (cards, actions) becomes one $defs entry.
    const { $schema, ...json } = z.toJSONSchema(schema, {
      target: "draft-2020-12",
      io: "input",
      unrepresentable: "throw",
      reused: "ref",
    });
    const doc = { $schema, $id: `https://logline.local/schemas/${name}.schema.json`, title, ...json };
    out[`${name}.schema.json`] = `${JSON.stringify(doc, null, 2)}\n`;
  }
  return out;
}

function main(): void {
  mkdirSync(JSON_SCHEMA_DIR, { recursive: true });
  for (const [file, text] of Object.entries(buildJsonSchemas())) {
    writeFileSync(join(JSON_SCHEMA_DIR, file), text);
    console.log(`wrote contracts/json-schema/${file}`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
