import { rmSync } from "node:fs";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { databasePath } from "../../src/ops/data-dir.js";
import { appendNumbered, textEvent } from "../support/messages.js";
import { getJson, postJson, startTestServer, type TestServer, demoPerson } from "../support/server.js";

/**
 * GET /v1/search over a real server. Demo: Dan (admin) in cnv_9f2a with the agent and in
 * cnv_dan_ana with Ana; Ana (member) only in cnv_dan_ana.
 */
let t: TestServer;
afterEach(() => t?.close());

const T = "tnt_acme_001";
const dan = () => demoPerson(t, "Dan").token;
const ana = () => demoPerson(t, "Ana").token;
const search = (token: string, qs: string) => getJson(`${t.url}/v1/search?${qs}`, token);
const say = (token: string, cid: string, text: string) =>
  postJson(`${t.url}/v1/conversations/${cid}/messages`, token, { kind: "text", body_text: text });
/** The index's own file, beside the database. */
const searchPath = (dataDir: string) => `${databasePath(dataDir)}-search`;
const hitText = (h: any) => h.snippet.text as string;
const marked = (h: any) => h.snippet.highlights.map(([a, b]: [number, number]) => hitText(h).slice(a, b));

describe("search: hits and the read rule", () => {
  it("finds words in my conversations only, newest first, with highlight offsets and prefix matching", async () => {
    t = await startTestServer();
    expect((await say(dan(), "cnv_dan_ana", "The quarterly budget review is on Friday")).status).toBe(202);
    expect((await say(dan(), "cnv_9f2a", "Private budget numbers for the board")).status).toBe(202);
    expect((await say(ana(), "cnv_dan_ana", "Lunch at the café?")).status).toBe(202);

    const forDan = (await search(dan(), "q=budget")).body;
    expect(forDan.items.map((h: any) => h.conversation_id)).toEqual(["cnv_9f2a", "cnv_dan_ana"]);
    const forAna = (await search(ana(), "q=budget")).body;
    expect(forAna.items).toHaveLength(1);
    const hit = forAna.items[0];
    expect(hit).toMatchObject({
      conversation_id: "cnv_dan_ana",
      conversation_title: expect.any(String),
      edited: false,
      author: { entity_id: "ent_human_dan", display_name: "Dan" },
    });
    expect(hit.cursor).toMatch(/^seq:\d+$/);
    expect(hitText(hit)).toBe("The quarterly budget review is on Friday");
    expect(marked(hit)).toEqual(["budget"]);

    // The last word is a prefix; earlier words are whole; case and accents do not matter.
    expect(marked((await search(ana(), "q=quart")).body.items[0])).toEqual(["quarterly"]);
    expect((await search(ana(), "q=quarterly%20revi")).body.items).toHaveLength(1);
    expect((await search(ana(), "q=quart%20budget")).body.items).toHaveLength(0);
    expect((await search(ana(), "q=CAFE")).body.items.map(hitText)).toEqual(["Lunch at the café?"]);

    // A conversation I am not in is not found, not empty.
    const other = await search(ana(), "q=budget&conversation_id=cnv_9f2a");
    expect(other.status).toBe(404);
    expect(other.body.error.code).toBe("NOT_FOUND");
    expect((await search(dan(), "q=budget&conversation_id=cnv_dan_ana")).body.items).toHaveLength(1);

    // Another workspace finds nothing of this one.
    const ws = await postJson(`${t.url}/v1/workspaces`, "", { name: "Other Co", owner: { display_name: "Zed" } });
    const zed = ws.body.token as string;
    expect((await search(zed, "q=budget")).body.items).toEqual([]);
  });

  it("someone removed from a conversation stops finding it (the read rule is checked per query)", async () => {
    t = await startTestServer();
    const group = await postJson(`${t.url}/v1/conversations`, dan(), {
      title: "Picnic",
      participants: [{ entity_id: demoPerson(t, "Ana").entity_id }],
    });
    expect(group.status).toBe(202);
    const cid = group.body.conversation_id as string;
    expect((await say(dan(), cid, "Bring the kiwifruit")).status).toBe(202);
    expect((await search(ana(), "q=kiwifruit")).body.items).toHaveLength(1);
    const removed = await fetch(`${t.url}/v1/conversations/${cid}/members/${demoPerson(t, "Ana").entity_id}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${dan()}`, "idempotency-key": "remove-ana" },
    });
    expect(removed.status).toBe(202);
    expect((await search(ana(), "q=kiwifruit")).body.items).toEqual([]);
    expect((await search(dan(), "q=kiwifruit")).body.items).toHaveLength(1);
  });
});

describe("search: kept in step with edits and deletions", () => {
  async function appendAs(token: string, event: Record<string, unknown>) {
    return postJson(`${t.url}/v1/ledger/append`, token, { tenant_id: T, events: [event] });
  }
  const envelope = (type: string, payload: Record<string, unknown>) => ({
    event_id: `evt_s${Math.random().toString(36).slice(2)}`,
    event_type: type,
    ts: new Date().toISOString(),
    tenant_id: T,
    trace_id: "trc_search",
    conversation_id: "cnv_dan_ana",
    actor: { entity_id: "ent_human_dan", actor_type: "human" },
    payload,
  });
  /** The FTS5 index's own pages hold the word (not only the content table), in the index's own file. */
  const indexHolds = (word: string) => {
    const db = new Database(searchPath(t.dataDir), { readonly: true });
    try {
      const blocks = db.prepare("SELECT block FROM search_fts_data").pluck().all() as Buffer[];
      return blocks.some((b) => b.includes(Buffer.from(word)));
    } finally {
      db.close();
    }
  };

  it("finds the edited text and not the old; a deleted message is found by nothing, and its words leave the index", async () => {
    t = await startTestServer();
    const ev = textEvent("cnv_dan_ana", "ent_human_dan", "Meet at the xylograph museum", "msg_edit_me");
    await t.server.ledger.append({ tenant_id: T, events: [ev] });
    expect((await search(ana(), "q=xylograph")).body.items).toHaveLength(1);

    const edited = await appendAs(
      dan(),
      envelope("message.edited", { message_id: "msg_edit_me", body_text: "Meet at the quokka zoo" }),
    );
    expect(edited.status).toBe(200);
    expect((await search(ana(), "q=xylograph")).body.items).toEqual([]);
    const now = (await search(ana(), "q=quokka")).body.items;
    expect(now).toHaveLength(1);
    expect(now[0]).toMatchObject({
      message_id: "msg_edit_me",
      edited: true,
      cursor: `seq:${(ev as any).seq ?? now[0].cursor.slice(4)}`,
    });
    expect(hitText(now[0])).toBe("Meet at the quokka zoo");
    expect(indexHolds("xylograph")).toBe(false);
    expect(indexHolds("quokka")).toBe(true);

    const deleted = await appendAs(dan(), envelope("message.deleted", { message_id: "msg_edit_me" }));
    expect(deleted.status).toBe(200);
    expect((await search(ana(), "q=quokka")).body.items).toEqual([]);
    expect((await search(ana(), "q=meet")).body.items).toEqual([]);
    expect(indexHolds("quokka")).toBe(false);
  });

  it("an edit in another conversation does not rewrite a message elsewhere", async () => {
    t = await startTestServer();
    await t.server.ledger.append({
      tenant_id: T,
      events: [textEvent("cnv_dan_ana", "ent_human_dan", "Original wombat text", "msg_stay")],
    });
    await appendAs(dan(), {
      ...envelope("message.edited", { message_id: "msg_stay", body_text: "Hijacked" }),
      conversation_id: "cnv_9f2a",
    });
    expect((await search(ana(), "q=wombat")).body.items).toHaveLength(1);
    expect((await search(dan(), "q=hijacked")).body.items).toEqual([]);
  });
});

describe("search: what people type is never search syntax", () => {
  it("operators, quotes and stars are words or nothing; never a 500", async () => {
    t = await startTestServer();
    await say(dan(), "cnv_dan_ana", 'He said "NEAR" and OR and AND not NOT budget-2026 (draft) col:umn ^caret');
    const tries = [
      '"',
      '""',
      "AND",
      "OR",
      "NOT",
      "NEAR(",
      "NEAR(a b, 2)",
      "*",
      "a*",
      "col:umn",
      "^caret",
      "(((",
      ")",
      "-budget",
      "'",
      "budget-2026",
      '"NEAR',
      "{a b}",
      "+",
      "🙂",
      "a AND",
      "OR NOT",
    ];
    for (const q of tries) {
      const r = await search(dan(), `q=${encodeURIComponent(q)}`);
      expect([200, 400], `q=${q} → ${r.status}`).toContain(r.status);
      if (r.status === 400) expect(r.body.error.code).toBe("VALIDATION_ERROR");
    }
    expect((await search(dan(), `q=${encodeURIComponent("NEAR(")}`)).body.items).toHaveLength(1);
    expect((await search(dan(), `q=${encodeURIComponent("col:umn")}`)).body.items).toHaveLength(1);
    expect((await search(dan(), `q=${encodeURIComponent("budget-2026")}`)).body.items).toHaveLength(1);
    expect((await search(dan(), `q=${encodeURIComponent('"')}`)).status).toBe(400);
  });

  it("refuses empty, too long and too many words, bad limits and cursors", async () => {
    t = await startTestServer();
    const bad = async (qs: string, field: string) => {
      const r = await search(dan(), qs);
      expect(r.status, qs).toBe(400);
      expect(r.body.error).toMatchObject({ code: "VALIDATION_ERROR", details: { field } });
    };
    await bad("q=", "q");
    await bad("q=%20%20", "q");
    await bad(`q=${"a".repeat(201)}`, "q");
    await bad(`q=${Array.from({ length: 17 }, (_, i) => `w${i}`).join("%20")}`, "q");
    await bad("q=x&limit=0", "limit");
    await bad("q=x&limit=51", "limit");
    await bad("q=x&limit=two", "limit");
    await bad("q=x&before=12", "before");
    expect((await search(dan(), `q=${"a".repeat(200)}`)).status).toBe(200);
    expect((await search(dan(), `q=${Array.from({ length: 16 }, (_, i) => `w${i}`).join("%20")}`)).status).toBe(200);
    expect((await search(dan(), "q=x&before=seq:999999")).status).toBe(404);
    const missing = await getJson(`${t.url}/v1/search`, dan());
    expect(missing.status).toBe(400);
  });
});

describe("search: paging and rebuilding", () => {
  it("pages newest first with `before` until next_cursor is null, each hit once", async () => {
    t = await startTestServer();
    await appendNumbered(t, "cnv_dan_ana", "ent_human_dan", 7, "pager");
    const seen: string[] = [];
    let before = "";
    for (let i = 0; i < 5; i++) {
      const page = (await search(ana(), `q=pager&limit=3${before ? `&before=${before}` : ""}`)).body;
      seen.push(...page.items.map(hitText));
      if (!page.next_cursor) break;
      before = page.next_cursor;
    }
    expect(seen).toEqual(["pager 7", "pager 6", "pager 5", "pager 4", "pager 3", "pager 2", "pager 1"]);
  });

  it("is rebuilt from the ledger on boot when its file is gone or from another history, and catches up when behind", async () => {
    t = await startTestServer({ keep: true });
    await say(dan(), "cnv_dan_ana", "Remember the platypus");
    const dataDir = t.dataDir;
    await t.close();
    // Closing waited for the index's thread: the message is in its file.
    const file = searchPath(dataDir);
    const count = (sql: string) => {
      const db = new Database(file, { readonly: true });
      try {
        return db.prepare(sql).pluck().get() as number;
      } finally {
        db.close();
      }
    };
    expect(count("SELECT count(*) FROM search_messages WHERE body LIKE '%platypus%'")).toBe(1);

    for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
    t = await startTestServer({ dataDir, keep: true });
    expect((await search(ana(), "q=platypus")).body.items.map(hitText)).toEqual(["Remember the platypus"]);

    // Behind: the index says it has read less than the ledger holds (a crash between commit and index write).
    await say(dan(), "cnv_dan_ana", "And the echidna");
    const events = (await t.server.ledger.query({ tenant_id: T, after_cursor: "seq:0", limit: 1000 })).events;
    const at = events.find(
      (e) => e.event_type === "message.sent" && (e.payload as any).body_text === "And the echidna",
    )!.seq;
    const prior = events.find((e) => e.seq === at - 1)!;
    await t.close();
    const db2 = new Database(file);
    db2.prepare("DELETE FROM search_messages WHERE seq >= ?").run(at);
    db2.prepare("UPDATE search_state SET indexed_seq = ?, indexed_event_id = ?").run(at - 1, prior.event_id);
    db2.close();
    t = await startTestServer({ dataDir, keep: true });
    expect((await search(ana(), "q=echidna")).body.items.map(hitText)).toEqual(["And the echidna"]);
    expect((await search(ana(), "q=platypus")).body.items).toHaveLength(1);

    // From another history (a restore into a data dir whose index file stayed): its position
    // names an event this ledger does not hold there, so it starts again from the ledger.
    await t.close();
    const db3 = new Database(file);
    db3
      .prepare(
        "INSERT INTO search_messages (tenant_id, conversation_id, message_id, event_id, seq, ts, author_entity_id, author_type, body) VALUES (?, 'cnv_dan_ana', 'msg_ghost', 'evt_ghost', 1, '2026-01-01T00:00:00Z', 'ent_human_dan', 'human', 'ghostly narwhal')",
      )
      .run(T);
    db3.prepare("UPDATE search_state SET indexed_event_id = 'evt_from_elsewhere'").run();
    db3.close();
    t = await startTestServer({ dataDir });
    expect((await search(ana(), "q=narwhal")).body.items).toEqual([]);
    expect((await search(ana(), "q=echidna")).body.items).toHaveLength(1);
  });
});

describe("search: its own thread", () => {
  it("answers right after a post; a stopped thread answers 503 meanwhile, starts again and catches up", async () => {
    t = await startTestServer();
    // No index tables are left in the shared database: the index lives in its own file.
    const tables = t.server.db
      .prepare("SELECT name FROM sqlite_master WHERE name LIKE 'gateway_search%'")
      .pluck()
      .all();
    expect(tables).toEqual([]);
    for (let i = 0; i < 5; i++) {
      expect((await say(dan(), "cnv_dan_ana", `Right away wallaby${i}`)).status).toBe(202);
      expect((await search(ana(), `q=wallaby${i}`)).body.items.map(hitText)).toEqual([`Right away wallaby${i}`]);
    }

    await t.server.gateway.stopSearchThread();
    // Committed while no thread runs: held, then read again from the ledger by the new thread.
    await say(dan(), "cnv_dan_ana", "While it was away: a bandicoot");
    const during = await search(ana(), "q=bandicoot");
    expect([200, 503]).toContain(during.status);
    if (during.status === 503) expect(during.body.error.code).toBe("SERVICE_UNAVAILABLE");
    await expect
      .poll(async () => (await search(ana(), "q=bandicoot")).body.items?.map(hitText), { timeout: 15_000 })
      .toEqual(["While it was away: a bandicoot"]);
    await say(dan(), "cnv_dan_ana", "And after it came back: a quoll");
    expect((await search(ana(), "q=quoll")).body.items.map(hitText)).toEqual(["And after it came back: a quoll"]);
    expect((await search(ana(), "q=wallaby3")).body.items).toHaveLength(1);
  });
});

describe("timeline: history pages back to the very first message", () => {
  it("1,500 messages page back with `before` in stable order to message 1", async () => {
    t = await startTestServer();
    await appendNumbered(t, "cnv_dan_ana", "ent_human_dan", 1500, "history");
    const texts: string[] = [];
    const cursors: number[] = [];
    let page = (await getJson(`${t.url}/v1/conversations/cnv_dan_ana/timeline?limit=200`, ana())).body;
    for (let i = 0; i < 20; i++) {
      texts.unshift(...page.items.map((it: any) => it.message.body_text));
      cursors.unshift(...page.items.map((it: any) => Number(it.cursor.slice(4))));
      if (!page.next_cursor) break;
      expect(page.items).toHaveLength(200);
      page = (
        await getJson(`${t.url}/v1/conversations/cnv_dan_ana/timeline?limit=200&before=${page.next_cursor}`, ana())
      ).body;
    }
    const numbered = texts.filter((x) => x?.startsWith("history "));
    expect(numbered).toHaveLength(1500);
    expect(numbered[0]).toBe("history 1");
    expect(numbered[1499]).toBe("history 1500");
    expect(numbered).toEqual(Array.from({ length: 1500 }, (_, i) => `history ${i + 1}`));
    expect(new Set(cursors).size).toBe(cursors.length);
    expect(cursors).toEqual([...cursors].sort((a, b) => a - b));
    const limit = await getJson(`${t.url}/v1/conversations/cnv_dan_ana/timeline?limit=1001`, ana());
    expect(limit.status).toBe(400);
  });
});
