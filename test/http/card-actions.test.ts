import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cardFrame, openStream, timelineOf } from "../support/golden.js";
import { getJson, postJson, startTestServer, type TestServer } from "../support/server.js";

/**
 * One truth per reader: what each person may press on a job is the same on the live stream, in
 * the timeline after a reload, in the Job Drawer and after a restart — and it depends on who is
 * reading (an approver's Approve is not a member's).
 */

const ANA = "ent_human_ana";
const DAN = "ent_human_dan";
const AGENT = "ent_agent_scheduler";
let first: TestServer;
let dan: string;
let ana: string;
let group = "";
let closed = false;

const types = (buttons: any[]) => buttons.map((b) => b.action.type);
const header = async (url: string, token: string, jobId: string) => {
  const tl = (await getJson(`${url}/v1/conversations/${group}/timeline`, token)).body;
  return tl.jobs.find((j: any) => j.job_id === jobId);
};
const drawer = async (url: string, token: string, jobId: string) => {
  const body = (await getJson(`${url}/v1/jobs/${jobId}`, token)).body;
  return body.job ?? body;
};
const pick = (h: any) => ({
  actions_card_id: h.actions_card_id,
  available_actions: h.available_actions,
  open: h.open,
  state: h.state,
});

beforeAll(async () => {
  first = await startTestServer({ keep: true });
  dan = first.demo.humans.find((h) => h.display_name === "Dan")!.token;
  ana = first.demo.humans.find((h) => h.display_name === "Ana")!.token;
  const c = await postJson(`${first.url}/v1/conversations`, dan, {
    title: "Desk",
    participants: [{ entity_id: DAN }, { entity_id: ANA }, { entity_id: AGENT }],
  });
  group = c.body.conversation_id;
}, 30_000);
afterAll(async () => {
  if (!closed) await first?.close();
});

describe("what each reader may press on a job", () => {
  it("is the same live, after a reload, in the drawer and after a restart, and differs by role", async () => {
    const forDan = openStream(first.url, { token: dan });
    const forAna = openStream(first.url, { token: ana });
    await postJson(`${first.url}/v1/conversations/${group}/messages`, dan, {
      kind: "text",
      body_text: "@Office Scheduler schedule a 30-min call with Maria tomorrow at 15:00",
    });
    const proposal = (await forDan.waitFor(cardFrame("job.formalize"), 10_000)).data.item.message.card;
    const update = (s: ReturnType<typeof openStream>, state: string) =>
      s.waitFor(
        (f) => f.event === "job.update" && f.data.job.job_id === proposal.job_id && f.data.job.state === state,
        10_000,
        `job.update ${state}`,
      );

    // Live: one frame per reader; the approver's has Approve and Reject, the member's has neither.
    const danLive = (await update(forDan, "proposed")).data.job;
    const anaLive = (await update(forAna, "proposed")).data.job;
    expect(danLive.actions_card_id).toBe(proposal.card_id);
    expect(anaLive.actions_card_id).toBe(proposal.card_id);
    expect(types(danLive.available_actions)).toEqual(
      expect.arrayContaining(["job.approve", "job.reject", "job.request_changes"]),
    );
    expect(types(anaLive.available_actions)).not.toContain("job.approve");
    expect(types(anaLive.available_actions)).not.toContain("job.reject");
    expect(types(anaLive.available_actions)).toContain("job.request_changes");
    expect(danLive.open).toBe(true);

    // A reload and the drawer say the same to each.
    expect(pick(await header(first.url, dan, proposal.job_id))).toEqual(pick(danLive));
    expect(pick(await header(first.url, ana, proposal.job_id))).toEqual(pick(anaLive));
    expect(pick(await drawer(first.url, ana, proposal.job_id))).toEqual(pick(anaLive));

    // Ana presses what she is not offered: refused, and nothing is recorded.
    const approve = proposal.buttons.find((b: any) => b.action.type === "job.approve");
    const body = (b: any, card = proposal) => ({
      conversation_id: group,
      card_id: card.card_id,
      button_id: b.button_id,
      action: b.action,
    });
    expect(
      (await postJson(`${first.url}/v1/jobs/${proposal.job_id}/actions`, ana, body(approve))).body.error.code,
    ).toBe("UNAUTHORIZED_ACTION");

    // Dan approves; the job waits for Maria's address on a Tracking card.
    expect((await postJson(`${first.url}/v1/jobs/${proposal.job_id}/actions`, dan, body(approve))).status).toBe(202);
    const waiting = (
      await forDan.waitFor(
        (f) => cardFrame("job.tracking")(f) && f.data.item.message.card.state === "waiting_input",
        10_000,
      )
    ).data.item.message.card;
    const danNow = pick(await header(first.url, dan, proposal.job_id));
    const anaNow = pick(await header(first.url, ana, proposal.job_id));
    // The waiting card speaks for the job now, to each reader the same way as before.
    expect(danNow.actions_card_id).toBe(waiting.card_id);
    expect(anaNow.actions_card_id).toBe(waiting.card_id);
    expect(types(anaNow.available_actions)).toEqual(types(waiting.buttons));
    expect(anaNow.available_actions).toEqual(danNow.available_actions);
    forDan.close();
    forAna.close();

    // A restart folds the same ledger into the same answers.
    await first.close();
    closed = true;
    const second = await startTestServer({ dataDir: first.dataDir });
    try {
      expect(pick(await header(second.url, dan, proposal.job_id))).toEqual(danNow);
      expect(pick(await header(second.url, ana, proposal.job_id))).toEqual(anaNow);
      expect(pick(await drawer(second.url, dan, proposal.job_id))).toEqual(danNow);
      expect(latest(await timelineOf(second.url, ana, group), proposal.job_id).card_id).toBe(waiting.card_id);
    } finally {
      await second.close();
    }
  }, 60_000);
});

const latest = (items: any[], jobId: string) =>
  items
    .map((i) => i.message.card)
    .filter((c) => c?.job_id === jobId)
    .at(-1);
