import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AxeBuilder } from "@axe-core/playwright";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { filesServer } from "../support/mcp.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { card, launchBrowser, send, signedIn } from "./harness.js";

/**
 * The Tools screen in a real browser, with the reference filesystem server connected: an admin
 * sees the server and chooses what the agent may do; then in the chat the agent lists the
 * folder at once. A member has no Tools screen.
 */
let server: TestServer;
let browser: Browser;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "mcp-e2e-"));
  writeFileSync(join(dir, "quarterly-report.txt"), "numbers");
  [server, browser] = await Promise.all([
    startTestServer({ connectors: { mcpServers: [filesServer(dir)] } }),
    launchBrowser(),
  ]);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const human = (name: string) => server.demo.humans.find((h) => h.display_name === name)!;

describe("Tools (admins)", () => {
  test("an admin sees the server, lets the agent list folders, and the agent does it from the /run form", async () => {
    const { ctx, page } = await signedIn(browser, server.url, human("Dan").token);
    await page.getByRole("link", { name: "Admin" }).click();
    await page.getByRole("link", { name: "Tools" }).click();
    const files = page.locator(".tool-servers li", { hasText: "files" });
    await expect.poll(() => files.textContent(), { timeout: 15_000 }).toContain("Connected");
    const mode = page.getByRole("combobox", { name: "Mode for files.list_directory", exact: true });
    await mode.waitFor();
    expect(await mode.inputValue()).toBe("off");
    expect(await mode.locator("option").allTextContents()).toContain("Runs at once (suggested)");
    const axe = await new AxeBuilder({ page }).analyze();
    expect(axe.violations.filter((v) => v.impact === "critical" || v.impact === "serious").map((v) => v.id)).toEqual(
      [],
    );
    // Allowing the whole server applies the suggested modes: reading runs at once, writing asks first.
    await page.getByRole("button", { name: "Allow files (suggested modes)" }).click();
    await expect.poll(() => mode.inputValue()).toBe("auto");
    expect(await page.getByRole("combobox", { name: "Mode for files.write_file", exact: true }).inputValue()).toBe(
      "approve",
    );
    await mode.selectOption("approve");
    await expect
      .poll(
        async () =>
          (
            await (
              await fetch(`${server.url}/v1/agents/ent_agent_scheduler/tools`, {
                headers: { authorization: `Bearer ${human("Dan").token}` },
              })
            ).json()
          ).tools.find((t: { name: string }) => t.name === "files.list_directory").mode,
      )
      .toBe("approve");
    await mode.selectOption("auto");
    await expect
      .poll(
        async () =>
          (
            await (
              await fetch(`${server.url}/v1/agents/ent_agent_scheduler/tools`, {
                headers: { authorization: `Bearer ${human("Dan").token}` },
              })
            ).json()
          ).tools.find((t: { name: string }) => t.name === "files.list_directory").mode,
      )
      .toBe("auto");

    await page.goto(`${server.url}/c/${server.demo.conversation_id}`);
    // "/run <tool>" alone opens the tool's form, generated from its input schema.
    await send(page, "/run files.list_directory");
    const dialog = page.getByRole("dialog", { name: "Run files.list_directory" });
    await dialog.waitFor();
    await dialog.getByLabel("path").fill(dir);
    await dialog.getByRole("button", { name: "Run" }).click();
    const finished = card(page, "finished");
    await expect.poll(() => finished.last().textContent(), { timeout: 15_000 }).toContain("quarterly-report.txt");
    // The Job Drawer shows the call: the tool, its arguments and what it answered.
    await page.locator("article[data-card-type='job.finished'] .card-details").last().click();
    const drawer = page.getByRole("dialog", { name: "Job details" });
    await drawer.locator(".drawer-timeline").waitFor();
    const called = drawer.locator(".tl-tool", { hasText: "files.list_directory — called" }).first();
    const answered = drawer.locator(".tl-tool", { hasText: "files.list_directory — success" }).first();
    await answered.waitFor({ timeout: 10_000 });
    await called.locator("summary").click();
    await expect.poll(() => called.textContent()).toContain(dir);
    await answered.locator("summary").click();
    await expect.poll(() => answered.textContent()).toContain("quarterly-report.txt");
    await ctx.close();
  });

  test("a member has no Tools screen", async () => {
    const { ctx, page } = await signedIn(browser, server.url, human("Ana").token);
    await page.getByRole("textbox", { name: "Message" }).waitFor();
    expect(await page.getByRole("link", { name: "Tools" }).count()).toBe(0);
    await ctx.close();
  });
});
