import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";

/**
 * Browser-test plumbing: a real LogLine server on a free loopback port with a fresh data dir
 * (test/support/server.ts when it is there, else `src/main.ts` as a child process), and one
 * Debian Chromium shared by every test in a file.
 */
export interface DemoInfo {
  tenant_id: string;
  conversation_id: string;
  humans: Array<{ entity_id: string; display_name: string; token: string }>;
  agents: Array<{ entity_id: string; display_name: string }>;
}
export interface RunningServer {
  url: string;
  demo: DemoInfo | null;
  close: () => Promise<void>;
}

const root = fileURLToPath(new URL("../..", import.meta.url));
export const ARTIFACTS = join(root, "test", "artifacts");

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

async function viaSupport(demo: boolean): Promise<RunningServer | null> {
  const path = join(root, "test", "support", "server.ts");
  if (!existsSync(path)) return null;
  const mod = (await import(path)) as Record<string, unknown>;
  const start = (mod["startServer"] ?? mod["startTestServer"] ?? mod["default"]) as ((o?: object) => Promise<RunningServer>) | undefined;
  if (typeof start !== "function") return null;
  return start({ demo });
}

async function viaProcess(demo: boolean): Promise<RunningServer> {
  const dataDir = mkdtempSync(join(tmpdir(), "logline-e2e-"));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, LOGLINE_DEMO: demo ? "1" : "0", PUBLIC_URL: url, LOG_LEVEL: "warn", NODE_ENV: "test" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited: ${stderr}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error(`server did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const demoPath = join(dataDir, "demo.json");
  return {
    url,
    demo: demo && existsSync(demoPath) ? (JSON.parse(readFileSync(demoPath, "utf8")) as DemoInfo) : null,
    close: async () => {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function startServer(opts: { demo: boolean }): Promise<RunningServer> {
  return (await viaSupport(opts.demo)) ?? viaProcess(opts.demo);
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/** A fresh context signed in through the one-click link, like a person opening it. */
export async function signedIn(browser: Browser, url: string, token: string, viewport = DESKTOP): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext({ viewport, permissions: ["clipboard-read", "clipboard-write"] });
  const page = await ctx.newPage();
  page.on("pageerror", (e) => console.error("pageerror:", e.message));
  await page.goto(`${url}/signin?token=${encodeURIComponent(token)}`);
  await page.locator(".sidebar").waitFor();
  return { ctx, page };
}

export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`) });
}

/** Fills an input modal from whatever schema Office sent, choosing plausible values by label. */
export async function fillInputModal(page: Page, overrides: Record<string, string> = {}): Promise<void> {
  const fields = page.locator(".modal .form-field");
  const n = await fields.count();
  for (let i = 0; i < n; i++) {
    const f = fields.nth(i);
    const label = ((await f.locator("label").first().textContent()) ?? "").toLowerCase();
    const key = Object.keys(overrides).find((k) => label.includes(k));
    const select = f.locator("select");
    if (await select.count()) {
      const values = await select.locator("option").evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value).filter(Boolean));
      await select.selectOption(key ? overrides[key]! : values[0]!);
      continue;
    }
    const box = f.locator("input:not([type=checkbox]), textarea");
    if (!(await box.count())) continue;
    const value = key
      ? overrides[key]!
      : label.includes("email") || label.includes("contact") ? "maria@acme.com"
      : label.includes("zone") ? "Europe/Lisbon"
      : label.includes("title") ? "Intro call with Maria"
      : label.includes("link") || label.includes("location") ? "Google Meet"
      : label.includes("duration") || label.includes("minutes") ? "30"
      : "Tue–Thu, 14:00–17:00";
    await box.fill(value);
  }
}

/** The trimmed text of the first match ("" when there is none yet), for expect.poll. */
export async function textOf(l: import("playwright-core").Locator): Promise<string> {
  return ((await l.first().textContent({ timeout: 2000 }).catch(() => "")) ?? "").trim();
}
