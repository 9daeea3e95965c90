import { createECDH, randomBytes } from "node:crypto";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { createServer as createHttpServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { newPgDatabase, stopSharedPostgres } from "../ledger/pg/pg-helpers.js";
import { afterThisTest } from "../support/process.js";
import { postJson, startPgTestServer, waitFor } from "../support/server.js";

/**
 * Two servers on one PostgreSQL database (each with its own connections, lease attempt and data
 * dir holding the same keys), one push service on loopback: a subscription made through the
 * server that does not hold Office's lease is pushed to by the one that does, once per
 * notification; when the holder stops, the other takes the lease and pushes, still once.
 */

afterAll(() => stopSharedPostgres());

const SHARED_KEYS = ["ledger-signing-key.pem", "office-vault.key", "push-vapid-keys.json"];
const DM = "cnv_dan_ana";

/** A browser's side of a subscription: a P-256 key pair and a 16-byte auth secret. */
function deviceKeys() {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  return { p256dh: ecdh.getPublicKey().toString("base64url"), auth: randomBytes(16).toString("base64url") };
}

describe("log-driven side effects on PostgreSQL", () => {
  it("are sent by the lease holder alone: one push per notification, also after the lease moves", async () => {
    const received: string[] = [];
    const service: Server = createHttpServer((req, res) => {
      req.resume();
      req.on("end", () => {
        received.push(req.url ?? "");
        res.writeHead(201).end();
      });
    });
    await new Promise<void>((r) => service.listen(0, "127.0.0.1", r));
    afterThisTest(() => new Promise<void>((r) => service.close(() => r())));
    const pushUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;

    const url = await newPgDatabase("side_effects");
    const push = { allowLoopbackEndpoints: true };
    const a = await startPgTestServer(url, { push });
    let aClosed = false;
    afterThisTest(() => (aClosed ? undefined : a.close()));
    const dirB = mkdtempSync(join(tmpdir(), "logline-b-"));
    for (const f of SHARED_KEYS) copyFileSync(join(a.dataDir, f), join(dirB, f));
    const b = await startPgTestServer(url, { push, dataDir: dirB, demo: false });
    afterThisTest(async () => {
      await b.close();
      rmSync(dirB, { recursive: true, force: true });
    });
    const dan = a.demo!.humans[0]!.token;
    const ana = a.demo!.humans[1]!.token;

    // Ana's phone subscribes through B, which does not hold the lease.
    const sub = await postJson(`${b.url}/v1/push/subscriptions`, ana, {
      endpoint: `${pushUrl}/ana-phone`,
      keys: deviceKeys(),
    });
    expect(sub.status).toBe(201);

    // Dan writes to her through each server: each message is pushed once, by A.
    const sent: string[] = [];
    for (const [server, text] of [
      [a, "through A"],
      [b, "through B"],
      [b, "through B again"],
    ] as const) {
      const r = await postJson(`${server.url}/v1/conversations/${DM}/messages`, dan, { kind: "text", body_text: text });
      expect(r.status).toBe(202);
      sent.push(text);
      await waitFor(() => received.length >= sent.length, 10_000, `the push for "${text}"`);
    }
    await a.server.gateway.push.idle();
    await b.server.gateway.push.idle();
    await new Promise((r) => setTimeout(r, 500));
    expect(received).toEqual(sent.map(() => "/ana-phone"));

    // A stops (its lease with it); B takes the lease, and pushes what is written then, once.
    aClosed = true;
    await a.close();
    const before = received.length;
    await waitFor(
      async () => {
        // Written until B holds the lease: a notification while nobody holds it is not pushed.
        const r = await postJson(`${b.url}/v1/conversations/${DM}/messages`, dan, { kind: "text", body_text: "on B" });
        expect(r.status).toBe(202);
        await new Promise((res) => setTimeout(res, 300));
        return received.length > before;
      },
      15_000,
      "a push from B once it holds the lease",
    );
    const settled = received.length;
    const last = await postJson(`${b.url}/v1/conversations/${DM}/messages`, dan, { kind: "text", body_text: "last" });
    expect(last.status).toBe(202);
    await waitFor(() => received.length > settled, 10_000, "the last push");
    await b.server.gateway.push.idle();
    await new Promise((r) => setTimeout(r, 500));
    expect(received.length).toBe(settled + 1);
  }, 90_000);
});
