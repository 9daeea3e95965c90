import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { scrubText } from "../../src/gateway/pii.js";
import type { VaultApi } from "../../src/office/index.js";
import { findPhones, findPii, isPhone } from "../../src/office/pii.js";
import { newId } from "../../src/shared/ids.js";

const phonesIn = (text: string) => findPhones(text).map((p) => p.value);

/** A vault that records what it was given; redacted forms as Office's vault builds them. */
function fakeVault(): VaultApi & { values: string[] } {
  const values: string[] = [];
  return {
    values,
    put(_t: string, kind: "email" | "phone", value: string) {
      values.push(value);
      return {
        redacted: kind === "phone" ? `***-***-${value.replace(/\D/g, "").slice(-3)}` : "m***@acme.com",
        hash: "blake3:00",
        vault_ref: `vault_ref:vlt_${values.length}`,
      };
    },
    get: () => null,
    erase: () => false,
  } as unknown as VaultApi & { values: string[] };
}

describe("phone detection", () => {
  it.each([
    ["+351 912 345 678", "call +351 912 345 678 today"],
    ["(212) 555-0123", "office: (212) 555-0123."],
    ["912-345-678", "mobile 912-345-678"],
    ["0049 30 1234567", "Berlin 0049 30 1234567, ext. 12"],
    ["+351912345678", "whatsapp +351912345678"],
    ["212.555.0123", "fax 212.555.0123"],
    ["+1 (212) 555-0123", "US +1 (212) 555-0123"],
    ["912345678", "Maria (912345678)"],
    ["+44 20 7946 0958", "tel:+44 20 7946 0958"],
  ])("finds %s", (phone, text) => {
    expect(phonesIn(text)).toEqual([phone]);
    expect(findPii(text)).toEqual([
      { kind: "phone", value: phone, start: text.indexOf(phone), end: text.indexOf(phone) + phone.length },
    ]);
  });

  it.each([
    ["a job id", "see job_0193a1b2c3d47810700012345678"],
    ["an id whose time part is all digits", "evt_019378107000712345678901"],
    ["a vault pointer", "vault_ref:vlt_0193a1b2c3d4781070001234"],
    ["a BLAKE3 hash", "blake3:1234567890123456789012345678901234567890123456789012345678901234"],
    ["an ISO timestamp", "2025-12-27T10:15:00.000Z"],
    ["an ISO timestamp with an offset", "at 2025-12-27T10:15:00+01:00 sharp"],
    ["a date and a time", "on 2025-12-27 14:30"],
    ["a UUID", "0193a1b2-1234-7abc-8def-123456789012"],
    ["a time range", "Tue–Thu, 14:00–17:00"],
    ["an IP address", "host 192.168.100.200"],
    ["a decimal", "pi is 3.14159265358"],
    ["a dotted date", "due 27.12.2025"],
    ["a redacted phone", "***-***-678"],
    ["a token with an id", '[ref job:"job_01937810700071234567" "Call"]'],
    ["a path", "/v1/jobs/12345678901"],
    ["a short number", "room 1234, 30 minutes"],
  ])("leaves %s alone", (_what, text) => {
    expect(phonesIn(text)).toEqual([]);
  });

  it("a plain run of 13 to 15 digits is an order or product number, not a phone; with + or 00 or spaced it still is one", () => {
    expect(phonesIn("about order 4006381333931, thanks")).toEqual([]);
    expect(phonesIn("EAN 4006381333931 and invoice 123456789012345")).toEqual([]);
    expect(phonesIn("call 00351912345678 or +351912345678")).toEqual(["00351912345678", "+351912345678"]);
    expect(phonesIn("call 912 345 678 or 912345678")).toEqual(["912 345 678", "912345678"]);
  });

  it("reads a whole form value as a phone only if it is one", () => {
    expect(isPhone(" +351 912 345 678 ")).toBe(true);
    expect(isPhone("job_0193a1b2c3d47810700012345678")).toBe(false);
    expect(isPhone("call 912 345 678")).toBe(false);
  });

  it("never finds a phone inside a time-ordered id, a vault pointer or a hash, wherever it sits in a text", () => {
    const prefix = fc.constantFrom("job", "evt", "msg", "card", "tcall", "vlt", "cnv", "trc");
    const ms = fc.integer({ min: 1_600_000_000_000, max: 2_100_000_000_000 });
    const id = fc.tuple(prefix, ms).map(([p, t]) => newId(p, t));
    const around = fc.constantFrom("", " ", "id ", "(", '"', '[ref job:"', "on ", "\n");
    const after = fc.constantFrom("", " ", ")", '"', ".", ", ok", "\n");
    const wrapped = fc.oneof(
      id,
      id.map((i) => `vault_ref:${i}`),
      fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => `blake3:${Buffer.from(b).toString("hex")}`),
      fc
        .date({ min: new Date("2000-01-01"), max: new Date("2099-12-31"), noInvalidDate: true })
        .map((d) => d.toISOString()),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(around, wrapped, after), { minLength: 1, maxLength: 4 }), (parts) => {
        const text = parts.map(([a, v, b]) => `${a}${v}${b}`).join(" ");
        expect(findPii(text)).toEqual([]);
        expect(scrubText("tnt_x", text, fakeVault()).text).toBe(text);
      }),
      { numRuns: 500 },
    );
  });

  it("a phone next to ids is vaulted and the ids are kept, in Office's scrub and the chat scrub", () => {
    const job = newId("job", 1_766_830_500_000);
    const text = `Job ${job}: call Maria at +351 912 345 678 before 2025-12-27T10:15:00Z (ref vault_ref:${newId("vlt")})`;
    const found = findPii(text);
    expect(found.map((f) => f.value)).toEqual(["+351 912 345 678"]);
    const vault = fakeVault();
    const r = scrubText("tnt_x", text, vault);
    expect(vault.values).toEqual(["+351 912 345 678"]);
    expect(r.text).toBe(text.replace("+351 912 345 678", "***-***-678"));
    expect(r.text).toContain(job);
  });
});
