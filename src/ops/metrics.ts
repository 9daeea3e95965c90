import { monitorEventLoopDelay } from "node:perf_hooks";

/**
 * A small Prometheus registry: counters, gauges and histograms with labels, rendered in the text
 * exposition format (version 0.0.4). Enough for one process; no client library needed.
 */

type Labels = Record<string, string | number>;

interface Metric {
  name: string;
  help: string;
  type: "counter" | "gauge" | "histogram";
  render(): string[];
}

const escapeLabel = (v: string) => v.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');
const labelKey = (labels: Labels) =>
  Object.keys(labels)
    .sort()
    .map((k) => `${k}="${escapeLabel(String(labels[k]))}"`)
    .join(",");
const withLabels = (name: string, key: string, extra = "") => {
  const all = [key, extra].filter(Boolean).join(",");
  return all ? `${name}{${all}}` : name;
};
const num = (n: number) => (Number.isFinite(n) ? String(n) : n > 0 ? "+Inf" : n < 0 ? "-Inf" : "NaN");

interface Counter {
  inc(labels?: Labels, by?: number): void;
  get(labels?: Labels): number;
}
export interface Gauge {
  set(value: number, labels?: Labels): void;
  inc(labels?: Labels, by?: number): void;
  dec(labels?: Labels, by?: number): void;
  get(labels?: Labels): number;
}
interface Histogram {
  observe(value: number, labels?: Labels): void;
  /** Number of observations so far. */
  count(labels?: Labels): number;
}

/** Seconds: from sub-millisecond SQLite commits to multi-second LLM calls. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface MetricsRegistry {
  counter(name: string, help: string): Counter;
  gauge(name: string, help: string, collect?: () => number): Gauge;
  histogram(name: string, help: string, buckets?: number[]): Histogram;
  /** The whole registry in Prometheus text format. */
  render(): string;
}

function createMetricsRegistry(): MetricsRegistry {
  const metrics = new Map<string, Metric>();

  function register<M extends Metric>(m: M): M {
    if (metrics.has(m.name)) throw new Error(`metric ${m.name} registered twice`);
    metrics.set(m.name, m);
    return m;
  }

  return {
    counter(name, help) {
      const values = new Map<string, number>();
      const c: Counter & Metric = {
        name,
        help,
        type: "counter",
        inc(labels = {}, by = 1) {
          const k = labelKey(labels);
          values.set(k, (values.get(k) ?? 0) + by);
        },
        get: (labels = {}) => values.get(labelKey(labels)) ?? 0,
        render: () => [...values].map(([k, v]) => `${withLabels(name, k)} ${num(v)}`),
      };
      return register(c);
    },
    gauge(name, help, collect) {
      const values = new Map<string, number>();
      const g: Gauge & Metric = {
        name,
        help,
        type: "gauge",
        set: (value, labels = {}) => void values.set(labelKey(labels), value),
        inc(labels = {}, by = 1) {
          const k = labelKey(labels);
          values.set(k, (values.get(k) ?? 0) + by);
        },
        dec(labels = {}, by = 1) {
          const k = labelKey(labels);
          values.set(k, (values.get(k) ?? 0) - by);
        },
        get: (labels = {}) =>
          collect && Object.keys(labels).length === 0 ? collect() : (values.get(labelKey(labels)) ?? 0),
        render: () =>
          collect ? [`${name} ${num(collect())}`] : [...values].map(([k, v]) => `${withLabels(name, k)} ${num(v)}`),
      };
      return register(g);
    },
    histogram(name, help, buckets = LATENCY_BUCKETS) {
      const sorted = [...buckets].sort((a, b) => a - b);
      const series = new Map<string, { counts: number[]; sum: number; count: number }>();
      const h: Histogram & Metric = {
        name,
        help,
        type: "histogram",
        observe(value, labels = {}) {
          const k = labelKey(labels);
          let s = series.get(k);
          if (!s) series.set(k, (s = { counts: sorted.map(() => 0), sum: 0, count: 0 }));
          for (let i = 0; i < sorted.length; i++) if (value <= sorted[i]!) s.counts[i]!++;
          s.sum += value;
          s.count++;
        },
        count: (labels = {}) => series.get(labelKey(labels))?.count ?? 0,
        render() {
          const out: string[] = [];
          for (const [k, s] of series) {
            for (const [i, b] of sorted.entries())
              out.push(`${withLabels(`${name}_bucket`, k, `le="${num(b)}"`)} ${s.counts[i]}`);
            out.push(`${withLabels(`${name}_bucket`, k, 'le="+Inf"')} ${s.count}`);
            out.push(`${withLabels(`${name}_sum`, k)} ${num(s.sum)}`);
            out.push(`${withLabels(`${name}_count`, k)} ${s.count}`);
          }
          return out;
        },
      };
      return register(h);
    },
    render() {
      const out: string[] = [];
      for (const m of metrics.values()) {
        out.push(
          `# HELP ${m.name} ${m.help.replace(/\\/g, "\\\\").replace(/\n/g, "\\n")}`,
          `# TYPE ${m.name} ${m.type}`,
          ...m.render(),
        );
      }
      return `${out.join("\n")}\n`;
    },
  };
}

/**
 * LogLine's own metrics, named once here so the request middleware, the ledger observer and the
 * SSE tracker all feed the same series.
 */
export function createLoglineMetrics(registry: MetricsRegistry = createMetricsRegistry()) {
  // How late the event loop runs its timers: a request that holds it shows here (sampled every
  // 10 ms; the figures cover the time since the previous scrape, which resets them).
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const seconds = (ns: number) => (Number.isFinite(ns) ? ns / 1e9 : 0);
  let scraped = { max: 0, p99: 0, mean: 0 };
  const scrape = () => {
    scraped = { max: seconds(loop.max), p99: seconds(loop.percentile(99)), mean: seconds(loop.mean) };
    loop.reset();
  };
  return {
    registry,
    httpRequests: registry.counter("logline_http_requests_total", "HTTP requests by route pattern, method and status."),
    httpDuration: registry.histogram(
      "logline_http_request_duration_seconds",
      "HTTP request latency by route pattern (time to response headers).",
    ),
    appendDuration: registry.histogram(
      "logline_ledger_append_duration_seconds",
      "Ledger append latency, validation to durable commit.",
    ),
    events: registry.counter("logline_ledger_events_total", "Events committed to the ledger by event type."),
    sseClients: registry.gauge("logline_sse_clients", "Open server-sent-event streams."),
    projectionRebuild: registry.gauge(
      "logline_projection_rebuild_seconds",
      "Time the last boot took to rebuild the in-memory projections from the ledger.",
    ),
    toolCalls: registry.counter("logline_tool_calls_total", "Tool results recorded in the ledger by tool and outcome."),
    policyViolations: registry.counter("logline_policy_violations_total", "policy.violation events by policy code."),
    up: registry.gauge("logline_process_start_time_seconds", "Unix time the process started."),
    loopDelayMax: registry.gauge(
      "logline_event_loop_delay_max_seconds",
      "Longest event-loop delay since the previous scrape (perf_hooks.monitorEventLoopDelay).",
      () => {
        scrape();
        return scraped.max;
      },
    ),
    loopDelayP99: registry.gauge(
      "logline_event_loop_delay_p99_seconds",
      "99th percentile of the event-loop delay since the previous scrape.",
      () => scraped.p99,
    ),
    loopDelayMean: registry.gauge(
      "logline_event_loop_delay_mean_seconds",
      "Mean event-loop delay since the previous scrape.",
      () => scraped.mean,
    ),
  };
}

export type LoglineMetrics = ReturnType<typeof createLoglineMetrics>;
