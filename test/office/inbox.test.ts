import { afterEach, describe, expect, it } from "vitest";
import { createRulesPlanner, type Planner } from "../../src/office/index.js";
import { cardFrame, click, openStream } from "../support/golden.js";
import { postJson, startTestServer, waitFor, type TestServer } from "../support/server.js";

const TENANT = "tnt_acme_001";
const CONV = "cnv_9f2a";
const open: TestServer[] = [];
afterEach(async () => {
  while (open.length) await open.pop()!.close();
});

async function start(opts: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  const s = await startTestServer({ keep: true, ...opts });
  open.push(s);
  return s;
}

async function stop(s: TestServer): Promise<void> {
  open.splice(open.indexOf(s), 1);
  await s.close();
}

const events = (s: TestServer) => s.server.ledger.query({ tenant_id: TENANT, limit: 1000 }).events;
const answersTo = (s: TestServer, eventId: string) => events(s).filter((e) => e.causation_id === eventId);
const inboxRows = (s: TestServer) =>
  s.server.db.prepare("SELECT * FROM office_inbox").all() as Array<{ event_id: string; kind: string; request: string }>;

describe("Office's durable inbox", () => {
  it("a message accepted while Office is not running is answered once at the next start, and never again", async () => {
    const first = await start();
    const dan = first.demo.humans[0]!.token;
    // The window between the 202 and Office's answer, held open: Office takes up nothing.
    await first.server.office.drain(1000);
    const res = await postJson(`${first.url}/v1/conversations/${CONV}/messages`, dan, {
      kind: "text",
      body_text: "Thanks! Reach me on +351 912 345 678 or dan.rivera@example.org",
    });
    expect(res.status).toBe(202);
    const messageEvent = res.body.created_event_ids[0] as string;
    await new Promise((r) => setTimeout(r, 100));
    expect(answersTo(first, messageEvent)).toEqual([]);
    const rows = inboxRows(first);
    expect(rows.map((r) => [r.kind, r.event_id])).toEqual([["message", messageEvent]]);
    // The person's words wait sealed: neither the address nor the number is readable on disk.
    expect(rows[0]!.request).not.toContain("dan.rivera");
    expect(rows[0]!.request).not.toContain("912 345 678");
    await stop(first);

    const second = await start({ dataDir: first.dataDir });
    await second.server.office.idle();
    const answers = answersTo(second, messageEvent);
    expect(answers).toHaveLength(1);
    expect((answers[0] as { actor: { actor_type: string } }).actor.actor_type).toBe("agent");
    expect(inboxRows(second)).toEqual([]);
    await stop(second);

    const third = await start({ dataDir: first.dataDir });
    await third.server.office.idle();
    expect(answersTo(third, messageEvent)).toHaveLength(1);
  });

  it("two Approve clicks accepted before a stop: the job is approved once and the second click is refused without a trace", async () => {
    const first = await start();
    const dan = first.demo.humans[0]!.token;
    const s = openStream(first.url, { token: dan });
    await postJson(`${first.url}/v1/conversations/${CONV}/messages`, dan, {
      kind: "text",
      body_text: "Can you schedule a 30-min call with Maria next week?",
    });
    const formalize = (await s.waitFor(cardFrame("job.formalize"))).data.item.message.card;
    s.close();
    await first.server.office.idle();
    await first.server.office.drain(1000);
    const a = await click(first.url, dan, formalize, "job.approve", "approve-1");
    const b = await click(first.url, dan, formalize, "job.approve", "approve-2");
    expect([a.status, b.status]).toEqual([202, 202]);
    const bubbles = [a.body.created_event_ids[0], b.body.created_event_ids[0]] as string[];
    expect(inboxRows(first).map((r) => r.event_id)).toEqual(bubbles);
    await stop(first);

    const second = await start({ dataDir: first.dataDir });
    await second.server.office.idle();
    const approvals = events(second).filter((e) => e.event_type === "job.approved" && e.job_id === formalize.job_id);
    expect(approvals).toHaveLength(1);
    expect(answersTo(second, bubbles[0]!).length).toBeGreaterThan(0);
    expect(answersTo(second, bubbles[1]!)).toEqual([]);
    expect(inboxRows(second)).toEqual([]);
  });

  it("shutdown drains what Office is answering; what outlives the deadline is answered at the next start", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let calls = 0;
    const rules = createRulesPlanner();
    const slow: Planner = {
      name: "llm",
      async plan(frame) {
        calls++;
        await gate;
        return rules.plan(frame);
      },
    };
    const first = await start({ planner: slow });
    const dan = first.demo.humans[0]!.token;
    const res = await postJson(`${first.url}/v1/conversations/${CONV}/messages`, dan, {
      kind: "text",
      body_text: "hello there",
    });
    const messageEvent = res.body.created_event_ids[0] as string;
    await waitFor(() => calls === 1, 5000, "the planner to be asked");
    const drained = await first.server.office.drain(100);
    expect(drained).toEqual({ drained: false, left: 1 });
    expect(inboxRows(first).map((r) => r.event_id)).toEqual([messageEvent]);
    await stop(first);
    // The old planner call finishes after the stop; it writes nothing (the database is closed).
    release();

    const second = await start({ dataDir: first.dataDir });
    await second.server.office.idle();
    expect(answersTo(second, messageEvent)).toHaveLength(1);
    expect(inboxRows(second)).toEqual([]);
  });

  it("work that finishes within the deadline is answered before the stop", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let calls = 0;
    const rules = createRulesPlanner();
    const slow: Planner = {
      name: "llm",
      async plan(frame) {
        calls++;
        await gate;
        return rules.plan(frame);
      },
    };
    const first = await start({ planner: slow });
    const dan = first.demo.humans[0]!.token;
    const res = await postJson(`${first.url}/v1/conversations/${CONV}/messages`, dan, {
      kind: "text",
      body_text: "hello there",
    });
    const messageEvent = res.body.created_event_ids[0] as string;
    await waitFor(() => calls === 1, 5000, "the planner to be asked");
    const draining = first.server.office.drain(5000);
    setTimeout(release, 50);
    expect(await draining).toEqual({ drained: true, left: 0 });
    expect(answersTo(first, messageEvent)).toHaveLength(1);
    expect(inboxRows(first)).toEqual([]);
  });
});
