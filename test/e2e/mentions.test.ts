import { AxeBuilder } from "@axe-core/playwright";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openStream } from "../support/golden.js";
import { getJson, postJson, startTestServer, type TestServer, demoPerson } from "../support/server.js";
import { launchBrowser, signedIn, textOf } from "./harness.js";

/**
 * Mentions and membership in real browsers: the @ picker by keyboard only in a three-person
 * group (the agent answers the mention and stays out of a message between people), the offer to
 * add an agent mentioned outside its chats, and Dan adding, renaming and removing Ana while she
 * watches in her own browser. axe finds nothing critical or serious with a picker or the offer open.
 */
let server: TestServer;
let browser: Browser;
const AGENT = "ent_agent_scheduler";
const ANA = "ent_human_ana";
const dan = () => demoPerson(server, "Dan").token;
const ana = () => demoPerson(server, "Ana").token;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const group = async (title: string, participants: string[]) => {
  const r = await postJson(`${server.url}/v1/conversations`, dan(), {
    title,
    participants: participants.map((entity_id) => ({ entity_id })),
  });
  expect(r.status).toBe(202);
  return r.body.conversation_id as string;
};
const items = async (c: string) =>
  (await getJson(`${server.url}/v1/conversations/${c}/timeline?limit=200`, dan())).body.items as any[];
const open = async (page: Page, c: string) => {
  await page.locator(`[data-conversation-id="${c}"]`).click();
  await expect.poll(() => page.url()).toContain(`/c/${c}`);
};
const seriousAxe = async (page: Page) =>
  (await new AxeBuilder({ page }).include(".composer").analyze()).violations
    .filter((v) => v.impact === "critical" || v.impact === "serious")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
const box = (page: Page) => page.locator("#composer-input");

describe("the @ picker", () => {
  test("by keyboard only: @of, ArrowDown, Enter mentions the agent, who answers; people's talk gets no agent reply", async () => {
    const c = await group("Dan, Ana and Office", [ANA, AGENT]);
    const d = await signedIn(browser, server.url, dan());
    try {
      await open(d.page, c);
      await box(d.page).focus();
      await d.page.keyboard.type("@of");
      const list = d.page.getByRole("listbox", { name: "Mention a person or agent" });
      await list.waitFor();
      // The text box is the combobox that controls the list; the first match is selected.
      const input = box(d.page);
      expect(await input.getAttribute("role")).toBe("combobox");
      expect(await input.getAttribute("aria-expanded")).toBe("true");
      expect(await input.getAttribute("aria-controls")).toBe(await list.getAttribute("id"));
      const active = await input.getAttribute("aria-activedescendant");
      expect(await d.page.locator(`[id="${active}"]`).getAttribute("aria-selected")).toBe("true");
      expect(await textOf(d.page.locator(`[id="${active}"]`))).toContain("Office Scheduler");
      expect(await d.page.evaluate(() => document.activeElement?.id)).toBe("composer-input");
      expect(await seriousAxe(d.page)).toEqual([]);

      await d.page.keyboard.press("ArrowDown");
      await d.page.keyboard.press("Enter");
      await expect.poll(() => input.inputValue()).toBe("@Office Scheduler ");
      expect(await input.getAttribute("aria-expanded")).toBeNull();
      await d.page.keyboard.type("can you schedule a 30-min call with Maria next week?");
      await d.page.keyboard.press("Enter");

      // Sent with the agent's id as a mention; highlighted in the bubble; the agent proposes a job.
      await expect
        .poll(
          async () =>
            (await items(c)).find((i) => i.message.body_text?.startsWith("@Office Scheduler can you"))?.message
              .mentions,
        )
        .toEqual([{ entity_id: AGENT }]);
      await expect.poll(() => textOf(d.page.locator(".msg-out .mention"))).toBe("@Office Scheduler");
      await d.page.locator('article[data-card-type="job.formalize"]').waitFor({ timeout: 15_000 });

      // Ana talks to Dan: the agent stays silent.
      const before = (await items(c)).filter((i) => i.sender.entity_id === AGENT).length;
      expect(
        (
          await postJson(`${server.url}/v1/conversations/${c}/messages`, ana(), {
            kind: "text",
            body_text: "Dan, are we still on for lunch?",
          })
        ).status,
      ).toBe(202);
      await d.page.locator(".msg-in .text", { hasText: "Dan, are we still on for lunch?" }).waitFor();
      await server.server.office.idle();
      expect((await items(c)).filter((i) => i.sender.entity_id === AGENT).length).toBe(before);

      // Escape closes the list and keeps the text; the # job picker is the same combobox.
      await input.fill("");
      await d.page.keyboard.type("see @an");
      await list.waitFor();
      await d.page.keyboard.press("Escape");
      await expect.poll(() => list.count()).toBe(0);
      expect(await input.inputValue()).toBe("see @an");
      // Closed, it is the message text box again.
      expect(await d.page.getByRole("textbox", { name: "Message" }).count()).toBe(1);
      await input.fill("");
      await d.page.keyboard.type("#");
      const jobs = d.page.getByRole("listbox", { name: "Pick a job" });
      await jobs.waitFor();
      expect(await input.getAttribute("role")).toBe("combobox");
      expect(await jobs.getByRole("option").count()).toBeGreaterThan(0);
      expect(await seriousAxe(d.page)).toEqual([]);
      await d.page.keyboard.press("Tab");
      await expect.poll(() => input.inputValue()).toMatch(/^#\S/);
    } finally {
      await d.ctx.close();
    }
  });
});

describe("an agent mentioned where it is not a member", () => {
  test("the composer offers to add it: Escape keeps editing, Add adds it and sends, and it answers; Not now sends without it", async () => {
    const c = await group("Lunch plans", [ANA]);
    const d = await signedIn(browser, server.url, dan());
    try {
      await open(d.page, c);
      await box(d.page).focus();
      await d.page.keyboard.type("@Office can you schedule a 30-min call with Maria next week?");
      await d.page.keyboard.press("Enter");
      const offer = d.page.getByRole("group", { name: /Office Scheduler is not in this conversation\. Add it\?/ });
      await offer.waitFor();
      await expect.poll(() => d.page.evaluate(() => document.activeElement?.textContent)).toBe("Add");
      expect(await seriousAxe(d.page)).toEqual([]);
      await d.page.keyboard.press("Escape");
      await expect.poll(() => offer.count()).toBe(0);
      expect(await box(d.page).inputValue()).toBe("@Office can you schedule a 30-min call with Maria next week?");
      expect((await items(c)).some((i) => i.message.body_text?.includes("30-min call"))).toBe(false);

      await box(d.page).press("Enter");
      await offer.waitFor();
      await d.page.keyboard.press("Enter"); // Add
      await d.page.locator('article[data-card-type="job.formalize"]').waitFor({ timeout: 15_000 });
      const events = (
        await getJson(
          `${server.url}/v1/ledger/query?tenant_id=${server.demo.tenant_id}&conversation_id=${c}&limit=100`,
          dan(),
        )
      ).body.events as any[];
      const added = events.findIndex(
        (e) => e.event_type === "conversation.member_added" && e.payload.entity_id === AGENT,
      );
      const sent = events.findIndex(
        (e) => e.event_type === "message.sent" && e.payload.body_text?.includes("30-min call"),
      );
      expect(added).toBeGreaterThanOrEqual(0);
      expect(sent).toBeGreaterThan(added);
      expect(events[sent].payload.mentions).toEqual([{ entity_id: AGENT }]);
      expect(await box(d.page).inputValue()).toBe("");

      // Not now: the message goes to the people; the agent is not added and does not answer.
      const c2 = await group("Coffee", [ANA]);
      await open(d.page, c2);
      await box(d.page).focus();
      await d.page.keyboard.type("@Office Scheduler might help later");
      await d.page.keyboard.press("Enter");
      await offer.waitFor();
      await offer.getByRole("button", { name: "Not now" }).click();
      await expect
        .poll(
          async () =>
            (await items(c2)).find((i) => i.message.body_text === "@Office Scheduler might help later")?.message
              .mentions,
        )
        .toEqual([{ entity_id: AGENT }]);
      await server.server.office.idle();
      expect(
        (await getJson(`${server.url}/v1/conversations/${c2}`, dan())).body.participants.map((p: any) => p.entity_id),
      ).not.toContain(AGENT);
      expect((await items(c2)).filter((i) => i.sender.entity_id === AGENT)).toEqual([]);
    } finally {
      await d.ctx.close();
    }
  });
});

describe("membership live in two browsers", () => {
  test("Dan adds Ana, renames the group, removes her: she sees each at once, then nothing more of it", async () => {
    const c = await group("Planning", [AGENT]);
    const d = await signedIn(browser, server.url, dan());
    const a = await signedIn(browser, server.url, ana());
    const anaStream = openStream(server.url, { token: ana() });
    try {
      await anaStream.waitFor((f) => f.event === "hello");
      expect(await a.page.locator(`[data-conversation-id="${c}"]`).count()).toBe(0);
      await open(d.page, c);
      await d.page.getByRole("button", { name: /^Members/ }).click();
      await d.page.getByLabel("Add someone").selectOption(ANA);
      await d.page.getByRole("button", { name: "Add", exact: true }).click();

      // Ana: the group arrives in her list; she opens it.
      await a.page.locator(`[data-conversation-id="${c}"]`).waitFor();
      await open(a.page, c);
      await d.page.getByLabel("Group name").fill("Planning Q3");
      await d.page.getByRole("button", { name: "Rename" }).click();
      await expect.poll(() => textOf(a.page.locator(".chat-head h1"))).toContain("Planning Q3");
      await expect.poll(() => textOf(a.page.locator(`[data-conversation-id="${c}"]`))).toContain("Planning Q3");

      await d.page.getByRole("button", { name: "Remove Ana" }).click();
      // She is told at once: the conversation leaves her list and her open chat closes.
      await anaStream.waitFor(
        (f) => f.event === "conversation.removed" && f.data.conversation_id === c,
        8000,
        "conversation.removed",
      );
      await expect.poll(() => a.page.locator(`[data-conversation-id="${c}"]`).count()).toBe(0);
      await expect.poll(() => a.page.url()).not.toContain(`/c/${c}`);

      // A new message there never reaches her stream or her page.
      expect(
        (
          await postJson(`${server.url}/v1/conversations/${c}/messages`, dan(), {
            kind: "text",
            body_text: "Budget is settled",
          })
        ).status,
      ).toBe(202);
      await d.page.locator(".msg-out .text", { hasText: "Budget is settled" }).waitFor();
      await server.server.office.idle();
      expect(anaStream.frames.some((f) => JSON.stringify(f.data).includes("Budget is settled"))).toBe(false);
      expect(await a.page.getByText("Budget is settled").count()).toBe(0);
      expect((await getJson(`${server.url}/v1/conversations/${c}`, ana())).status).toBe(404);
    } finally {
      anaStream.es.close();
      await d.ctx.close();
      await a.ctx.close();
    }
  });
});
