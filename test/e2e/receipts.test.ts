import { readFileSync } from "node:fs";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { verifyReceipt } from "../../src/ledger/merkle/receipt.js";
import { postJson, startTestServer, type TestServer, demoPerson } from "../support/server.js";
import { askForJob, card, launchBrowser, signedIn } from "./harness.js";

/**
 * Receipts in a real browser: "Download receipt" in the Job Drawer gives a file that verifies
 * offline; and the page keeps the server honest, warning when a checkpoint does not extend the
 * one it saw before.
 */
const T = "tnt_acme_001";
let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const dan = () => demoPerson(server, "Dan").token;

describe("receipts", () => {
  test("the Job Drawer's receipt downloads and verifies with the published key", async () => {
    const { ctx, page } = await signedIn(browser, server.url, dan());
    await page.goto(`${server.url}/c/${server.demo.conversation_id}`);
    await askForJob(page, "Can you schedule a 30-min call with Maria next week?");
    await card(page, "formalize").locator(".card-details").click();
    const drawer = page.getByRole("dialog", { name: "Job details" });
    const link = drawer.getByRole("link", { name: "Download receipt" });
    await link.waitFor();
    const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
    expect(download.suggestedFilename()).toMatch(/^receipt-job_[A-Za-z0-9_]+\.json$/);
    const receipt = JSON.parse(readFileSync((await download.path())!, "utf8"));
    const key = (
      await (
        await fetch(`${server.url}/v1/ledger/verifier-key`, { headers: { authorization: `Bearer ${dan()}` } })
      ).text()
    )
      .trim()
      .split("\n")[0]!;
    const checked = verifyReceipt(receipt, [key]);
    expect(checked.events).toBeGreaterThanOrEqual(2);
    expect(checked.tenant_id).toBe(T);
    await ctx.close();
  }, 60_000);

  test("the page remembers the checkpoint, accepts one that extends it, and warns about one that does not", async () => {
    const { ctx, page } = await signedIn(browser, server.url, dan());
    const stored = () => page.evaluate((t) => JSON.parse(localStorage.getItem(`logline.checkpoint.${t}`) ?? "null"), T);
    await expect.poll(stored, { timeout: 10_000 }).not.toBeNull();
    const first = await stored();
    // The log grows; the next look checks the consistency proof and moves on, silently.
    await postJson(`${server.url}/v1/conversations/cnv_dan_ana/messages`, dan(), {
      kind: "text",
      body_text: "more history",
    });
    await page.reload();
    await expect.poll(async () => (await stored())?.size, { timeout: 10_000 }).toBeGreaterThan(first.size);
    expect(await page.locator("#log-warning").count()).toBe(0);
    // Had this browser once seen a different history of the same length, the server cannot
    // prove the current one extends it: a warning, and the old checkpoint kept as evidence.
    const forged = { size: first.size, root: Buffer.alloc(32, 9).toString("base64") };
    await page.evaluate(([t, v]) => localStorage.setItem(`logline.checkpoint.${t}`, JSON.stringify(v)), [
      T,
      forged,
    ] as const);
    await page.reload();
    const warning = page
      .getByRole("alert")
      .filter({ hasText: "does not extend the one it showed this browser before" });
    await warning.waitFor({ timeout: 10_000 });
    expect(await stored()).toEqual(forged);
    await ctx.close();
  }, 60_000);
});
