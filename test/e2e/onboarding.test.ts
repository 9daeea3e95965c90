import { mkdirSync } from "node:fs";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { ARTIFACTS, DESKTOP, launchBrowser, PHONE, shot, startServer, type RunningServer, textOf } from "./harness.js";

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  // Sign-up left open: a second shop signs up on the same server further down.
  [server, browser] = await Promise.all([startServer({ demo: false, signup: "open" }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

test("onboarding from an empty database: workspace → invite link → agent coworker → chat; the invitee joins from the link", async () => {
  const ctx = await browser.newContext({ viewport: DESKTOP });
  const page = await ctx.newPage();
  await page.goto(`${server.url}/`);
  // No session: the sign-in page offers to create a workspace.
  await page.getByRole("link", { name: "Create a workspace" }).click();
  await page.getByLabel("Business name").fill("Rivera Plumbing");
  await page.getByLabel("Your name").fill("Dan Rivera");
  await shot(page, "20-desktop-onboarding-workspace");
  await page.getByRole("button", { name: "Create workspace" }).click();

  await page.getByRole("heading", { name: "Invite a coworker" }).waitFor();
  await page.getByLabel("Coworker’s name (optional)").fill("Ana");
  await page.getByRole("button", { name: "Create invite link" }).click();
  const link = page.getByLabel("Invite link");
  await expect.poll(() => link.inputValue()).toMatch(/\/invite\//);
  const inviteUrl = await link.inputValue();
  await shot(page, "21-desktop-onboarding-invite");
  await page.getByRole("button", { name: "Next" }).click();

  await page.getByRole("heading", { name: "Add an agent coworker" }).waitFor();
  await page.getByLabel("Name", { exact: true }).fill("Office Scheduler");
  await page.getByLabel("Role").fill("Scheduler");
  await shot(page, "22-desktop-onboarding-agent");
  await page.getByRole("button", { name: "Add agent and start chatting" }).click();
  await page.getByRole("textbox", { name: "Message" }).waitFor();
  await expect.poll(() => textOf(page.locator(".chat-head h1"))).toMatch("Office Scheduler");
  await expect.poll(() => page.locator(".conv-row").count()).toBe(1);

  // The invitee opens the link on a phone, types a name and is in.
  const phone = await browser.newContext({ viewport: PHONE });
  const p2 = await phone.newPage();
  await p2.goto(inviteUrl.replace(/^https?:\/\/[^/]+/, server.url));
  await p2.getByLabel("Your name").fill("Ana Costa");
  await shot(p2, "23-phone-invite");
  await p2.getByRole("button", { name: "Join workspace" }).click();
  await p2.locator(".sidebar").waitFor();
  await expect.poll(() => textOf(p2.locator(".brand"))).toMatch("LogLine");

  // Signing in later with a token works from the sign-in page too.
  const later = await browser.newContext({ viewport: DESKTOP });
  const p3 = await later.newPage();
  const token = await fetch(`${server.url}/v1/workspaces`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Idempotency-Key": `e2e-ws-${Date.now()}` },
    body: JSON.stringify({ name: "Second shop", owner: { display_name: "Eve" } }),
  }).then((r) => r.json() as Promise<{ token: string }>);
  await p3.goto(`${server.url}/signin`);
  await p3.getByLabel("Sign-in token or link").fill(token.token);
  await p3.getByRole("button", { name: "Sign in", exact: true }).click();
  await p3.locator(".sidebar").waitFor();
  await shot(p3, "24-desktop-signed-in-empty");
  await Promise.all([ctx.close(), phone.close(), later.close()]);
});
