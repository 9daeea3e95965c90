import { afterEach, describe, expect, it } from "vitest";
import { classifyFailure, createSmtpTransport, type MailTransport } from "../../../src/office/mail/index.js";
import { startSmtp, type FakeSmtp } from "./smtp-fixture.js";

const from = { name: "Office", address: "office@acme.test" };
const message = { from, to: "ann@example.com", subject: "Hello", text: "Hi", messageId: "<obx_t@acme.test>" };
const selfSigned = { rejectUnauthorized: false };

let server: FakeSmtp | undefined;
let transport: MailTransport | undefined;
afterEach(async () => {
  transport?.close();
  await server?.close();
  server = transport = undefined;
});

describe("createSmtpTransport against a real SMTP server", () => {
  it("authenticates with the configured user and password and returns the server's 250", async () => {
    server = await startSmtp({ auth: { user: "office", pass: "s3cret" } });
    transport = createSmtpTransport({ url: server.url, user: "office", password: "s3cret", from });
    const info = await transport.send(message);
    expect(info.response).toMatch(/^250 /);
    expect(info.accepted).toEqual(["ann@example.com"]);
    expect(info.messageId).toBe("<obx_t@acme.test>");
    expect(server.received[0]).toMatchObject({ user: "office", from: "office@acme.test", to: ["ann@example.com"] });
  });

  it("a wrong password is the server's 535, classified as a permanent failure with its answer", async () => {
    server = await startSmtp({ auth: { user: "office", pass: "s3cret" } });
    transport = createSmtpTransport({ url: server.url, user: "office", password: "wrong", from });
    const err = await transport.send(message).then(
      () => null,
      (e: unknown) => e,
    );
    expect(classifyFailure(err)).toMatchObject({
      retryable: false,
      code: 535,
      error: expect.stringMatching(/^535 .*Invalid username or password/),
    });
    expect(server.received).toHaveLength(0);
  });

  it("smtp:// upgrades with STARTTLS when offered; requireTLS refuses a server that does not offer it", async () => {
    server = await startSmtp({ tls: "starttls", auth: { user: "office", pass: "s3cret" } });
    transport = createSmtpTransport(
      { url: server.url, user: "office", password: "s3cret", from },
      { tls: selfSigned, requireTLS: true },
    );
    await transport.send(message);
    expect(server.received[0]?.secure).toBe(true);
    transport.close();
    await server.close();

    server = await startSmtp({ auth: { user: "office", pass: "s3cret" } });
    transport = createSmtpTransport(
      { url: server.url, user: "office", password: "s3cret", from },
      { requireTLS: true },
    );
    const err = await transport.send(message).then(
      () => null,
      (e: unknown) => e,
    );
    expect(classifyFailure(err).retryable).toBe(false);
    expect(server.received).toHaveLength(0);
  });

  it("smtps:// speaks TLS from the first byte", async () => {
    server = await startSmtp({ tls: "implicit" });
    expect(server.url).toMatch(/^smtps:/);
    transport = createSmtpTransport({ url: server.url, from }, { tls: selfSigned });
    await transport.send(message);
    expect(server.received[0]?.secure).toBe(true);
  });

  it("refuses a URL that is not smtp:// or smtps://", () => {
    expect(() => createSmtpTransport({ url: "http://mail.example.com", from })).toThrow(/smtp:\/\/ or smtps:\/\//);
  });
});
