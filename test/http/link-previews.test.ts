import type { LookupAddress } from "node:dns";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAllowList } from "../../src/gateway/previews/address.js";
import { DEFAULT_FETCH_LIMITS, fetchPageFacts } from "../../src/gateway/previews/fetcher.js";
import { openStream } from "../support/golden.js";
import { getJson, postJson, startTestServer, waitFor, type TestServer } from "../support/server.js";

/**
 * Link previews against real pages on a loopback HTTP server: what the guarded fetcher reads and
 * what it refuses (private addresses behind redirects and names, huge, slow, non-HTML and broken
 * pages), then through LogLine itself: the preview arrives after the send, on the stream, in the
 * timeline and after a restart, and only its author takes it off.
 */
let pages: Server;
let base = "";
const held: ServerResponse[] = [];

/** An event as a person would append it straight to the ledger, stamped by the server's clock. */
function personEvent(
  clock: { iso(): string },
  tenantId: string,
  type: string,
  conversationId: string,
  actor: { entity_id: string; actor_type: "human" },
  payload: Record<string, unknown>,
) {
  const id = Math.random().toString(36).slice(2);
  return {
    event_id: `evt_p${id}`,
    event_type: type,
    ts: clock.iso(),
    tenant_id: tenantId,
    trace_id: `trc_p${id}`,
    conversation_id: conversationId,
    actor,
    payload,
  };
}
let hits = 0;

const OG_PAGE = `<!doctype html><html><head>
<meta charset="utf-8"><title>Ignored when og:title is there</title>
<meta property="og:title" content="Q3 plan &lt;b&gt;draft&lt;/b&gt; &amp; notes">
<meta property="og:description" content="What we  ship
 in the third quarter.">
<meta property="og:site_name" content="Acme Wiki">
<meta property="og:image" content="http://169.254.169.254/steal.png">
</head><body><p>body text is never read</p></body></html>`;

function page(res: ServerResponse, html: string, type = "text/html; charset=utf-8") {
  res.writeHead(200, { "content-type": type });
  res.end(html);
}

beforeAll(async () => {
  pages = createServer((req, res) => {
    hits++;
    const path = new URL(req.url ?? "/", "http://x").pathname;
    if (path.startsWith("/og")) return page(res, OG_PAGE);
    if (path === "/held") return void held.push(res);
    if (path === "/to-og") return void res.writeHead(302, { location: "/og" }).end();
    if (path === "/to-private") return void res.writeHead(302, { location: "http://10.0.0.7/admin" }).end();
    if (path === "/to-metadata")
      return void res.writeHead(301, { location: "http://169.254.169.254/latest/meta-data/" }).end();
    if (path === "/to-ipv6-loopback")
      return void res.writeHead(307, { location: `http://[::1]:${(pages.address() as AddressInfo).port}/og` }).end();
    if (path === "/loop") return void res.writeHead(302, { location: "/loop" }).end();
    if (path === "/pdf") return page(res, "%PDF-1.7 <title>not html</title>", "application/pdf");
    if (path === "/no-type") return void res.end("<title>no content type</title>");
    if (path === "/slow") {
      // Headers at once, then the head a byte at a time, never finishing.
      res.writeHead(200, { "content-type": "text/html" });
      res.write("<html><head>");
      const tick = setInterval(() => res.write(" "), 50);
      res.on("close", () => clearInterval(tick));
      return;
    }
    if (path === "/huge") {
      res.writeHead(200, { "content-type": "text/html" });
      res.write("<html><head><title>Huge page</title>");
      const filler = `<meta name="filler" content="${"x".repeat(1000)}">`;
      let sent = 0;
      const more = () => {
        while (sent < 3 * 1024 * 1024) {
          sent += filler.length;
          if (!res.write(filler)) return void res.once("drain", more);
        }
        res.end('<meta property="og:description" content="past the cap"></head></html>');
      };
      res.on("error", () => {});
      return more();
    }
    if (path === "/broken")
      return page(
        res,
        '<html><head><title>Broken <b>page</title><meta property="og:description" content="still read"<meta charset=utf-8><body><div><p>unclosed',
      );
    if (path === "/latin1") {
      res.writeHead(200, { "content-type": "text/html; charset=iso-8859-1" });
      return void res.end(Buffer.from("<title>Caf\xe9 menu</title>", "latin1"));
    }
    if (path === "/gzip") {
      res.writeHead(200, { "content-type": "text/html", "content-encoding": "gzip" });
      return void res.end("not really gzip");
    }
    if (path === "/empty") return page(res, "<html><head></head><body>nothing said</body></html>");
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => pages.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const r of held) r.destroy();
  await new Promise((r) => pages.close(r));
});

const loopback = parseAllowList(["127.0.0.1/32"]);
const fast = { ...DEFAULT_FETCH_LIMITS, timeoutMs: 1500 };
/** A resolver that answers from a table (as a DNS server an attacker runs would), never the network. */
const resolver =
  (table: Record<string, string[]>) =>
  (host: string, _o: unknown, cb: (e: NodeJS.ErrnoException | null, a: LookupAddress[]) => void) => {
    const list = table[host];
    if (!list) return cb(Object.assign(new Error("no such host"), { code: "ENOTFOUND" }), []);
    cb(
      null,
      list.map((address) => ({ address, family: address.includes(":") ? 6 : 4 })),
    );
  };

describe("the guarded fetcher", () => {
  it("reads a page's Open Graph title, description and site name as plain text, and no image", async () => {
    const r = await fetchPageFacts(`${base}/og`, loopback, fast);
    expect(r).toEqual({
      ok: true,
      url: `${base}/og`,
      facts: {
        title: "Q3 plan <b>draft</b> & notes",
        description: "What we ship in the third quarter.",
        site_name: "Acme Wiki",
      },
    });
  });

  it("refuses loopback unless the operator allows it, whatever the host looks like", async () => {
    const port = (pages.address() as AddressInfo).port;
    for (const url of [
      `${base}/og`,
      `http://2130706433:${port}/og`,
      `http://0177.0.0.1:${port}/og`,
      `http://[::ffff:127.0.0.1]:${port}/og`,
    ]) {
      const before = hits;
      expect(await fetchPageFacts(url, parseAllowList([]), fast), url).toEqual({ ok: false, refused: "address" });
      expect(hits, `${url} was never requested`).toBe(before);
    }
  });

  it("checks every redirect: a public-looking hop to a private address, the metadata address or IPv6 loopback is refused", async () => {
    expect(await fetchPageFacts(`${base}/to-og`, loopback, fast)).toMatchObject({ ok: true, url: `${base}/og` });
    for (const p of ["/to-private", "/to-metadata", "/to-ipv6-loopback"])
      expect(await fetchPageFacts(`${base}${p}`, loopback, fast), p).toEqual({ ok: false, refused: "address" });
    expect(await fetchPageFacts(`${base}/loop`, loopback, fast)).toEqual({ ok: false, refused: "redirects" });
  });

  it("connects to the address it checked: a name is resolved once, every answer checked, and that answer is used", async () => {
    const port = (pages.address() as AddressInfo).port;
    // A name no real DNS knows reaches the page only through the checked answer (the connection is pinned to it).
    const pinned = resolver({ "wiki.test": ["127.0.0.1"] });
    expect(await fetchPageFacts(`http://wiki.test:${port}/og`, loopback, fast, pinned as never)).toMatchObject({
      ok: true,
      facts: { site_name: "Acme Wiki" },
    });
    // One refused answer among allowed ones refuses the name; so does a name resolving to loopback without the allow-list.
    const before = hits;
    const mixed = resolver({ "mixed.test": ["127.0.0.1", "10.0.0.5"], "local.test": ["::1"] });
    expect(await fetchPageFacts(`http://mixed.test:${port}/og`, loopback, fast, mixed as never)).toEqual({
      ok: false,
      refused: "address",
    });
    expect(await fetchPageFacts(`http://local.test:${port}/og`, loopback, fast, mixed as never)).toEqual({
      ok: false,
      refused: "address",
    });
    expect(await fetchPageFacts(`http://nowhere.test:${port}/og`, loopback, fast, mixed as never)).toEqual({
      ok: false,
      refused: "dns",
    });
    expect(hits).toBe(before);
  });

  it("stops reading a huge page at the size cap (what came after is not read)", async () => {
    const r = await fetchPageFacts(`${base}/huge`, loopback, { ...fast, maxBytes: 64 * 1024 });
    expect(r).toEqual({ ok: true, url: `${base}/huge`, facts: { title: "Huge page" } });
  });

  it("gives up on a slow page at the time cap", async () => {
    const started = performance.now();
    const r = await fetchPageFacts(`${base}/slow`, loopback, { ...fast, timeoutMs: 400 });
    expect(r).toEqual({ ok: false, refused: "timeout" });
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it("reads only HTML: another type, no type, or a compressed body is refused", async () => {
    expect(await fetchPageFacts(`${base}/pdf`, loopback, fast)).toEqual({ ok: false, refused: "content_type" });
    expect(await fetchPageFacts(`${base}/no-type`, loopback, fast)).toEqual({ ok: false, refused: "content_type" });
    expect(await fetchPageFacts(`${base}/gzip`, loopback, fast)).toEqual({ ok: false, refused: "encoding" });
    expect(await fetchPageFacts(`${base}/nothing-here`, loopback, fast)).toEqual({ ok: false, refused: "status" });
    expect(await fetchPageFacts(`${base}/empty`, loopback, fast)).toEqual({ ok: false, refused: "empty" });
  });

  it("survives broken markup and honours the page's charset", async () => {
    expect(await fetchPageFacts(`${base}/broken`, loopback, fast)).toMatchObject({
      ok: true,
      facts: { title: "Broken <b>page", description: "still read" },
    });
    expect(await fetchPageFacts(`${base}/latin1`, loopback, fast)).toMatchObject({
      ok: true,
      facts: { title: "Café menu" },
    });
  });

  it("refuses other schemes and URLs with credentials", async () => {
    const port = (pages.address() as AddressInfo).port;
    expect(await fetchPageFacts("file:///etc/passwd", loopback, fast)).toEqual({ ok: false, refused: "scheme" });
    expect(await fetchPageFacts(`ftp://127.0.0.1:${port}/og`, loopback, fast)).toEqual({
      ok: false,
      refused: "scheme",
    });
    expect(await fetchPageFacts(`http://ann:secret@127.0.0.1:${port}/og`, loopback, fast)).toEqual({
      ok: false,
      refused: "credentials",
    });
  });
});

describe("link previews in LogLine", () => {
  const DM = "cnv_dan_ana";
  let t: TestServer;
  const settings = { enabled: true, allowCidrs: ["127.0.0.1/32"], limits: { timeoutMs: 3000 } };
  const token = (id: string) => t.demo.humans.find((h) => h.entity_id === id)!.token;
  const timeline = async (who: string) =>
    (await getJson(`${t.url}/v1/conversations/${DM}/timeline?limit=1000`, who)).body.items as any[];

  beforeAll(async () => {
    t = await startTestServer({ keep: true, linkPreviews: settings });
  });
  afterAll(async () => {
    await t.close();
    rmSync(t.dataDir, { recursive: true, force: true });
  });

  it("arrives after the send, live to the other member, the same in the timeline and after a restart", async () => {
    const dan = token("ent_human_dan");
    const ana = token("ent_human_ana");
    const stream = openStream(t.url, { token: ana });
    await stream.waitFor((f) => f.event === "hello");
    // The page answers only when released: the send does not wait for it.
    const text = `Plan: ${base}/held and ${base}/og?a=1 ${base}/pdf ${base}/og?a=2 ${base}/og?a=3`;
    const sent = await postJson(`${t.url}/v1/conversations/${DM}/messages`, dan, { kind: "text", body_text: text });
    expect(sent.status).toBe(202);
    const id = sent.body.message_id;
    await waitFor(() => held.length === 1, 3000, "the held page requested");
    held.shift()!.writeHead(200, { "content-type": "text/html" }).end("<title>Held page</title>");
    await t.server.gateway.previews.idle();
    const frame = await stream.waitFor(
      (f) =>
        f.event === "timeline.update" && f.data.item.message.message_id === id && f.data.item.previews?.length === 2,
    );
    stream.close();
    // The first three links of the message; the PDF gets none, and the fourth link is past the limit.
    expect(frame.data.item.previews).toEqual(
      expect.arrayContaining([
        { url: `${base}/held`, title: "Held page" },
        {
          url: `${base}/og?a=1`,
          title: "Q3 plan <b>draft</b> & notes",
          description: "What we ship in the third quarter.",
          site_name: "Acme Wiki",
        },
      ]),
    );
    const item = (await timeline(ana)).find((i) => i.message.message_id === id);
    expect(item).toEqual(frame.data.item);
    expect((await timeline(dan)).find((i) => i.message.message_id === id)).toEqual(item);
    // Written by the system, one event per preview.
    const q = await getJson(
      `${t.url}/v1/ledger/query?tenant_id=${t.demo.tenant_id}&conversation_id=${DM}&event_type=message.preview_added&limit=100`,
      dan,
    );
    const written = q.body.events.filter((e: any) => e.payload.message_id === id);
    expect(written).toHaveLength(2);
    for (const e of written) expect(e.actor).toEqual({ entity_id: "system_gateway", actor_type: "system" });

    const before = await timeline(ana);
    await t.close();
    t = await startTestServer({ keep: true, dataDir: t.dataDir, linkPreviews: settings });
    expect(await timeline(ana)).toEqual(before);
  });

  it("is taken off by its author only, for everyone, and stays off after a restart", async () => {
    const dan = token("ent_human_dan");
    const ana = token("ent_human_ana");
    const sent = await postJson(`${t.url}/v1/conversations/${DM}/messages`, dan, {
      kind: "text",
      body_text: `Notes: ${base}/og?b=1`,
    });
    const id = sent.body.message_id;
    await t.server.gateway.previews.idle();
    await waitFor(
      async () => (await timeline(ana)).find((i) => i.message.message_id === id)?.previews,
      3000,
      "preview",
    );
    const path = `${t.url}/v1/conversations/${DM}/messages/${id}/previews/remove`;
    const refused = await postJson(path, ana, { url: `${base}/og?b=1` });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("UNAUTHORIZED_ACTION");
    const unknown = await postJson(path, dan, { url: `${base}/other` });
    expect(unknown.status).toBe(404);
    expect((await timeline(ana)).find((i) => i.message.message_id === id).previews).toHaveLength(1);

    const stream = openStream(t.url, { token: ana });
    await stream.waitFor((f) => f.event === "hello");
    const ok = await postJson(path, dan, { url: `${base}/og?b=1` });
    expect(ok.status, JSON.stringify(ok.body)).toBe(202);
    const frame = await stream.waitFor((f) => f.event === "timeline.update" && f.data.item.message.message_id === id);
    stream.close();
    expect(frame.data.item.previews).toBeUndefined();
    expect((await timeline(ana)).find((i) => i.message.message_id === id).previews).toBeUndefined();

    // The ledger's policy refuses another's removal too, whatever the gateway says first.
    const ev = personEvent(
      t.clock,
      t.demo.tenant_id,
      "message.preview_removed",
      DM,
      { entity_id: "ent_human_ana", actor_type: "human" },
      { message_id: id, url: `${base}/og?b=1` },
    );
    await expect(t.server.ledger.append({ tenant_id: t.demo.tenant_id, events: [ev] })).rejects.toMatchObject({
      code: "UNAUTHORIZED_ACTION",
    });
    const before = await timeline(ana);
    await t.close();
    t = await startTestServer({ keep: true, dataDir: t.dataDir, linkPreviews: settings });
    expect(await timeline(ana)).toEqual(before);
  });

  it("follows an edit: a link it adds gets its preview, a link it takes out loses it, live, on reload and after a restart", async () => {
    const dan = token("ent_human_dan");
    const ana = token("ent_human_ana");
    const patch = async (id: string, body_text: string) => {
      const res = await fetch(`${t.url}/v1/conversations/${DM}/messages/${id}`, {
        method: "PATCH",
        headers: {
          authorization: `Bearer ${dan}`,
          "content-type": "application/json",
          "idempotency-key": `edit-${Math.random()}`,
        },
        body: JSON.stringify({ body_text }),
      });
      expect(res.status).toBe(202);
    };
    const itemOf = async (id: string) => (await timeline(ana)).find((i) => i.message.message_id === id);
    const sent = await postJson(`${t.url}/v1/conversations/${DM}/messages`, dan, {
      kind: "text",
      body_text: "Agenda to follow",
    });
    const id = sent.body.message_id;
    await t.server.gateway.previews.idle();
    expect((await itemOf(id)).previews).toBeUndefined();

    // The edit adds a link: its preview arrives after, on the stream to the other member.
    const stream = openStream(t.url, { token: ana });
    await stream.waitFor((f) => f.event === "hello");
    await patch(id, `Agenda: ${base}/og?e=1`);
    await t.server.gateway.previews.idle();
    const added = await stream.waitFor(
      (f) =>
        f.event === "timeline.update" && f.data.item.message.message_id === id && f.data.item.previews?.length === 1,
    );
    expect(added.data.item.previews[0]).toMatchObject({ url: `${base}/og?e=1`, title: "Q3 plan <b>draft</b> & notes" });
    expect(await itemOf(id)).toEqual(added.data.item);

    // Another edit swaps the link: the old preview goes with the edit itself, the new one follows.
    await patch(id, `Agenda moved: ${base}/og?e=2`);
    const dropped = await stream.waitFor(
      (f) =>
        f.event === "timeline.update" &&
        f.data.item.message.message_id === id &&
        f.data.item.message.body_text.startsWith("Agenda moved"),
    );
    expect(dropped.data.item.previews).toBeUndefined();
    await t.server.gateway.previews.idle();
    const swapped = await stream.waitFor(
      (f) =>
        f.event === "timeline.update" &&
        f.data.item.message.message_id === id &&
        f.data.item.message.body_text.startsWith("Agenda moved") &&
        f.data.item.previews?.length === 1,
    );
    expect(swapped.data.item.previews.map((x: { url: string }) => x.url)).toEqual([`${base}/og?e=2`]);
    // Taking every link out leaves no preview; putting the first back brings its preview again.
    await patch(id, "Agenda: ask me");
    await t.server.gateway.previews.idle();
    expect((await itemOf(id)).previews).toBeUndefined();
    await patch(id, `Agenda again: ${base}/og?e=1`);
    await t.server.gateway.previews.idle();
    await waitFor(async () => (await itemOf(id)).previews?.length === 1, 3000, "the preview back");
    expect((await itemOf(id)).previews.map((x: { url: string }) => x.url)).toEqual([`${base}/og?e=1`]);
    stream.close();

    const before = await timeline(ana);
    await t.close();
    t = await startTestServer({ keep: true, dataDir: t.dataDir, linkPreviews: settings });
    expect(await timeline(ana)).toEqual(before);
  });

  it("is a system act: a person cannot write a preview into the ledger", async () => {
    const dan = token("ent_human_dan");
    const sent = await postJson(`${t.url}/v1/conversations/${DM}/messages`, dan, {
      kind: "text",
      body_text: "no link",
    });
    const ev = personEvent(
      t.clock,
      t.demo.tenant_id,
      "message.preview_added",
      DM,
      { entity_id: "ent_human_dan", actor_type: "human" },
      { message_id: sent.body.message_id, url: "https://bank.example/", title: "Trust me" },
    );
    await expect(t.server.ledger.append({ tenant_id: t.demo.tenant_id, events: [ev] })).rejects.toMatchObject({
      code: "UNAUTHORIZED_ACTION",
    });
  });

  it("fetches nothing when previews are off (the default)", async () => {
    const off = await startTestServer();
    try {
      const dan = off.demo.humans.find((h) => h.entity_id === "ent_human_dan")!.token;
      const before = hits;
      const sent = await postJson(`${off.url}/v1/conversations/${DM}/messages`, dan, {
        kind: "text",
        body_text: `${base}/og?c=1`,
      });
      expect(sent.status).toBe(202);
      await off.server.gateway.previews.idle();
      await new Promise((r) => setTimeout(r, 200));
      expect(hits).toBe(before);
      const items = (await getJson(`${off.url}/v1/conversations/${DM}/timeline?limit=1000`, dan)).body.items as any[];
      expect(items.find((i) => i.message.message_id === sent.body.message_id).previews).toBeUndefined();
    } finally {
      await off.close();
    }
  });
});

describe("a flood of links", () => {
  it("never stalls a send: fetches run one at a time here, at most two wait, the rest get none; a URL is fetched once", async () => {
    const s = await startTestServer({
      linkPreviews: { enabled: true, allowCidrs: ["127.0.0.1/32"], concurrency: 1, maxQueued: 2 },
    });
    try {
      const dan = s.demo.humans.find((h) => h.entity_id === "ent_human_dan")!.token;
      const send = (body_text: string) =>
        postJson(`${s.url}/v1/conversations/cnv_dan_ana/messages`, dan, { kind: "text", body_text });
      held.length = 0;
      // Five messages, each with a held link: the first is being fetched, two wait, two are dropped.
      for (let i = 0; i < 5; i++) {
        const r = await send(`flood ${i}: ${base}/held?f=${i}`);
        expect(r.status).toBe(202);
      }
      // Each page is asked for only when the one before has answered: never two at once.
      for (let i = 0; i < 3; i++) {
        await waitFor(() => held.length === 1, 3000, `held page ${i} requested`);
        await new Promise((r) => setTimeout(r, 100));
        expect(held).toHaveLength(1);
        held.shift()!.writeHead(200, { "content-type": "text/html" }).end("<title>Held page</title>");
      }
      await s.server.gateway.previews.idle();
      expect(held).toHaveLength(0);
      const items = (await getJson(`${s.url}/v1/conversations/cnv_dan_ana/timeline?limit=1000`, dan)).body
        .items as any[];
      const withPreview = items.filter((i) => i.message.body_text?.startsWith("flood ") && i.previews);
      expect(withPreview.map((i) => i.message.body_text.slice(0, 7))).toEqual(["flood 0", "flood 1", "flood 2"]);

      // The same URL twice: one request, two previews.
      const before = hits;
      const a = await send(`${base}/og?same=1`);
      const b = await send(`again ${base}/og?same=1`);
      await s.server.gateway.previews.idle();
      await waitFor(
        async () =>
          (
            (await getJson(`${s.url}/v1/conversations/cnv_dan_ana/timeline?limit=1000`, dan)).body.items as any[]
          ).filter(
            (i) =>
              (i.message.message_id === a.body.message_id || i.message.message_id === b.body.message_id) && i.previews,
          ).length === 2,
        3000,
        "both previews",
      );
      expect(hits - before).toBe(1);
    } finally {
      await s.close();
    }
  });
});
