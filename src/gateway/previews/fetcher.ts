import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { addressAllowed, literalAddress, type AllowList } from "./address.js";
import { createHeadReader, type PageFacts } from "./page.js";

export interface FetchLimits {
  /** The whole fetch, redirects included (ms). */
  timeoutMs: number;
  /** Bytes read of a page at most; reading stops earlier at `</head>`. */
  maxBytes: number;
  /** Redirects followed at most, each one checked like the first address. */
  maxRedirects: number;
}

export const DEFAULT_FETCH_LIMITS: FetchLimits = { timeoutMs: 5_000, maxBytes: 512 * 1024, maxRedirects: 3 };

/** Why no preview came of a URL (for the log; people see no preview, nothing else). */
type Refusal =
  | "scheme"
  | "credentials"
  | "address"
  | "dns"
  | "redirects"
  | "status"
  | "content_type"
  | "encoding"
  | "timeout"
  | "network"
  | "empty";

export type FetchOutcome = { ok: true; url: string; facts: PageFacts } | { ok: false; refused: Refusal };

class Refused extends Error {
  constructor(readonly reason: Refusal) {
    super(reason);
  }
}

/**
 * A DNS lookup that answers only with addresses the fetcher may reach: every address the name
 * resolves to is checked, and the socket connects to the very addresses checked (no second
 * lookup a rebinding DNS server could answer differently).
 */
function guardedLookup(allow: AllowList, resolve: typeof dnsLookup): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { all: true, family: options.family ?? 0 }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, "", 4);
      if (!addresses.length || addresses.some((a) => !addressAllowed(a.address, allow)))
        return callback(Object.assign(new Error("address refused"), { code: "EREFUSEDADDR" }), "", 4);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0]!;
      callback(null, first.address, first.family);
    });
  };
}

/** The media type of a Content-Type header, lower-cased, without parameters. */
function mediaType(header: string | undefined): { type: string; charset: string | undefined } {
  const parts = (header ?? "").split(";").map((s) => s.trim());
  const charsetPart = parts.slice(1).find((p) => p.toLowerCase().startsWith("charset="));
  const charset = charsetPart?.slice("charset=".length).trim().toLowerCase().split('"').join("") || undefined;
  return { type: (parts[0] ?? "").toLowerCase(), charset };
}

function decoderFor(charset: string | undefined): TextDecoder {
  try {
    return new TextDecoder(charset ?? "utf-8");
  } catch {
    return new TextDecoder("utf-8");
  }
}

interface Hop {
  status: number;
  location?: string | undefined;
  facts?: PageFacts;
}

/**
 * One request: http or https, no cookies, no credentials, no compression, the address pinned by
 * the guarded lookup. A redirect answers with its Location; a page is read up to `</head>` or
 * `maxBytes`, whichever comes first.
 */
function requestOnce(url: URL, allow: AllowList, limits: FetchLimits, signal: AbortSignal, resolve: typeof dnsLookup) {
  return new Promise<Hop>((done, fail) => {
    const literal = literalAddress(url.hostname);
    if (literal !== undefined && !addressAllowed(literal, allow)) return fail(new Refused("address"));
    const mod = url.protocol === "https:" ? https : http;
    const req = mod.request(
      url,
      {
        method: "GET",
        headers: {
          "user-agent": "LogLine-LinkPreview/1 (+link previews)",
          accept: "text/html,application/xhtml+xml;q=0.9",
          "accept-encoding": "identity",
        },
        lookup: guardedLookup(allow, resolve),
        agent: false,
        signal,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          res.destroy();
          return done({ status, location: res.headers.location });
        }
        if (status < 200 || status >= 300) {
          res.destroy();
          return fail(new Refused("status"));
        }
        const { type, charset } = mediaType(res.headers["content-type"]);
        if (type !== "text/html" && type !== "application/xhtml+xml") {
          res.destroy();
          return fail(new Refused("content_type"));
        }
        const encoding = (res.headers["content-encoding"] ?? "identity").toLowerCase();
        if (encoding !== "identity") {
          res.destroy();
          return fail(new Refused("encoding"));
        }
        const reader = createHeadReader();
        const decoder = decoderFor(charset);
        let read = 0;
        let finished = false;
        const finish = () => {
          if (finished) return;
          finished = true;
          reader.write(decoder.decode());
          res.destroy();
          done({ status, facts: reader.facts() });
        };
        res.on("data", (chunk: Buffer) => {
          if (finished) return;
          const room = limits.maxBytes - read;
          const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
          read += part.length;
          reader.write(decoder.decode(part, { stream: true }));
          if (reader.done || read >= limits.maxBytes) finish();
        });
        res.on("end", finish);
        res.on("error", (e) => (finished ? undefined : fail(e)));
        res.on("close", () => (finished ? undefined : fail(new Refused("network"))));
      },
    );
    req.on("error", fail);
    req.end();
  });
}

/**
 * Fetches what a page says of itself, treating the URL as hostile: http/https only, no user or
 * password in it, every address (the first and each redirect's) public or allowed by the
 * operator, at most `maxRedirects` redirects, `text/html` only, `maxBytes` read at most, all
 * within `timeoutMs`. Never throws: a refusal says why.
 */
export async function fetchPageFacts(
  raw: string,
  allow: AllowList,
  limits: FetchLimits = DEFAULT_FETCH_LIMITS,
  resolve: typeof dnsLookup = dnsLookup,
  outer?: AbortSignal,
): Promise<FetchOutcome> {
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(new Refused("timeout")), limits.timeoutMs);
  const stop = () => ctl.abort(new Refused("timeout"));
  outer?.addEventListener("abort", stop, { once: true });
  try {
    let url = new URL(raw);
    for (let hop = 0; ; hop++) {
      if (url.protocol !== "http:" && url.protocol !== "https:") throw new Refused("scheme");
      if (url.username || url.password) throw new Refused("credentials");
      url.hash = "";
      const res = await requestOnce(url, allow, limits, ctl.signal, resolve);
      if (res.facts) {
        const f = res.facts;
        if (!f.title && !f.description) throw new Refused("empty");
        return { ok: true, url: url.href, facts: f };
      }
      if (!res.location || hop >= limits.maxRedirects) throw new Refused("redirects");
      url = new URL(res.location, url);
    }
  } catch (e) {
    if (ctl.signal.aborted) return { ok: false, refused: "timeout" };
    if (e instanceof Refused) return { ok: false, refused: e.reason };
    const code = (e as { code?: string }).code;
    if (code === "EREFUSEDADDR") return { ok: false, refused: "address" };
    if (code === "ENOTFOUND" || code === "EAI_AGAIN") return { ok: false, refused: "dns" };
    if (e instanceof TypeError) return { ok: false, refused: "scheme" };
    return { ok: false, refused: "network" };
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener("abort", stop);
  }
}
