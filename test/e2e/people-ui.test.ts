import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { png } from "../support/pictures.js";
import { getJson, postJson, startTestServer, type TestServer, demoPerson } from "../support/server.js";
import { askForJob, card, launchBrowser, send, signedIn, textOf, seriousAxe } from "./harness.js";

/**
 * People in two browsers: Ana changes her name, time zone and picture and Dan sees each live;
 * on a job card Dan hands the job to Ana, who sees it come to her, and Why? shows the job's
 * causal chain with links into the Job Drawer. Axe finds nothing critical or serious.
 */
let server: TestServer;
let browser: Browser;
const DM = "cnv_dan_ana";
const dan = () => demoPerson(server, "Dan");
const ana = () => demoPerson(server, "Ana");

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const openConversation = async (page: Page, id: string) => {
  await page.locator(`[data-conversation-id="${id}"]`).click();
  await expect.poll(() => page.url()).toContain(`/c/${id}`);
};

describe("profiles live between two people", () => {
  test("Ana's new name, time zone and picture reach Dan's screen without a reload; removing the picture brings her initials back", async () => {
    const group = await postJson(`${server.url}/v1/conversations`, dan().token, {
      title: "Lunch crew",
      participants: [{ entity_id: ana().entity_id }],
    });
    const gid = group.body.conversation_id as string;
    const d = await signedIn(browser, server.url, dan().token);
    const a = await signedIn(browser, server.url, ana().token);
    try {
      await openConversation(d.page, DM);
      const header = d.page.locator(".chat-head");
      await expect.poll(() => header.locator('[data-avatar="initials"]').count()).toBe(1);

      await a.page.getByRole("button", { name: "Your profile" }).click();
      const dialog = a.page.getByRole("dialog", { name: "Your profile" });
      await dialog.getByLabel("Display name").fill("Ana Lima");
      await dialog.getByLabel("Time zone").fill("America/New_York");
      await dialog.getByRole("button", { name: "Save profile" }).click();
      await expect
        .poll(
          async () =>
            (await getJson(`${server.url}/v1/entities`, dan().token)).body.items.find(
              (e: any) => e.entity_id === ana().entity_id,
            )?.time_zone,
        )
        .toBe("America/New_York");

      // A file that is not a picture is refused with the server's words, in place.
      await dialog
        .getByLabel("Choose a picture")
        .setInputFiles({ name: "notes.png", mimeType: "image/png", buffer: Buffer.from("<html>not a picture</html>") });
      await expect.poll(() => textOf(dialog.getByRole("alert"))).toMatch(/not a PNG, JPEG, GIF or WebP/);
      await dialog
        .getByLabel("Choose a picture")
        .setInputFiles({ name: "ana.png", mimeType: "image/png", buffer: Buffer.from(png(64, 64)) });
      await expect.poll(() => dialog.getByRole("button", { name: "Remove picture" }).count()).toBe(1);
      expect(await seriousAxe(a.page, "dialog")).toEqual([]);

      // Dan's header and conversation row show her picture, served by this server.
      const picture = header.locator('[data-avatar="picture"] img');
      await expect.poll(() => picture.count()).toBe(1);
      expect(await picture.getAttribute("src")).toMatch(/^\/v1\/avatars\/av_/);
      await expect.poll(() => picture.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(64);
      await expect.poll(() => d.page.locator(`[data-conversation-id="${DM}"] [data-avatar="picture"]`).count()).toBe(1);
      // Their direct chat is named after her: the new name in his list, without a reload.
      await expect.poll(() => textOf(d.page.locator(`[data-conversation-id="${DM}"] .conv-title`))).toBe("Ana Lima");

      // In the group's member list: her new name, with her picture.
      await openConversation(d.page, gid);
      await d.page.getByRole("button", { name: /^Members/ }).click();
      const row = d.page.locator(".member-row", { hasText: "Ana Lima" });
      await expect.poll(() => row.locator('[data-avatar="picture"]').count()).toBe(1);

      await dialog.getByRole("button", { name: "Remove picture" }).click();
      await expect.poll(() => row.locator('[data-avatar="initials"]').count()).toBe(1);
      await expect.poll(() => d.page.locator(`[data-conversation-id="${DM}"] [data-avatar="picture"]`).count()).toBe(0);
    } finally {
      await d.ctx.close();
      await a.ctx.close();
      // Ana takes her name back, so the next test (same server) finds her as "Ana".
      const res = await fetch(`${server.url}/v1/me/profile`, {
        method: "PUT",
        headers: {
          authorization: `Bearer ${ana().token}`,
          "content-type": "application/json",
          "idempotency-key": `k-restore-${Date.now()}`,
        },
        body: JSON.stringify({ display_name: "Ana" }),
      });
      expect(res.status).toBe(200);
    }
  });
});

describe("Hand over and Why? on a job card", () => {
  test("Dan hands the job to Ana from the card; Ana sees it come to her; Why? shows the chain and opens the Job Drawer", async () => {
    const group = await postJson(`${server.url}/v1/conversations`, dan().token, {
      title: "Maria call",
      participants: [{ entity_id: ana().entity_id }, { entity_id: "ent_agent_scheduler" }],
    });
    const gid = group.body.conversation_id as string;
    const d = await signedIn(browser, server.url, dan().token);
    const a = await signedIn(browser, server.url, ana().token);
    try {
      await openConversation(d.page, gid);
      await openConversation(a.page, gid);
      await askForJob(d.page, "@Office Scheduler can you schedule a 30-min call with Maria next week?");
      const proposal = card(d.page, "formalize");
      const jobId = (await proposal.getAttribute("data-job-id"))!;

      // Why?: the causal chain from the ledger, each line a link into the Job Drawer.
      await proposal.getByRole("button", { name: "Why?" }).click();
      const why = d.page.getByRole("dialog", { name: /^Why:/ });
      const lines = why.getByRole("list").getByRole("link");
      await expect.poll(() => lines.count()).toBeGreaterThan(0);
      expect(await lines.first().getAttribute("href")).toContain(`/jobs/${jobId}`);
      expect(await textOf(lines.first())).toMatch(/schedule a 30-min call with Maria/i);
      expect(await seriousAxe(d.page, "dialog")).toEqual([]);
      await lines.first().click();
      await expect.poll(() => d.page.url()).toContain(`/jobs/${jobId}`);
      await openConversation(d.page, gid);

      // Hand over: the picker offers the people of this conversation; by keyboard.
      await card(d.page, "formalize").getByRole("button", { name: "Hand over" }).click();
      const pick = d.page.getByRole("dialog", { name: /^Hand over/ });
      const select = pick.getByLabel("Hand over to");
      const offered = await select.locator("option").evaluateAll((os) => os.map((o) => o.textContent));
      expect(offered).toContain("Ana");
      expect(offered).not.toContain("Office Scheduler");
      await select.selectOption({ label: "Ana" });
      await pick.getByLabel("Note (optional)").fill("you know Maria");
      await pick.getByLabel("Note (optional)").press("Enter");
      await pick.waitFor({ state: "detached" });

      // Ana sees it handed to her, live, and the job waits on her.
      const line = a.page.locator(".timeline", { hasText: "handed" });
      await expect
        .poll(() => textOf(line.locator(".item", { hasText: "you know Maria" }).last()))
        .toMatch(/Dan handed .* over to Ana/);
      // The card that replaced the proposal names her and offers only Ask in chat, on both screens.
      for (const page of [a.page, d.page]) {
        const held = page.locator(`.card[data-job-id="${jobId}"]`).last();
        await expect.poll(() => textOf(held)).toMatch(/Ana holds this job now/);
        expect(await held.locator(".card-buttons button").allTextContents()).toEqual(["Ask in chat"]);
      }
      const job = (await getJson(`${server.url}/v1/jobs/${jobId}`, ana().token)).body;
      expect(job.owner_entity_id ?? job.owner?.entity_id).toBe(ana().entity_id);
      expect((job.waiting_on ?? []).map((w: any) => w.entity_id)).toContain(ana().entity_id);
    } finally {
      await d.ctx.close();
      await a.ctx.close();
    }
  });
});

describe("a coworker's profile card", () => {
  test("her name on a message opens her card: role, status, the time where she is; Message opens their direct chat; the agent's card too", async () => {
    const put = (body: unknown) =>
      fetch(`${server.url}/v1/me/profile`, {
        method: "PUT",
        headers: {
          authorization: `Bearer ${ana().token}`,
          "content-type": "application/json",
          "idempotency-key": `k-card-${Math.random()}`,
        },
        body: JSON.stringify(body),
      });
    expect((await put({ time_zone: "Asia/Tokyo", status: { text: "On the road" } })).status).toBe(200);
    const group = await postJson(`${server.url}/v1/conversations`, dan().token, {
      title: "Site visits",
      participants: [{ entity_id: ana().entity_id }, { entity_id: "ent_agent_scheduler" }],
    });
    const gid = group.body.conversation_id as string;
    expect(
      (
        await postJson(`${server.url}/v1/conversations/${gid}/messages`, ana().token, {
          kind: "text",
          body_text: "Leaving now",
        })
      ).status,
    ).toBe(202);
    const d = await signedIn(browser, server.url, dan().token);
    try {
      await openConversation(d.page, gid);
      // The group's row is the group's: no member's role badge or presence (the agent's own chat keeps them).
      const row = (id: string) => d.page.locator(`.conv-row[data-conversation-id="${id}"]`);
      expect(await row(gid).locator(".role-badge, .conv-presence").count()).toBe(0);
      expect(await textOf(row(server.demo.conversation_id).locator(".role-badge"))).toBe("Scheduler");
      const name = d.page
        .locator(".timeline .item", { hasText: "Leaving now" })
        .getByRole("button", { name: "Ana", exact: true });
      await name.focus();
      await d.page.keyboard.press("Enter");
      const cardDialog = d.page.getByRole("dialog", { name: "Ana" });
      await cardDialog.waitFor();
      expect(await textOf(cardDialog.locator(".person-status"))).toBe("On the road");
      // The time in Tokyo now, as the page formats it: computed in the page, from the zone she set.
      const tokyo = () =>
        d.page.evaluate(() =>
          new Intl.DateTimeFormat("en", { hour: "2-digit", minute: "2-digit", timeZone: "Asia/Tokyo" }).format(
            new Date(),
          ),
        );
      const before = await tokyo();
      const shown = await textOf(cardDialog.locator(".profile-card-time"));
      // The minute may turn between the two readings.
      expect([`${before} where they are (Asia/Tokyo)`, `${await tokyo()} where they are (Asia/Tokyo)`]).toContain(
        shown,
      );
      expect(await seriousAxe(d.page, "dialog")).toEqual([]);
      await cardDialog.getByRole("button", { name: "Message Ana" }).click();
      await expect.poll(() => d.page.url()).toBe(`${server.url}/c/${DM}`);
      expect(await cardDialog.count()).toBe(0);

      // The agent's card names its role; its Message is the chat Dan already has with it.
      await openConversation(d.page, server.demo.conversation_id);
      await send(d.page, "hello");
      const agentName = d.page.locator(".timeline .msg-in").last().getByRole("button", { name: "Office Scheduler" });
      await agentName.waitFor({ timeout: 15_000 });
      await agentName.click();
      const agentCard = d.page.getByRole("dialog", { name: "Office Scheduler" });
      await expect.poll(() => textOf(agentCard.locator(".role-badge"))).toBe("Scheduler");
      expect(await agentCard.locator(".profile-card-time").count()).toBe(0);
      await agentCard.getByRole("button", { name: "Message Office Scheduler" }).click();
      await expect.poll(() => d.page.url()).toBe(`${server.url}/c/${server.demo.conversation_id}`);
    } finally {
      await d.ctx.close();
      expect((await put({ status: null, time_zone: "Europe/Lisbon" })).status).toBe(200);
    }
  });
});
