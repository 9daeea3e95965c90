import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { click } from "../support/golden.js";
import { getJson, postJson, startTestServer, waitFor, type TestServer, demoPerson } from "../support/server.js";

/**
 * A click is checked before anything is recorded or shown: a person who may not approve gets
 * 403 UNAUTHORIZED_ACTION (the policy's own code) and the ledger does not move.
 */
let t: TestServer;
let dan: string;
let ana: string;
let conv: string;
beforeAll(async () => {
  t = await startTestServer();
  dan = demoPerson(t, "Dan").token;
  ana = demoPerson(t, "Ana").token;
  const made = await postJson(`${t.url}/v1/conversations`, dan, {
    title: "Front desk",
    participants: [
      { entity_id: "ent_human_dan" },
      { entity_id: "ent_human_ana" },
      { entity_id: "ent_agent_scheduler" },
    ],
  });
  expect(made.status).toBe(202);
  conv = made.body.conversation_id;
});
afterAll(() => t.close());

const head = async () =>
  (await getJson(`${t.url}/v1/ledger/query?tenant_id=tnt_acme_001&limit=1`, dan)).body.head ??
  (await getJson(`${t.url}/v1/ledger/checkpoint?tenant_id=tnt_acme_001`, dan)).body.tenant_seq;

describe("who may click Approve", () => {
  it("a member's Approve is refused with the policy's code before anything happens; the approver's goes through", async () => {
    await postJson(`${t.url}/v1/conversations/${conv}/messages`, ana, {
      kind: "text",
      body_text: "@Office Scheduler can you schedule a 30-min call with Maria next week?",
    });
    const card = await waitFor(
      async () =>
        (await getJson(`${t.url}/v1/conversations/${conv}/timeline`, ana)).body.items
          .map((i: any) => i.message.card)
          .find((c: any) => c?.card_type === "job.formalize"),
      5000,
      "formalize card",
    );
    const before = (await getJson(`${t.url}/v1/conversations/${conv}/timeline`, dan)).body.items.length;
    const seq = await head();

    const refused = await click(t.url, ana, card, "job.approve");
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("UNAUTHORIZED_ACTION");
    expect(refused.body.error.message).toMatch(/Only an approver or an admin of this workspace can approve/);
    // Nothing was written: no click record, no bubble, no refusal in the ledger.
    expect(await head()).toEqual(seq);
    expect((await getJson(`${t.url}/v1/conversations/${conv}/timeline`, dan)).body.items.length).toBe(before);

    // The same card, clicked by the approver.
    expect((await click(t.url, dan, card, "job.approve")).status).toBe(202);
    await waitFor(
      async () => (await getJson(`${t.url}/v1/jobs/${card.job_id}`, dan)).body.state !== "proposed",
      5000,
      "approved",
    );
  });

  it("affordances say the same: Ana's actions do not include approve or reject", async () => {
    const r = await getJson(`${t.url}/v1/office/affordances?tenant_id=tnt_acme_001&entity_id=ent_human_ana`, ana);
    expect(r.body.actions).not.toContain("job.approve");
    expect(r.body.actions).not.toContain("job.reject");
    expect(r.body.actions).toContain("job.request_changes");
  });
});
