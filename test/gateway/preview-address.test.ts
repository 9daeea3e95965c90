import { describe, expect, it } from "vitest";
import { addressAllowed, literalAddress, parseAllowList } from "../../src/gateway/previews/address.js";
import { linksOf } from "../../src/gateway/previews/links.js";

/**
 * Which addresses the link-preview fetcher may connect to: a table of hostile hosts, each written
 * as a person could type it in a URL, judged after the URL parser has read it as the fetcher does.
 */
const hostOf = (url: string) => {
  const h = new URL(url).hostname;
  return literalAddress(h) ?? h;
};
const none = parseAllowList([]);

describe("link preview addresses", () => {
  it.each([
    ["http://127.0.0.1/", "loopback"],
    ["http://127.1/", "short loopback"],
    ["http://2130706433/", "decimal loopback"],
    ["http://0177.0.0.1/", "octal loopback"],
    ["http://0x7f.0.0.1/", "hex loopback"],
    ["http://0x7f000001/", "one hex number"],
    ["http://0/", "0.0.0.0"],
    ["http://10.1.2.3/", "private 10/8"],
    ["http://172.16.0.9/", "private 172.16/12"],
    ["http://192.168.1.1/", "private 192.168/16"],
    ["http://169.254.169.254/latest/meta-data/", "link-local (cloud metadata)"],
    ["http://100.64.0.1/", "carrier-grade NAT"],
    ["http://224.0.0.1/", "multicast"],
    ["http://255.255.255.255/", "broadcast"],
    ["http://192.0.2.1/", "documentation"],
    ["http://240.0.0.1/", "reserved"],
    ["http://[::1]/", "IPv6 loopback"],
    ["http://[::]/", "IPv6 unspecified"],
    ["http://[::ffff:127.0.0.1]/", "IPv4-mapped loopback"],
    ["http://[::ffff:7f00:1]/", "IPv4-mapped loopback in hex"],
    ["http://[::ffff:10.0.0.1]/", "IPv4-mapped private"],
    ["http://[fe80::1]/", "IPv6 link-local"],
    ["http://[fc00::1]/", "unique-local fc"],
    ["http://[fd12:3456::1]/", "unique-local fd"],
    ["http://[ff02::1]/", "IPv6 multicast"],
    ["http://[2002:7f00:1::]/", "6to4 of loopback"],
    ["http://[64:ff9b::7f00:1]/", "NAT64 of loopback"],
    ["http://[2001::1]/", "Teredo"],
    ["http://[2001:db8::1]/", "IPv6 documentation"],
  ])("refuses %s (%s)", (url) => {
    const host = hostOf(url);
    expect(literalAddress(new URL(url).hostname), `${url} is a literal address`).toBeDefined();
    expect(addressAllowed(host, none)).toBe(false);
  });

  it.each([["8.8.8.8"], ["93.184.215.14"], ["2a00:1450:4001:82b::200e"], ["::ffff:8.8.8.8"]])(
    "lets a public address through: %s",
    (ip) => {
      expect(addressAllowed(ip, none)).toBe(true);
    },
  );

  it("refuses what is not an address at all", () => {
    for (const x of ["", "localhost", "example.com", "127.0.0.1.nip.io", "1.2.3.4.5", "::ffff:zz"])
      expect(addressAllowed(x, none), x).toBe(false);
    expect(literalAddress("localhost")).toBeUndefined();
    expect(literalAddress("example.com")).toBeUndefined();
  });

  it("opens only the ranges an operator names, per family", () => {
    const loop = parseAllowList(["127.0.0.1/32"]);
    expect(addressAllowed("127.0.0.1", loop)).toBe(true);
    expect(addressAllowed("::ffff:127.0.0.1", loop)).toBe(true);
    expect(addressAllowed("127.0.0.2", loop)).toBe(false);
    expect(addressAllowed("::1", loop)).toBe(false);
    expect(addressAllowed("10.0.0.1", loop)).toBe(false);
    const intranet = parseAllowList(["10.20.0.0/16", "fd00::/8"]);
    expect(addressAllowed("10.20.3.4", intranet)).toBe(true);
    expect(addressAllowed("10.21.0.1", intranet)).toBe(false);
    expect(addressAllowed("fd00::5", intranet)).toBe(true);
    expect(() => parseAllowList(["10.0.0.0/33"])).toThrow(/not a CIDR range/);
    expect(() => parseAllowList(["intranet"])).toThrow(/"intranet"/);
  });

  it("previews only http(s) links, each once, the first ones", () => {
    const text =
      "see https://a.example/x and www.example.com, mailto:c@d.example ftp://e.example/f https://a.example/x https://g.example/ https://h.example/";
    expect(linksOf(text, 3)).toEqual(["https://a.example/x", "http://www.example.com", "https://g.example/"]);
    expect(linksOf("no links here", 3)).toEqual([]);
  });
});
