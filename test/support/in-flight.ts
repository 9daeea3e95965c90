/**
 * What was still being waited for when a browser test failed: the requests each test server had
 * not answered yet, and the requests each open browser context had not heard back from. A page
 * that "never finished loading" then says whether the server or the browser held it up.
 */
const servers = new Map<string, Map<number, { line: string; at: number }>>();
const contexts = new Set<() => string[]>();
let next = 0;

/** Wraps a server's fetch handler so its unanswered requests can be listed. */
export function trackServer(
  label: string,
  app: { fetch: (req: Request, ...rest: any[]) => Response | Promise<Response> },
): () => void {
  const open = new Map<number, { line: string; at: number }>();
  servers.set(label, open);
  const fetch = app.fetch;
  app.fetch = async (req: Request, ...rest: any[]) => {
    const id = next++;
    open.set(id, { line: `${req.method} ${new URL(req.url).pathname}`, at: Date.now() });
    try {
      return await fetch(req, ...rest);
    } finally {
      open.delete(id);
    }
  };
  return () => servers.delete(label);
}

/** Registers a browser context's own list of requests it is still waiting on. */
export function trackContext(pending: () => string[]): () => void {
  contexts.add(pending);
  return () => contexts.delete(pending);
}

/** What each open browser context's pages show now, asked for when a test fails. */
const shows = new Set<() => Promise<string[]>>();

/** Registers how to read what a context's pages show; returns how to unregister. */
export function trackPages(show: () => Promise<string[]>): () => void {
  shows.add(show);
  return () => shows.delete(show);
}

/** What every open context's pages show, one line each (a page that does not answer says so). */
export async function openPagesReport(): Promise<string[]> {
  return (await Promise.all([...shows].map((show) => show().catch(() => [])))).flat();
}

/** What the contexts closed during the current test showed and waited for (cleared per test). */
let closed: string[] = [];

/** Keeps a closing context's last state for the current test's failure report. */
export function keepClosedContext(lines: string[]): void {
  closed.push(...lines.map((l) => `(closed) ${l}`));
  if (closed.length > 40) closed = closed.slice(-40);
}

/** Forgets the closed contexts of the test before. */
export function forgetClosedContexts(): void {
  closed = [];
}

/** Everything unanswered for longer than `olderThanMs`, one line each. */
export function inFlightReport(olderThanMs = 2000): string {
  const now = Date.now();
  const lines: string[] = [];
  for (const [url, open] of servers) {
    for (const r of open.values())
      if (now - r.at >= olderThanMs) lines.push(`server ${url}: ${r.line} for ${now - r.at} ms`);
  }
  for (const pending of contexts) lines.push(...pending());
  lines.push(...closed);
  return lines.length ? lines.join("\n") : "nothing unanswered";
}
