import { AxeBuilder } from "@axe-core/playwright";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { LIMITS } from "../../contracts/facts.js";
import { png } from "../support/pictures.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { DESKTOP, launchBrowser, signedIn } from "./harness.js";

/** Pictures and files between two people, each in their own browser, live. */
const DM = "cnv_dan_ana";
let server: TestServer;
let browser: Browser;
const person = (name: string) => server.demo.humans.find((h) => h.display_name === name)!;
/** File names unique to each attempt: a retried test must not find the first attempt's files. */
let attempt = 0;
const unique = (name: string) => name.replace(/\./, `-${attempt}.`);

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function openChat(name: string): Promise<Page> {
  const { page } = await signedIn(browser, server.url, person(name).token, DESKTOP);
  await page.goto(`${server.url}/c/${DM}`);
  await page.getByRole("textbox", { name: "Message" }).waitFor();
  await expect.poll(() => page.locator(".conn").count(), { timeout: 15_000 }).toBe(0);
  return page;
}

/** A paste into the composer, as the browser fires it for a screenshot on the clipboard (a file, no text). */
async function pastePicture(page: Page, bytes: Uint8Array, name: string): Promise<void> {
  await page.getByRole("textbox", { name: "Message" }).evaluate(
    (el, [data, fileName]) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(data as number[])], fileName as string, { type: "image/png" }));
      el.dispatchEvent(new ClipboardEvent("paste", { clipboardData: dt, bubbles: true, cancelable: true }));
    },
    [Array.from(bytes), name] as const,
  );
}

const seriousAxe = async (page: Page, include?: string) => {
  const builder = new AxeBuilder({ page });
  const r = await (include ? builder.include(include) : builder).analyze();
  return r.violations
    .filter((v) => v.impact === "critical" || v.impact === "serious")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
};

describe("Pictures and files in a real browser", () => {
  test("a pasted picture with a caption appears for the other person live; the lightbox opens by keyboard and Escape returns focus", async () => {
    attempt++;
    const board = unique("whiteboard.png");
    const [dan, ana] = await Promise.all([openChat("Dan"), openChat("Ana")]);

    await pastePicture(dan, png(64, 48, [200, 60, 40]), board);
    const tray = dan.getByRole("list", { name: "Files to send" });
    await expect.poll(() => tray.getByRole("listitem").count()).toBe(1);
    expect(await tray.locator("img").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(64);
    expect(await dan.getByRole("textbox", { name: "Message" }).getAttribute("placeholder")).toBe("Add a caption");
    await dan.getByRole("textbox", { name: "Message" }).fill("The plan from today");
    await dan.getByRole("textbox", { name: "Message" }).press("Enter");
    await expect.poll(() => tray.count()).toBe(0);

    // Ana sees it without reloading: the box reserved from the recorded size, the picture decoded, the caption.
    const open = ana.getByRole("button", { name: `Open picture ${board}` });
    await open.waitFor({ timeout: 15_000 });
    const img = open.locator("img");
    expect([await img.getAttribute("width"), await img.getAttribute("height")]).toEqual(["64", "48"]);
    await expect
      .poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth), { timeout: 10_000 })
      .toBe(64);
    expect(await img.getAttribute("alt")).toBe(`${board}: The plan from today`);
    expect(await ana.locator(".bubble-picture", { has: open }).locator(".caption").textContent()).toBe(
      "The plan from today",
    );
    expect(await seriousAxe(ana, ".timeline")).toEqual([]);

    // Keyboard only: focus, Enter, look, Escape.
    await open.focus();
    await ana.keyboard.press("Enter");
    const dialog = ana.getByRole("dialog", { name: `Picture: ${board}` });
    await dialog.waitFor();
    expect(await dialog.evaluate((d: HTMLDialogElement) => d.open && d.matches(":modal"))).toBe(true);
    expect(await dialog.locator("img").getAttribute("alt")).toBe(`${board}: The plan from today`);
    expect(await dialog.getByRole("link", { name: `Download ${board}` }).getAttribute("download")).toBe(board);
    expect(await seriousAxe(ana)).toEqual([]);
    await ana.keyboard.press("Escape");
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await ana.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe(`Open picture ${board}`);

    // The Close button does the same.
    await ana.keyboard.press("Enter");
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await ana.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe(`Open picture ${board}`);

    // Opened again before the closed dialog's close event has run (a quick Escape, Enter): it opens.
    await open.click();
    await dialog.waitFor();
    await dialog.evaluate((d: HTMLDialogElement, name) => {
      d.close();
      (document.querySelector(`button[aria-label="${name}"]`) as HTMLButtonElement).click();
    }, `Open picture ${board}`);
    await expect.poll(() => ana.locator("dialog.lightbox[open]").count()).toBe(1);
    // …and stays open once that close event has run.
    await new Promise((r) => setTimeout(r, 300));
    expect(await ana.locator("dialog.lightbox[open]").count()).toBe(1);
    await ana.keyboard.press("Escape");
    await expect.poll(() => dialog.count()).toBe(0);
  });

  test("several files at once, each with its progress and Cancel, arrive in order; more than the limit is refused", async () => {
    attempt++;
    const reportName = unique("report.txt");
    const chartName = unique("chart.png");
    const dropName = unique("drop-me.txt");
    const [dan, ana] = await Promise.all([openChat("Dan"), openChat("Ana")]);
    const input = dan.getByTestId("file-input");

    const tooMany = Array.from({ length: LIMITS.filesPerSend + 1 }, (_, i) => ({
      name: `n${i}.txt`,
      mimeType: "text/plain",
      buffer: Buffer.from(`note ${i}`),
    }));
    await input.setInputFiles(tooMany);
    await expect
      .poll(() => dan.getByRole("status").allTextContents())
      .toContain(`Up to ${LIMITS.filesPerSend} files at a time.`);
    const tray = dan.getByRole("list", { name: "Files to send" });
    expect(await tray.getByRole("listitem").count()).toBe(LIMITS.filesPerSend);
    for (let i = 0; i < LIMITS.filesPerSend; i++) await tray.getByRole("button", { name: `Remove n${i}.txt` }).click();
    await expect.poll(() => tray.count()).toBe(0);

    // Slow the uploads down so the progress can be watched.
    const cdp = await dan.context().newCDPSession(dan);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 20,
      downloadThroughput: -1,
      uploadThroughput: 400 * 1024,
    });
    const big = Buffer.alloc(600 * 1024, "report line\n");
    await input.setInputFiles([
      { name: reportName, mimeType: "text/plain", buffer: big },
      { name: chartName, mimeType: "image/png", buffer: Buffer.from(png(120, 80)) },
      { name: dropName, mimeType: "text/plain", buffer: Buffer.from("never sent") },
    ]);
    expect(await tray.getByRole("listitem").count()).toBe(3);
    await dan.getByRole("textbox", { name: "Message" }).fill("Numbers for the week");
    await dan.getByRole("button", { name: "Send", exact: true }).click();

    const bar = dan.getByRole("progressbar", { name: `Sending ${reportName}` });
    await bar.waitFor();
    await expect.poll(async () => Number(await bar.getAttribute("value")), { timeout: 10_000 }).toBeGreaterThan(0);
    const seen = Number(await bar.getAttribute("value"));
    expect(seen).toBeLessThan(100);
    // The others wait their turn; the last is cancelled before it goes.
    expect(await dan.locator(".bubble-upload .file-meta", { hasText: "Waiting" }).count()).toBe(2);
    await dan.getByRole("button", { name: `Cancel sending ${dropName}` }).click();
    await expect.poll(() => dan.getByRole("progressbar", { name: `Sending ${dropName}` }).count()).toBe(0);

    await expect
      .poll(() => ana.getByRole("button", { name: `Open picture ${chartName}` }).count(), { timeout: 20_000 })
      .toBe(1);
    const names = await ana
      .locator(".bubble-file")
      .evaluateAll((els) =>
        els.map((e) => e.querySelector(".file-name")?.textContent ?? e.querySelector("img")?.getAttribute("alt") ?? ""),
      );
    const report = names.indexOf(reportName);
    const chart = names.indexOf(chartName);
    expect(report).toBeGreaterThanOrEqual(0);
    expect(chart).toBe(report + 1);
    expect(names).not.toContain(dropName);
    // The caption went with the first file.
    expect(await ana.locator(".bubble-file", { hasText: reportName }).locator(".caption").textContent()).toBe(
      "Numbers for the week",
    );
    await expect.poll(() => dan.locator(".bubble-upload").count(), { timeout: 10_000 }).toBe(0);
    await new Promise((r) => setTimeout(r, 500));
    expect(await ana.locator(".bubble-file", { hasText: dropName }).count()).toBe(0);
    expect(await seriousAxe(dan)).toEqual([]);
  });
});
