import { readFileSync } from "node:fs";

/** Each part of `npm run bench` runs this many times; the figure printed is the median. */
export const RUNS = Number(process.env.BENCH_RUNS ?? 3);

export const loadavg = () => `load average ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`;

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

export const pct = (xs: readonly number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

export interface Goal {
  /** "≥" (at least) or "≤" (at most) */
  op: "≥" | "≤";
  value: number;
}

const num = (x: number, digits: number) =>
  x.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

/**
 * One line per figure: the median of its runs, the runs themselves, and the goal beside it
 * with whether the median meets it.
 */
export function figure(name: string, runs: readonly number[], unit: string, goal?: Goal, digits = 0): void {
  const m = median(runs);
  const met = goal ? (goal.op === "≥" ? m >= goal.value : m <= goal.value) : undefined;
  const goalText = goal ? `   goal ${goal.op} ${num(goal.value, digits)}${unit}: ${met ? "met" : "NOT met"}` : "";
  console.log(
    `  ${name}: ${num(m, digits)}${unit} (median of ${runs.map((r) => num(r, digits)).join(", ")})${goalText}`,
  );
}
