import { describe, expect, it } from "vitest";
import { cardFrame, click, openStream } from "../support/golden.js";
import { postJson, startTestServer, getJson } from "../support/server.js";

async function snapshot(url: string, token: string) {
  const convs = (await getJson(`${url}/v1/conversations`, token)).body;
  const out: Record<string, unknown> = {
    convs,
    presence: (await getJson(`${url}/v1/presence`, token)).body,
    entities: (await getJson(`${url}/v1/entities`, token)).body,
    contacts: (await getJson(`${url}/v1/contacts`, token)).body,
  };
  for (const c of convs.items) {
    out[`conv:${c.conversation_id}`] = (await getJson(`${url}/v1/conversations/${c.conversation_id}`, token)).body;
    const tl = (await getJson(`${url}/v1/conversations/${c.conversation_id}/timeline?limit=1000`, token)).body;
    out[`tl:${c.conversation_id}`] = tl;
    for (const job of new Set(tl.items.map((i: any) => i.job_id).filter(Boolean)))
      out[`job:${job}`] = (await getJson(`${url}/v1/jobs/${job}`, token)).body;
  }
  return out;
}

describe("projections are rebuilt from the ledger", () => {
  it("answers every read identically after a restart", async () => {
    const first = await startTestServer({ keep: true });
    const dan = first.demo.humans[0]!.token;
    const ana = first.demo.humans[1]!.token;
    const s = openStream(first.url, { token: dan });
    await postJson(`${first.url}/v1/conversations/cnv_9f2a/messages`, dan, {
      kind: "text",
      body_text: "Can you schedule a 30-min call with Maria next week? Her number is +351 912 345 678",
    });
    const formalize = (await s.waitFor(cardFrame("job.formalize"))).data.item.message.card;
    await click(first.url, dan, formalize, "job.approve");
    const tracking = (await s.waitFor(cardFrame("job.tracking"))).data.item.message.card;
    await click(first.url, dan, tracking, "job.provide_input");
    await s.waitFor(cardFrame("job.finished"), 10_000);
    s.close();
    await postJson(`${first.url}/v1/conversations/cnv_dan_ana/messages`, ana, {
      kind: "text",
      body_text: "Hi Dan, mail me at ana@acme.com",
    });
    const head = (await getJson(`${first.url}/v1/conversations`, dan)).body.cursor;
    await postJson(`${first.url}/v1/conversations/cnv_dan_ana/read`, dan, { cursor: head });
    await postJson(`${first.url}/v1/contacts`, dan, {
      display_name: "Maria",
      email: "maria@acme.com",
      company: "Acme",
    });
    await new Promise((r) => setTimeout(r, 300));

    const before = { dan: await snapshot(first.url, dan), ana: await snapshot(first.url, ana) };
    // PII typed in chat is resolved for members, and never stored in the ledger
    const tl = before.ana["tl:cnv_dan_ana"] as any;
    expect(tl.items.at(-1).message.body_text).toBe("Hi Dan, mail me at ana@acme.com");
    const raw = first.server.ledger.query({
      tenant_id: "tnt_acme_001",
      conversation_id: "cnv_dan_ana",
      limit: 1000,
    }).events;
    expect(JSON.stringify(raw)).not.toContain("ana@acme.com");
    expect(JSON.stringify(first.server.ledger.query({ tenant_id: "tnt_acme_001", limit: 1000 }).events)).not.toContain(
      "912 345 678",
    );
    await first.close();

    const second = await startTestServer({ dataDir: first.dataDir });
    try {
      const after = { dan: await snapshot(second.url, dan), ana: await snapshot(second.url, ana) };
      expect(after).toEqual(before);
      expect(Object.keys(after.dan).some((k) => k.startsWith("job:"))).toBe(true);
    } finally {
      await second.close();
    }
  });
});
