import type { Browser, BrowserContext, CDPSession, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestServer, type TestServer, demoPerson } from "../support/server.js";
import { launchBrowser, PHONE, signedIn, seriousAxe } from "./harness.js";

/**
 * Passkeys in the browser, with Chromium's virtual authenticator (CDP WebAuthn domain: ctap2,
 * internal, resident keys, user verified): Dan adds a passkey in his profile, signs out, signs
 * back in with it and is Dan again; the same passkey on a second device signs in there until
 * Dan removes it, then it is refused and signs nobody in.
 */
let server: TestServer;
let browser: Browser;
/** WebAuthn needs a domain for its relying party: the page and the public URL are on localhost. */
let base = "";
const dan = () => demoPerson(server, "Dan");

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  base = server.url.replace("127.0.0.1", "localhost");
  server.server.gateway.setPublicUrl(base);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const whoAmI = (page: Page) =>
  page.evaluate(() =>
    fetch("/v1/session").then(async (r) => (r.ok ? ((await r.json()) as { entity_id: string }).entity_id : r.status)),
  );

async function authenticator(ctx: BrowserContext, page: Page): Promise<{ cdp: CDPSession; id: string }> {
  const cdp = await ctx.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, id: authenticatorId };
}

async function signOut(page: Page) {
  await page.getByRole("button", { name: "Your profile" }).click();
  await page.locator(".modal").getByRole("button", { name: "Sign out" }).click();
  await page.getByLabel("Sign-in token or link").waitFor();
}

describe("passkeys", () => {
  test("Dan adds a passkey, signs out, signs back in with it as Dan; removed, it signs nobody in", async () => {
    const { ctx: laptop, page } = await signedIn(browser, base, dan().token);
    const phone = await browser.newContext({ viewport: PHONE });
    try {
      const key = await authenticator(laptop, page);
      await page.getByRole("button", { name: "Your profile" }).click();
      const modal = page.locator(".modal");
      const list = modal.getByRole("list", { name: "Your passkeys" });
      await modal.getByText("No passkeys yet.").waitFor();
      await modal.getByRole("button", { name: "Add a passkey" }).click();
      await list.getByRole("listitem").first().waitFor();
      expect(await list.getByRole("listitem").count()).toBe(1);
      expect(await list.textContent()).toContain("not used yet");
      const { credentials } = await key.cdp.send("WebAuthn.getCredentials", { authenticatorId: key.id });
      expect(credentials).toHaveLength(1);
      expect(credentials[0]!.isResidentCredential).toBe(true);
      expect(credentials[0]!.rpId).toBe("localhost");
      expect(await seriousAxe(page, ".modal")).toEqual([]);
      await page.keyboard.press("Escape");
      await modal.waitFor({ state: "detached" });

      // Signed out, the sign-in page offers the passkey; it signs Dan back in.
      await signOut(page);
      expect(await whoAmI(page)).toBe(401);
      expect(await seriousAxe(page, ".auth")).toEqual([]);
      await page.getByRole("button", { name: "Sign in with a passkey" }).click();
      await page.locator(".sidebar").waitFor();
      expect(await whoAmI(page)).toBe(dan().entity_id);
      await page.getByRole("button", { name: "Your profile" }).click();
      await expect.poll(() => list.textContent()).toContain("last used");
      const thisSession = modal.getByRole("listitem").filter({ hasText: "This device" });
      expect(await thisSession.textContent()).toContain("passkey");

      // The same passkey on a second device (as a synced passkey would be) signs in there too.
      const p2 = await phone.newPage();
      p2.on("pageerror", (e) => console.error("pageerror:", e.message));
      const other = await authenticator(phone, p2);
      // Copied as it is now (its counter moved on with the laptop's sign-in: an older copy would be refused as a clone).
      const now = (await key.cdp.send("WebAuthn.getCredentials", { authenticatorId: key.id })).credentials[0]!;
      expect(now.signCount).toBeGreaterThan(0);
      await other.cdp.send("WebAuthn.addCredential", { authenticatorId: other.id, credential: now });
      await p2.goto(`${base}/signin`);
      await p2.getByRole("button", { name: "Sign in with a passkey" }).click();
      await p2.locator(".sidebar").waitFor();
      expect(await whoAmI(p2)).toBe(dan().entity_id);
      await signOut(p2);

      // Dan removes it on the laptop: the phone's sign-in with it is refused.
      await list.getByRole("button", { name: /^Remove the passkey from / }).click();
      await modal.getByText("No passkeys yet.").waitFor();
      await p2.getByRole("button", { name: "Sign in with a passkey" }).click();
      await expect.poll(() => p2.getByRole("alert").textContent()).toContain("not known here");
      expect(await whoAmI(p2)).toBe(401);
      expect(new URL(p2.url()).pathname).toBe("/signin");
    } finally {
      await Promise.all([laptop.close(), phone.close()]);
    }
  });

  test("on a bare IP address (where browsers refuse passkeys) the sign-in page does not offer them", async () => {
    const ctx = await browser.newContext();
    try {
      const page = await ctx.newPage();
      await page.goto(`${server.url}/signin`);
      await page.getByLabel("Sign-in token or link").waitFor();
      expect(await page.getByRole("button", { name: "Sign in with a passkey" }).count()).toBe(0);
      await page.goto(`${base}/signin`);
      await page.getByRole("button", { name: "Sign in with a passkey" }).waitFor();
    } finally {
      await ctx.close();
    }
  });
});
