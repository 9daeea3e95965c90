import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { demoPerson, getJson, startTestServer, type TestServer } from "../support/server.js";
import { launchBrowser, signedIn, textOf } from "./harness.js";

/**
 * Voice notes between two people: Dan records about a second from the microphone (Chromium's
 * fake device, a beeping tone) and sends it; Ana's browser shows an audio player with its length
 * and plays it and seeks in it from the keyboard. A recording cancelled is never sent.
 */
let server: TestServer;
let browser: Browser;
const DM = "cnv_dan_ana";

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startTestServer(),
    // Only this file's browser has a (fake) microphone, allowed without asking.
    launchBrowser(["--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream"]),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const open = async (page: Page) => {
  await page.locator(`[data-conversation-id="${DM}"]`).click();
  await expect.poll(() => page.url()).toContain(`/c/${DM}`);
};

/** The audio messages of the chat on the server. */
async function audioOnServer(): Promise<Array<{ mime_type: string; duration_ms?: number; size_bytes: number }>> {
  const r = await getJson(`${server.url}/v1/conversations/${DM}/timeline?limit=500`, demoPerson(server, "Dan").token);
  return (r.body.items as any[])
    .map((i) => i.message?.artifact)
    .filter((a) => typeof a?.mime_type === "string" && a.mime_type.startsWith("audio/"));
}

describe("voice notes", () => {
  test("Dan records and sends a voice note; Ana sees a player with its length and plays it", async () => {
    const d = await signedIn(browser, server.url, demoPerson(server, "Dan").token);
    const a = await signedIn(browser, server.url, demoPerson(server, "Ana").token);
    try {
      await d.ctx.grantPermissions(["microphone"], { origin: server.url });
      await open(d.page);
      await open(a.page);

      // Cancelled: the recording is thrown away.
      await d.page.getByRole("button", { name: "Record a voice note" }).click();
      await expect.poll(() => textOf(d.page.locator(".voice-bar .voice-time"))).toMatch(/^Recording 0:0\d$/);
      await d.page.locator(".voice-bar").getByRole("button", { name: "Cancel" }).click();
      await expect.poll(() => d.page.locator(".voice-bar").count()).toBe(0);

      // Recorded for about a second, then sent.
      await d.page.getByRole("button", { name: "Record a voice note" }).click();
      await d.page.locator(".voice-bar").waitFor();
      await d.page.waitForTimeout(1300);
      await d.page.getByRole("button", { name: "Send voice note" }).click();
      await expect.poll(() => audioOnServer(), { timeout: 15_000 }).toHaveLength(1);
      const [note] = await audioOnServer();
      expect(note!.mime_type).toBe("audio/webm");
      expect(note!.size_bytes).toBeGreaterThan(0);
      expect(note!.duration_ms).toBeGreaterThanOrEqual(1000);
      expect(note!.duration_ms).toBeLessThan(10_000);

      // Ana: a player with the note's length, played from the keyboard.
      const player = a.page.locator(".timeline .audio-player").last();
      await player.waitFor({ timeout: 15_000 });
      await expect
        .poll(() => textOf(player.locator(".audio-time")))
        .toBe(`0:00 / 0:0${Math.floor(note!.duration_ms! / 1000)}`);
      const scrubber = player.getByRole("slider");
      expect(await scrubber.getAttribute("aria-label")).toMatch(/^Position in voice-note-[\d-]+\.webm$/);
      const audio = player.locator("audio");
      await expect.poll(() => audio.evaluate((el: HTMLAudioElement) => el.duration > 0)).toBe(true);
      const play = player.getByRole("button", { name: /^Play voice-note-/ });
      await play.focus();
      await a.page.keyboard.press("Enter");
      await expect
        .poll(() => audio.evaluate((el: HTMLAudioElement) => el.currentTime > 0.2 || el.ended), { timeout: 10_000 })
        .toBe(true);
      // The scrubber seeks, by keyboard too (the file is served in byte ranges).
      await expect.poll(() => audio.evaluate((el: HTMLAudioElement) => el.paused)).toBe(true);
      await scrubber.focus();
      for (let i = 0; i < 6; i++) await a.page.keyboard.press("ArrowRight");
      await expect.poll(() => audio.evaluate((el: HTMLAudioElement) => Math.round(el.currentTime * 10) / 10)).toBe(0.6);
      expect(await scrubber.getAttribute("aria-valuetext")).toBe(`0:00 of 0:0${Math.floor(note!.duration_ms! / 1000)}`);
      // Nothing else was sent: the cancelled recording never arrived.
      expect(await audioOnServer()).toHaveLength(1);
    } finally {
      await d.ctx.close();
      await a.ctx.close();
    }
  });
});
