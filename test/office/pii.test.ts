import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { findPiiDeep } from "../../src/office/pii.js";
import { AGENT, setupWorld, T, type World } from "./helpers.js";
import { completeGolden } from "./flows.js";

const EMAIL = /[A-Z0-9._%+-]+@[A-Z0-9.-]+\.[A-Z]{2,}/gi;

describe("PII never reaches the ledger", () => {
  let w: World;
  beforeEach(async () => {
    w = await setupWorld();
  });
  afterEach(() => w.cleanup());

  it("golden path: zero email or phone hits in every stored event; vault holds the address", async () => {
    const jobId = await completeGolden(w);
    const all = w.events();
    expect(all.length).toBeGreaterThan(15);
    for (const e of all) {
      // Emails: nowhere in the event. Phones: in the payload (the seed's trace id has 8 digits).
      expect(JSON.stringify(e).match(EMAIL) ?? [], `${e.event_type} ${e.event_id}`).toEqual([]);
      expect(findPiiDeep(e.payload), `${e.event_type} ${e.event_id}`).toEqual([]);
    }
    const input = all.find((e) => e.event_type === "job.input_provided")!.payload as any;
    expect(input.inputs.maria_email).toMatchObject({
      redacted: "m***@acme.com",
      hash: expect.stringMatching(/^blake3:[0-9a-f]{64}$/),
      vault_ref: expect.stringMatching(/^vault_ref:/),
    });
    const called = all.find((e) => e.event_type === "tool.called")!.payload as any;
    expect(called.inputs.attendees[0]).toMatchObject({
      label: "Maria",
      email_redacted: "m***@acme.com",
      email_hash: input.inputs.maria_email.hash,
    });
    expect(called.pii_policy).toEqual({
      redactions_applied: ["email_redacted"],
      hashes_applied: ["email_hash"],
      raw_pii_stored: false,
    });
    expect(called.idempotency_key).toBe(`idem:${jobId}:calendar.create_invite:v2`);
    expect(w.office.vault.get(T, input.inputs.maria_email.vault_ref)).toBe("maria@acme.com");
  });

  it("erasing the vault entry forgets the address and the chain still verifies", async () => {
    await completeGolden(w);
    const ref = (w.events().find((e) => e.event_type === "job.input_provided")!.payload as any).inputs.maria_email
      .vault_ref;
    expect(w.office.vault.erase(T, ref)).toBe(true);
    expect(w.office.vault.get(T, ref)).toBeNull();
    expect(w.office.vault.erase(T, ref)).toBe(false);
    const row = w.db.prepare("select ciphertext from office_vault where vault_ref = ?").get(ref) as {
      ciphertext: string;
    };
    expect(row.ciphertext).toBe("");
    expect(w.ledger.verify(T).ok).toBe(true);
  });

  it("erasing also rewrites the .ics invite and the outbox row: only the redacted form is left", async () => {
    // Mail configured but the worker not started: the invite waits in the outbox.
    w.cleanup();
    w = await setupWorld({
      agents: [{ id: AGENT, name: "Office Scheduler", allowed_tools: ["calendar.create_invite", "mail.send"] }],
      office: { mail: { url: "smtp://127.0.0.1:9", from: { address: "office@acme.test" } } },
    });
    const jobId = await completeGolden(w);
    const ref = (w.events().find((e) => e.event_type === "job.input_provided")!.payload as any).inputs.maria_email
      .vault_ref;
    const [row] = w.office.artifacts.outbox(T, jobId);
    const before = w.office.artifact(T, row!.artifactId!)!.bytes.toString("utf8");
    expect(before).toContain("maria@acme.com");
    expect(row!.vaultRefs).toBe(JSON.stringify([ref]));

    expect(w.office.vault.erase(T, ref)).toBe(true);
    const after = w.office.artifact(T, row!.artifactId!)!.bytes.toString("utf8");
    expect(after.toLowerCase()).not.toContain("maria@acme.com");
    expect(after.replace(/\r\n /g, "")).toMatch(
      /^ATTENDEE;ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=FALSE;CN="Maria":mailto:m\*\*\*@acme\.com\r$/im,
    );
    // Still one calendar: CRLF lines of at most 75 octets, the same frame as before.
    expect(after.startsWith("BEGIN:VCALENDAR\r\n") && after.endsWith("END:VCALENDAR\r\n")).toBe(true);
    for (const line of after.split("\r\n")) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    const logical = (ics: string) => ics.replace(/\r\n /g, "").split("\r\n");
    expect(logical(after).length).toBe(logical(before).length);
    const dbRow = w.db
      .prepare("select size_bytes, sha256 from office_artifacts where artifact_id = ?")
      .get(row!.artifactId) as { size_bytes: number };
    expect(dbRow.size_bytes).toBe(Buffer.byteLength(after));

    const [redacted] = w.office.artifacts.outbox(T, jobId);
    expect(JSON.stringify(redacted)).not.toContain("maria@acme.com");
    expect(redacted).toMatchObject({ toVaultRef: null, toRedacted: "m***@acme.com" });
    expect(w.ledger.verify(T).ok).toBe(true);
  });

  it("hashes are salted per tenant, values are encrypted at rest and bound to their tenant", () => {
    const a = w.office.vault.put(T, "email", "Maria@Acme.com");
    const b = w.office.vault.put("tnt_other", "email", "maria@acme.com");
    expect(a.hash).not.toBe(b.hash);
    expect(w.office.vault.put(T, "email", "maria@acme.com").hash).toBe(a.hash);
    expect(w.office.vault.get("tnt_other", a.vault_ref)).toBeNull();
    const raw = JSON.stringify(w.db.prepare("select * from office_vault").all());
    expect(raw).not.toMatch(/maria/i);
    const phone = w.office.vault.put(T, "phone", "+351 912 345 678");
    expect(phone.redacted).toBe("***-***-678");
    expect(w.office.vault.get(T, phone.vault_ref)).toBe("+351 912 345 678");
  });

  it("PII typed into a request is vaulted before the proposal is written", async () => {
    const r = await w.office.ingestMessage({
      tenant_id: T,
      trace_id: "trc_x",
      conversation_id: "cnv_9f2a",
      actor_entity_id: "ent_human_dan",
      body_text:
        "Schedule a 30-min call with Maria (maria@acme.com, +351 912 345 678) tomorrow at 15:00 Europe/Lisbon on Zoom",
    });
    const evs = w.events(r.job_id);
    for (const e of evs) expect(findPiiDeep(e.payload)).toEqual([]);
    const card = (evs[1]!.payload as any).proposed_card;
    expect(card.job.inputs_needed[0]).toMatchObject({ status: "provided", value_preview: "m***@acme.com" });
  });
});
