import { z } from "zod";
import { compileCondition } from "../conditions.js";
import { fieldPath, isPresent } from "../paths.js";
import type { RuleType } from "../rule.js";

const base = { note: z.string().optional(), event_types: z.array(z.string()).min(1).optional() };
const path = z.string().min(1);

function missing(event: Record<string, unknown>, paths: ReadonlyArray<ReturnType<typeof fieldPath>>): string[] {
  const out: string[] = [];
  for (const p of paths) {
    const ok = p.many ? p.all(event).some(isPresent) : isPresent(p.get(event));
    if (!ok) out.push(p.path);
  }
  return out;
}

/** Every listed field must be present (not absent, null or ""). */
export const requireFields: RuleType<{ fields: string[] }> = {
  schema: z.strictObject({ type: z.literal("require_fields"), fields: z.array(path).min(1), ...base }),
  shape: true,
  compile(spec) {
    const paths = spec.fields.map(fieldPath);
    return (ctx) => {
      const m = missing(ctx.event, paths);
      return m.length ? `missing required field${m.length > 1 ? "s" : ""}: ${m.join(", ")}` : null;
    };
  },
};

/** `actor.actor_type` (or `field`) must be one of `allowed`. */
export const requireActorTypeIn: RuleType<{ allowed: string[]; field?: string | undefined }> = {
  schema: z.strictObject({
    type: z.literal("require_actor_type_in"),
    allowed: z.array(z.string()).min(1),
    field: path.optional(),
    ...base,
  }),
  shape: true,
  compile(spec) {
    const p = fieldPath(spec.field ?? "actor.actor_type");
    const allowed = new Set(spec.allowed);
    return (ctx) =>
      allowed.has(p.get(ctx.event) as string) ? null : `${p.path} must be one of ${spec.allowed.join(", ")}`;
  },
};

/** When present, the field's value (every value, for `[]` paths) must be one of `allowed`. */
export const requireIn: RuleType<{ field: string; allowed: unknown[] }> = {
  schema: z.strictObject({ type: z.literal("require_in"), field: path, allowed: z.array(z.unknown()).min(1), ...base }),
  shape: true,
  compile(spec) {
    const p = fieldPath(spec.field);
    const allowed = new Set(spec.allowed);
    const list = spec.allowed.map((v) => JSON.stringify(v)).join(", ");
    return (ctx) => (p.all(ctx.event).every((v) => allowed.has(v)) ? null : `${p.path} must be one of ${list}`);
  },
};

const ZEqualPair = z.strictObject({ a: path, b: path, note: z.string().optional() });

/**
 * When `if` holds (always, when omitted): every `then_require` field must be present, and each
 * `then_assert_equal` pair must be equal (for a `[]` path in `a`, every value of it).
 */
export const requireIf: RuleType<{
  if?: unknown;
  then_require?: string[] | undefined;
  then_assert_equal?: Array<{ a: string; b: string }> | undefined;
}> = {
  schema: z
    .strictObject({
      type: z.literal("require_if"),
      if: z.record(z.string(), z.unknown()).optional(),
      then_require: z.array(path).min(1).optional(),
      then_assert_equal: z.array(ZEqualPair).min(1).optional(),
      ...base,
    })
    .refine((s) => s.then_require || s.then_assert_equal, "require_if needs then_require or then_assert_equal"),
  shape: true,
  compile(spec) {
    const cond = spec.if ? compileCondition(spec.if, "require_if.if") : undefined;
    if (cond?.usesFold) throw new Error("require_if.if may only test fields of the event");
    const req = (spec.then_require ?? []).map(fieldPath);
    const pairs = (spec.then_assert_equal ?? []).map((x) => ({ a: fieldPath(x.a), b: fieldPath(x.b) }));
    const when = cond ? ` when ${cond.text}` : "";
    return (ctx) => {
      if (cond && !cond.test(ctx)) return null;
      const m = missing(ctx.event, req);
      if (m.length) return `missing required field${m.length > 1 ? "s" : ""}${when}: ${m.join(", ")}`;
      for (const { a, b } of pairs) {
        const bv = b.get(ctx.event);
        const ok = a.many ? a.all(ctx.event).every((v) => v === bv) : a.get(ctx.event) === bv;
        if (!ok) return `${a.path} must equal ${b.path}${when}`;
      }
      return null;
    };
  },
};

/** The values at `field` (usually a `[]` path) must include every one of `values`. */
export const requireContains: RuleType<{ field: string; values: unknown[] }> = {
  schema: z.strictObject({
    type: z.literal("require_contains"),
    field: path,
    values: z.array(z.unknown()).min(1),
    ...base,
  }),
  shape: true,
  compile(spec) {
    const p = fieldPath(spec.field);
    return (ctx) => {
      const have = new Set(p.all(ctx.event));
      const lacking = spec.values.filter((v) => !have.has(v));
      return lacking.length ? `${p.path} must include ${lacking.map((v) => JSON.stringify(v)).join(", ")}` : null;
    };
  },
};
