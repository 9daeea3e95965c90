/**
 * Field paths as the pack writes them: `payload.card.job_id`, `actor.entity_id`,
 * `payload.participants[].entity_id` (every element) and `progress.waiting_on[0]` (one element).
 */
const EVERY = Symbol("every");
type Segment = string | number | typeof EVERY;

export interface FieldPath {
  readonly path: string;
  /** True when the path has a `[]` segment and so can name several values. */
  readonly many: boolean;
  /** The value at the path (the first one for `[]` paths); undefined when absent. */
  get(obj: unknown): unknown;
  /** Every value the path names (absent ones left out). */
  all(obj: unknown): unknown[];
}

const cache = new Map<string, FieldPath>();

export function fieldPath(path: string): FieldPath {
  let fp = cache.get(path);
  if (!fp) {
    fp = compile(path);
    cache.set(path, fp);
  }
  return fp;
}

function compile(path: string): FieldPath {
  if (typeof path !== "string" || path.length === 0) throw new Error(`invalid field path ${JSON.stringify(path)}`);
  const segs: Segment[] = [];
  for (const part of path.split(".")) {
    const m = /^([^[\]]*)((?:\[\d*\])*)$/.exec(part);
    if (!m || (!m[1] && !m[2])) throw new Error(`invalid field path ${JSON.stringify(path)}`);
    if (m[1]) segs.push(m[1]);
    for (const idx of (m[2] ?? "").match(/\[\d*\]/g) ?? []) segs.push(idx === "[]" ? EVERY : Number(idx.slice(1, -1)));
  }
  const many = segs.includes(EVERY);
  const all = (obj: unknown): unknown[] => {
    let cur: unknown[] = [obj];
    for (const seg of segs) {
      const next: unknown[] = [];
      for (const v of cur) {
        if (v === null || typeof v !== "object") continue;
        if (seg === EVERY) {
          if (Array.isArray(v)) for (const x of v) if (x !== undefined) next.push(x);
        } else if (typeof seg === "number") {
          if (Array.isArray(v) && seg < v.length && v[seg] !== undefined) next.push(v[seg]);
        } else if (Object.hasOwn(v, seg)) {
          const x = (v as Record<string, unknown>)[seg];
          if (x !== undefined) next.push(x);
        }
      }
      cur = next;
      if (cur.length === 0) break;
    }
    return cur;
  };
  const get = many
    ? (obj: unknown) => all(obj)[0]
    : (obj: unknown) => {
        let v: unknown = obj;
        for (const seg of segs) {
          if (v === null || typeof v !== "object") return undefined;
          if (typeof seg === "number") {
            if (!Array.isArray(v)) return undefined;
            v = v[seg];
          } else {
            if (!Object.hasOwn(v, seg as string)) return undefined;
            v = (v as Record<string, unknown>)[seg as string];
          }
        }
        return v;
      };
  return { path, many, get, all };
}

/** Present = not undefined/null and not an empty string (an empty array is present). */
export function isPresent(v: unknown): boolean {
  return v !== undefined && v !== null && v !== "";
}
