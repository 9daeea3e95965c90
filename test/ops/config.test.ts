import { describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError, describeConfig, loadConfig, parseConfig } from "../../src/config.js";

const fail = (env: Record<string, string>) => {
  try {
    parseConfig(env, "/srv/logline");
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error("expected a ConfigError");
};

describe("parseConfig", () => {
  it("fills every default from an empty environment", () => {
    const c = parseConfig({}, "/srv/logline");
    expect(c).toMatchObject({
      env: "development",
      port: 3000,
      host: "127.0.0.1",
      dataDir: "/srv/logline/data",
      demo: true,
      logLevel: "info",
      ledgerSync: "full",
      office: { planner: "rules" },
      shutdownTimeoutMs: 10_000,
    });
    expect(c.office.llm).toBeUndefined();
    expect(c.publicUrl).toBeUndefined();
    // Connectors are off until set; Jitsi rooms default to the public Jitsi Meet service.
    expect(c.mail).toBeUndefined();
    expect(c.caldav).toBeUndefined();
    expect(c.jitsiBaseUrl).toBe("https://meet.jit.si");
  });

  it("reads stream caps and slow-client deadlines, with defaults, and refuses values out of range", () => {
    const d = parseConfig({}, "/srv/logline");
    expect(d.streams).toEqual({ perToken: 20, perTenant: 5000 });
    expect(d.httpTimeouts).toEqual({ headersMs: 10_000, requestMs: 60_000, keepAliveMs: 5_000 });
    const c = parseConfig(
      {
        STREAMS_PER_TOKEN: "3",
        STREAMS_PER_TENANT: "50",
        HTTP_HEADERS_TIMEOUT_MS: "2000",
        HTTP_REQUEST_TIMEOUT_MS: "30000",
        HTTP_KEEPALIVE_TIMEOUT_MS: "1000",
      },
      "/srv/logline",
    );
    expect(c.streams).toEqual({ perToken: 3, perTenant: 50 });
    expect(c.httpTimeouts).toEqual({ headersMs: 2000, requestMs: 30_000, keepAliveMs: 1000 });
    expect(fail({ STREAMS_PER_TOKEN: "0" }).message).toContain("STREAMS_PER_TOKEN");
    expect(fail({ HTTP_HEADERS_TIMEOUT_MS: "10" }).message).toContain("HTTP_HEADERS_TIMEOUT_MS");
  });

  it("reads SIGNUP and TRUSTED_PROXIES, refusing what they cannot mean", () => {
    expect(parseConfig({}, "/srv/logline")).toMatchObject({ trustedProxies: [] });
    expect(parseConfig({}, "/srv/logline").signup).toBeUndefined();
    expect(
      parseConfig({ SIGNUP: "closed", TRUSTED_PROXIES: "loopback, 10.0.0.0/8,192.168.1.4" }, "/srv/logline"),
    ).toMatchObject({
      signup: "closed",
      trustedProxies: ["loopback", "10.0.0.0/8", "192.168.1.4"],
    });
    expect(parseConfig({ SIGNUP: " Invite " }, "/srv/logline").signup).toBe("invite");
    expect(parseConfig({ TRUSTED_PROXIES: "::1, fd00::/8" }, "/srv/logline").trustedProxies).toEqual([
      "::1",
      "fd00::/8",
    ]);
    expect(fail({ SIGNUP: "maybe" }).message).toContain("SIGNUP must be one of open, invite, closed");
    expect(fail({ TRUSTED_PROXIES: "not-an-ip" }).message).toContain("TRUSTED_PROXIES must list IP addresses");
  });

  it("turns the demo off by default in production and requires PUBLIC_URL there", () => {
    expect(fail({ NODE_ENV: "production" }).variable).toBe("PUBLIC_URL");
    const c = parseConfig({ NODE_ENV: "production", PUBLIC_URL: "https://chat.example.com/" }, "/srv");
    expect(c.demo).toBe(false);
    expect(c.publicUrl).toBe("https://chat.example.com");
    expect(parseConfig({ NODE_ENV: "production", PUBLIC_URL: "https://x.example", LOGLINE_DEMO: "1" }).demo).toBe(true);
  });

  it.each([
    [{ PORT: "abc" }, "PORT", /PORT must be a whole number between 0 and 65535 \(got "abc"\)/],
    [{ PORT: "70000" }, "PORT", /PORT must be a whole number/],
    [{ LOGLINE_DEMO: "maybe" }, "LOGLINE_DEMO", /LOGLINE_DEMO must be one of 1, 0, true, false/],
    [{ LEDGER_SYNC: "off" }, "LEDGER_SYNC", /LEDGER_SYNC must be one of full, normal/],
    [{ LOG_LEVEL: "loud" }, "LOG_LEVEL", /LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent/],
    [{ PUBLIC_URL: "chat.example.com" }, "PUBLIC_URL", /PUBLIC_URL must be an http:\/\/ or https:\/\/ URL/],
    [{ OFFICE_PLANNER: "gpt" }, "OFFICE_PLANNER", /OFFICE_PLANNER must be one of rules, llm/],
    [{ OFFICE_PLANNER: "llm" }, "OFFICE_LLM_BASE_URL", /OFFICE_LLM_BASE_URL is required when OFFICE_PLANNER=llm/],
    [
      { OFFICE_PLANNER: "llm", OFFICE_LLM_BASE_URL: "http://127.0.0.1:11434/v1" },
      "OFFICE_LLM_MODEL",
      /OFFICE_LLM_MODEL is required/,
    ],
    [{ OFFICE_LLM_TIMEOUT_MS: "5s" }, "OFFICE_LLM_TIMEOUT_MS", /OFFICE_LLM_TIMEOUT_MS must be a whole number/],
    [
      { SMTP_URL: "mail.example.com:587", MAIL_FROM: "o@example.com" },
      "SMTP_URL",
      /SMTP_URL must be an smtp:\/\/ \(STARTTLS\) or smtps:\/\/ \(TLS\) URL/,
    ],
    [{ SMTP_URL: "smtp://mail.example.com:587" }, "MAIL_FROM", /MAIL_FROM is required when SMTP_URL is set/],
    [{ MAIL_FROM: "o@example.com" }, "SMTP_URL", /SMTP_URL is required when MAIL_FROM is set/],
    [{ SMTP_URL: "smtp://mail.example.com", MAIL_FROM: "office" }, "MAIL_FROM", /MAIL_FROM must be an address/],
    [
      { CALDAV_URL: "https://dav.example.com/", CALDAV_USERNAME: "dan" },
      "CALDAV_PASSWORD",
      /CALDAV_USERNAME and CALDAV_PASSWORD are required/,
    ],
    [{ CALDAV_USERNAME: "dan" }, "CALDAV_URL", /CALDAV_URL is required when CALDAV_USERNAME/],
    [{ CALDAV_URL: "dav.example.com" }, "CALDAV_URL", /CALDAV_URL must be an http:\/\/ or https:\/\/ URL/],
    [
      { IMAP_URL: "imap.example.com:993" },
      "IMAP_URL",
      /IMAP_URL must be an imap:\/\/ \(STARTTLS when offered\) or imaps:\/\/ \(TLS\) URL/,
    ],
    [{ IMAP_USER: "office" }, "IMAP_URL", /IMAP_URL is required when IMAP_USER/],
    [
      { IMAP_URL: "imaps://imap.example.com", IMAP_USER: "office" },
      "IMAP_PASSWORD",
      /IMAP_URL needs a user name and password/,
    ],
    [{ JITSI_BASE_URL: "meet.example.com" }, "JITSI_BASE_URL", /JITSI_BASE_URL must be an http:\/\/ or https:\/\/ URL/],
    [{ SIGNUP: "maybe" }, "SIGNUP", /SIGNUP must be one of open, invite, closed \(got "maybe"\)/],
    [
      { TRUSTED_PROXIES: "not-an-ip" },
      "TRUSTED_PROXIES",
      /TRUSTED_PROXIES must list IP addresses, CIDR ranges or loopback\/linklocal\/uniquelocal \(invalid IP address: not-an-ip\)/,
    ],
    [
      { TRUSTED_PROXIES: "loopback, 10.0.0.0/33" },
      "TRUSTED_PROXIES",
      /TRUSTED_PROXIES must list IP addresses.*10\.0\.0\.0\/33/,
    ],
  ])("refuses %j naming %s", (env, variable, message) => {
    const err = fail(env as Record<string, string>);
    expect(err.variable).toBe(variable);
    expect(err.message).toMatch(message);
    expect(err.message).not.toContain("\n");
  });

  it("never echoes a secret back, even a malformed one", () => {
    const err = fail({ METRICS_TOKEN: "short-secret" });
    expect(err.variable).toBe("METRICS_TOKEN");
    expect(err.message).not.toContain("short-secret");
  });

  it("never echoes mail, calendar or database credentials, even inside a malformed URL", () => {
    const err = fail({ SMTP_URL: "smtp://dan:hunter2@mail example.com", MAIL_FROM: "o@example.com" });
    expect(err.message).not.toContain("hunter2");
    expect(fail({ CALDAV_URL: "dav://dan:hunter2@dav.example.com" }).message).not.toContain("hunter2");
    const db = fail({ DATABASE_URL: "mysql://logline:hunter2@db.example.com/logline" });
    expect(db.variable).toBe("DATABASE_URL");
    expect(db.message).not.toContain("hunter2");
  });

  it("reads SMTP credentials from the URL or from SMTP_USER/SMTP_PASSWORD, and keeps them out of the URL", () => {
    const fromUrl = parseConfig({
      SMTP_URL: "smtps://office%40example.com:p%3Ass@mail.example.com:465",
      MAIL_FROM: "Acme Office <office@example.com>",
    });
    expect(fromUrl.mail).toEqual({
      url: "smtps://mail.example.com:465",
      user: "office@example.com",
      password: "p:ss",
      from: { name: "Acme Office", address: "office@example.com" },
    });
    const separate = parseConfig({
      SMTP_URL: "smtp://relay.example.com:587",
      SMTP_USER: "u",
      SMTP_PASSWORD: "pw",
      MAIL_FROM: "office@example.com",
    });
    expect(separate.mail).toEqual({
      url: "smtp://relay.example.com:587",
      user: "u",
      password: "pw",
      from: { address: "office@example.com" },
    });
    expect(JSON.stringify(describeConfig(fromUrl))).not.toContain("p:ss");
  });

  it("reads IMAP credentials from the URL or from IMAP_USER/IMAP_PASSWORD, keeps them out of the URL and the description", () => {
    const fromUrl = parseConfig({ IMAP_URL: "imaps://office%40example.com:p%3Ass@imap.example.com" });
    expect(fromUrl.imap).toEqual({
      url: "imaps://imap.example.com",
      host: "imap.example.com",
      port: 993,
      secure: true,
      username: "office@example.com",
      password: "p:ss",
      mailbox: "INBOX",
      maxBytes: 1_000_000,
    });
    const separate = parseConfig({
      IMAP_URL: "imap://127.0.0.1:1143",
      IMAP_USER: "u",
      IMAP_PASSWORD: "pw",
      IMAP_MAILBOX: "Replies",
      INBOUND_MAX_BYTES: "50000",
    });
    expect(separate.imap).toMatchObject({
      host: "127.0.0.1",
      port: 1143,
      secure: false,
      username: "u",
      password: "pw",
      mailbox: "Replies",
      maxBytes: 50_000,
    });
    expect(JSON.stringify(describeConfig(fromUrl))).not.toContain("p:ss");
    expect(fail({ IMAP_URL: "imaps://dan:hunter2@imap example.com" }).message).not.toContain("hunter2");
    expect(parseConfig({}).imap).toBeUndefined();
  });

  it("configures CalDAV and a self-hosted Jitsi", () => {
    const c = parseConfig({
      CALDAV_URL: "https://cloud.example.com/remote.php/dav/",
      CALDAV_USERNAME: "dan",
      CALDAV_PASSWORD: "s3cret",
      CALDAV_CALENDAR: "Work",
      JITSI_BASE_URL: "https://meet.example.com/",
    });
    expect(c.caldav).toEqual({
      url: "https://cloud.example.com/remote.php/dav",
      username: "dan",
      password: "s3cret",
      calendar: "Work",
    });
    expect(c.jitsiBaseUrl).toBe("https://meet.example.com");
    expect(JSON.stringify(describeConfig(c))).not.toContain("s3cret");
  });

  it("configures the LLM planner", () => {
    const c = parseConfig({
      OFFICE_PLANNER: "LLM",
      OFFICE_LLM_BASE_URL: "http://127.0.0.1:11434/v1/",
      OFFICE_LLM_MODEL: "qwen2.5",
      OFFICE_LLM_API_KEY: "k",
      OFFICE_LLM_LOG_FULL: "yes",
    });
    expect(c.office).toEqual({
      planner: "llm",
      llm: {
        baseUrl: "http://127.0.0.1:11434/v1",
        model: "qwen2.5",
        apiKey: "k",
        timeoutMs: 20_000,
        maxTokens: 1500,
        responseFormat: "json_schema",
        logFull: true,
      },
    });
  });
});

describe("loadConfig with .env", () => {
  it("reads .env and lets the real environment win", () => {
    const dir = mkdtempSync(join(tmpdir(), "cfg-"));
    try {
      writeFileSync(join(dir, ".env"), "PORT=4100\nLOG_LEVEL=debug\n# a comment\nDATA_DIR=/var/lib/logline\n");
      const c = loadConfig({ LOG_LEVEL: "warn" }, dir);
      expect(c).toMatchObject({ port: 4100, logLevel: "warn", dataDir: "/var/lib/logline" });
      expect(() => loadConfig({ ENV_FILE: "missing.env" }, dir)).toThrow(/ENV_FILE points at .*missing\.env/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
