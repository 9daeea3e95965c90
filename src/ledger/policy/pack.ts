import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { ERROR_STATUS } from "../../../contracts/errors.js";

const ZMode = z.enum(["enforce", "warn", "off"]);
const knownCode = z
  .string()
  .refine(
    (c) => c in ERROR_STATUS,
    "code must be one of contracts/errors.ts ERROR_STATUS (so it maps to an HTTP status)",
  );

const ZPolicySpec = z.strictObject({
  policy_id: z.string().min(1).max(128),
  mode: ZMode.optional(),
  /** Event types: exact (`job.approved`), a family (`job.*`) or everything (`*`). */
  applies_to: z.array(z.string().min(1)).min(1),
  rules: z.array(z.looseObject({ type: z.string() })).min(1),
  on_violation: z.discriminatedUnion("action", [
    z.strictObject({ action: z.literal("reject"), code: knownCode }),
    z.strictObject({ action: z.literal("emit_only") }),
  ]),
  description: z.string().optional(),
  note: z.string().optional(),
});

const ZPolicyPack = z.strictObject({
  policy_pack_id: z.string().min(1),
  version: z.string().min(1),
  default_mode: ZMode,
  description: z.string().optional(),
  note: z.string().optional(),
  policies: z.array(ZPolicySpec).min(1),
});

export type PolicySpec = z.infer<typeof ZPolicySpec>;
export type PolicyPack = z.infer<typeof ZPolicyPack>;

export const DEFAULT_PACK_PATH = fileURLToPath(new URL("../../../fixtures/policy-pack.v1.json", import.meta.url));

/** Validates pack JSON (shape only; rules are checked when an engine compiles it). */
export function parsePolicyPack(json: unknown): PolicyPack {
  const r = ZPolicyPack.safeParse(json);
  if (!r.success) {
    const i = r.error.issues[0];
    throw new Error(`invalid policy pack at ${i?.path.join(".") ?? ""}: ${i?.message ?? "invalid"}`);
  }
  const ids = new Set<string>();
  for (const p of r.data.policies) {
    if (ids.has(p.policy_id)) throw new Error(`invalid policy pack: duplicate policy_id ${p.policy_id}`);
    ids.add(p.policy_id);
  }
  return r.data;
}

/** Reads and validates a pack file (default: fixtures/policy-pack.v1.json). */
export function loadPolicyPack(path: string = DEFAULT_PACK_PATH): PolicyPack {
  return parsePolicyPack(JSON.parse(readFileSync(path, "utf8")));
}
