import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer, type SMTPServerOptions } from "smtp-server";

/** A scripted refusal: the next RCPT (or DATA) gets this answer instead of 250. */
interface Refusal {
  code: number;
  message: string;
}

interface Received {
  from: string;
  to: string[];
  user: string | undefined;
  secure: boolean;
  mail: ParsedMail;
}

export interface FakeSmtp {
  port: number;
  /** smtp:// (or smtps:// for a `secure` server) on 127.0.0.1 and the port. */
  url: string;
  received: Received[];
  /** Consumed one per RCPT / DATA; an empty queue accepts. */
  rcptReplies: Refusal[];
  dataReplies: Refusal[];
  /** Connections the server accepted, to prove that no attempt was made. */
  sessions: number;
  close(): Promise<void>;
}

const refuse = (r: Refusal) => Object.assign(new Error(r.message), { responseCode: r.code });

/**
 * A real smtp-server on 127.0.0.1. `auth` makes AUTH PLAIN/LOGIN mandatory and checks the pair;
 * `tls: "starttls"` offers STARTTLS with smtp-server's built-in self-signed certificate,
 * `tls: "implicit"` speaks TLS from the first byte, and the default disables STARTTLS.
 */
export async function startSmtp(
  opts: { auth?: { user: string; pass: string }; tls?: "none" | "starttls" | "implicit"; port?: number } = {},
): Promise<FakeSmtp> {
  const tls = opts.tls ?? "none";
  const fake: Omit<FakeSmtp, "port" | "url" | "close"> = {
    received: [],
    rcptReplies: [],
    dataReplies: [],
    sessions: 0,
  };
  const options: SMTPServerOptions = {
    logger: false,
    secure: tls === "implicit",
    ...(tls === "none" ? { disabledCommands: ["STARTTLS"] } : {}),
    allowInsecureAuth: true,
    authMethods: ["PLAIN", "LOGIN"],
    authOptional: !opts.auth,
    onConnect(_session, cb) {
      fake.sessions++;
      cb();
    },
    onAuth(auth, _session, cb) {
      if (opts.auth && auth.username === opts.auth.user && auth.password === opts.auth.pass)
        return cb(null, { user: auth.username });
      cb(new Error("Invalid username or password"));
    },
    onRcptTo(_address, _session, cb) {
      const r = fake.rcptReplies.shift();
      cb(r ? refuse(r) : null);
    },
    onData(stream, session, cb) {
      const r = fake.dataReplies.shift();
      simpleParser(stream)
        .then((mail) => {
          if (r) return cb(refuse(r));
          fake.received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((a) => a.address),
            user: typeof session.user === "string" ? session.user : undefined,
            secure: session.secure,
            mail,
          });
          cb();
        })
        .catch((e: Error) => cb(e));
    },
  };
  const server = new SMTPServer(options);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  return Object.assign(fake, {
    port,
    url: `${tls === "implicit" ? "smtps" : "smtp"}://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

/** A loopback port nothing listens on (yet): taken from the OS, then released. */
export async function freePort(): Promise<number> {
  const { createServer } = await import("node:net");
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", () => r()));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}
