import { mkdtempSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { databasePath } from "../../src/ops/data-dir.js";
import { createServer } from "../../src/server.js";
import { openDatabase } from "../../src/shared/db.js";
import { cardFrame, click, openStream } from "../support/golden.js";
import { postJson } from "../support/server.js";

/**
 * Everything under DATA_DIR is addressed relative to it: the same data in another folder (a
 * restore elsewhere, another machine) serves every attachment and invite it had — rows written
 * with absolute paths by an earlier version included.
 */
const quiet = { info() {}, warn() {}, error() {} };
let base: string;
afterEach(() => rmSync(base, { recursive: true, force: true }));

const boot = (dataDir: string) =>
  createServer({ dataDir, demo: true, logger: quiet, ledgerSync: "normal", port: 0, host: "127.0.0.1" });

describe("a data dir moved to another folder", () => {
  it("serves its attachments and invites from the new place", async () => {
    base = mkdtempSync(join(tmpdir(), "logline-move-"));
    const first = join(base, "first");
    const s = await boot(first);
    const { url } = await s.listen();
    const dan = s.demo!.humans[0]!.token;
    const form = new FormData();
    form.append("file", new Blob(["a,b\n1,2\n"], { type: "text/csv" }), "prices.csv");
    const up = await fetch(`${url}/v1/conversations/cnv_dan_ana/attachments`, {
      method: "POST",
      headers: { authorization: `Bearer ${dan}`, "idempotency-key": "k-move-up" },
      body: form,
    });
    const attachment = ((await up.json()) as { artifact_id: string }).artifact_id;
    const stream = openStream(url, { token: dan });
    await postJson(`${url}/v1/conversations/cnv_9f2a/messages`, dan, {
      kind: "text",
      body_text: "Can you schedule a 30-min call with Maria next week?",
    });
    const formalize = (await stream.waitFor(cardFrame("job.formalize"))).data.item.message.card;
    await click(url, dan, formalize, "job.approve");
    const tracking = (await stream.waitFor(cardFrame("job.tracking"))).data.item.message.card;
    await click(url, dan, tracking, "job.provide_input");
    const finished = (await stream.waitFor(cardFrame("job.finished"), 10_000, "finished")).data.item.message.card;
    stream.close();
    const invite = finished.artifacts.find((a: any) => a.mime_type === "text/calendar").artifact_id as string;
    const before = await Promise.all(
      [attachment, invite].map(async (id) =>
        (await fetch(`${url}/v1/artifacts/${id}`, { headers: { authorization: `Bearer ${dan}` } })).text(),
      ),
    );
    await s.close();

    // One row as an earlier version wrote it: an absolute path into the old folder.
    const db = openDatabase({ path: databasePath(first), sync: "normal" });
    db.prepare("UPDATE gateway_attachments SET path = ? WHERE artifact_id = ?").run(
      join(first, "attachments", "tnt_acme_001", attachment),
      attachment,
    );
    db.close();

    const second = join(base, "second");
    renameSync(first, second);
    const moved = await boot(second);
    const again = await moved.listen();
    const after = await Promise.all(
      [attachment, invite].map(async (id) => {
        const r = await fetch(`${again.url}/v1/artifacts/${id}`, { headers: { authorization: `Bearer ${dan}` } });
        expect(r.status).toBe(200);
        return r.text();
      }),
    );
    expect(after).toEqual(before);
    expect(after[1]).toContain("BEGIN:VCALENDAR");
    expect(moved.ledger.verify("tnt_acme_001").ok).toBe(true);
    await moved.close();
  });
});
