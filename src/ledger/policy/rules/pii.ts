import { z } from "zod";
import { fieldPath } from "../paths.js";
import { regexPrefilter } from "../regex-prefilter.js";
import type { RuleType } from "../rule.js";

const ZAllowIfPresent = z.strictObject({
  type: z.literal("allow_if_present"),
  paths: z.array(z.string()).min(1),
  note: z.string().optional(),
  event_types: z.array(z.string()).optional(),
});

/**
 * Declarations, not data: the listed paths (e.g. `pii_policy.redactions_applied`, which names
 * the fields that were redacted) are left out of the sibling regex scans. A declaration never
 * exempts the value it names: that value must look redacted on its own.
 */
export const allowIfPresent: RuleType<z.infer<typeof ZAllowIfPresent>> = {
  schema: ZAllowIfPresent,
  shape: false,
  compile: () => () => null,
};

const ZSpec = z.strictObject({
  type: z.literal("reject_if_regex_match"),
  paths: z.array(z.string()).min(1),
  patterns: z.array(z.string()).min(1),
  /** RegExp flags (e.g. "i"). */
  flags: z
    .string()
    .regex(/^[imsu]*$/)
    .optional(),
  /** What the pattern finds, for the message ("Raw email detected in …"). */
  label: z.string().max(40).optional(),
  /** Values starting with these are pointers, not data (hashes, vault references). */
  exempt_value_prefixes: z.array(z.string()).optional(),
  note: z.string().optional(),
  event_types: z.array(z.string()).optional(),
});

/**
 * Scans every string (object keys too) under `paths` and refuses the event when one matches a
 * pattern. The message names where, never what.
 */
export const rejectIfRegexMatch: RuleType<z.infer<typeof ZSpec>> = {
  schema: ZSpec,
  shape: false,
  compile(spec, env) {
    // Each regex with what every match of it must contain (when the pattern shows it): most
    // strings lack it (no "@", no digit) and are passed over without running the regex.
    const regexes = spec.patterns.map((p) => ({ re: new RegExp(p, spec.flags ?? ""), mayMatch: regexPrefilter(p) }));
    const prefixes = spec.exempt_value_prefixes ?? [];
    const skip = new Set<string>();
    for (const s of env.siblings) if (s.type === "allow_if_present") for (const p of s.paths as string[]) skip.add(p);
    const roots = spec.paths.map(fieldPath);
    const label = spec.label ?? "personal data";

    const hit = (s: string) => {
      for (const pre of prefixes) if (s.startsWith(pre)) return false;
      for (const r of regexes) if ((r.mayMatch === null || r.mayMatch(s)) && r.re.test(s)) return true;
      return false;
    };
    // Object keys repeat from event to event: their verdict is kept (bounded) rather than re-scanned.
    const keyHits = new Map<string, boolean>();
    const keyHit = (k: string) => {
      let h = keyHits.get(k);
      if (h === undefined) {
        h = hit(k);
        if (keyHits.size < 4096) keyHits.set(k, h);
      }
      return h;
    };
    // A path's length is known without flattening it: only paths as long as a declared one are looked up.
    const skipLengths = new Set([...skip].map((p) => p.length));
    const walk = (v: unknown, path: string, depth: number): string | null => {
      if (depth > 64 || (skipLengths.has(path.length) && skip.has(path))) return null;
      if (typeof v === "string") return hit(v) ? path : null;
      if (v === null || typeof v !== "object") return null;
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) {
          const r = walk(v[i], `${path}[${i}]`, depth + 1);
          if (r) return r;
        }
        return null;
      }
      for (const k of Object.keys(v)) {
        const child = `${path}.${k}`;
        if (keyHit(k)) return `${path} (a key)`;
        const r = walk((v as Record<string, unknown>)[k], child, depth + 1);
        if (r) return r;
      }
      return null;
    };
    return (ctx) => {
      for (const root of roots) {
        const where = walk(root.get(ctx.event), root.path, 0);
        if (where) return `Raw ${label} detected in ${where}`;
      }
      return null;
    };
  },
};
