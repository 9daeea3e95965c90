import { createPrivateKey, createPublicKey, sign } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  checkpointText,
  keyIdOf,
  openNote,
  parseCheckpoint,
  parseNote,
  parseVerifierKey,
  signNote,
  verifierKey,
} from "../../../src/ledger/merkle/note.js";

// The example of golang.org/x/mod/sumdb/note (its package documentation and note_test.go):
// Ed25519 is deterministic, so signing the same text with the same key must give the same note
// byte for byte, and our verifier must open Go's note.
const GO_SKEY = "PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz";
const GO_VKEY = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW";
const GO_TEXT = "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n";
const GO_NOTE = `${GO_TEXT}\n\u2014 PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n`;

const seed = Buffer.from(GO_SKEY.split("+").slice(4).join("+"), "base64").subarray(1);
const privateKey = createPrivateKey({
  key: Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), seed]),
  format: "der",
  type: "pkcs8",
});
const publicKey = createPublicKey(privateKey).export({ type: "spki", format: "der" }).subarray(-32);
const signer = (m: Buffer) => sign(null, m, privateKey);

describe("C2SP signed notes", () => {
  it("reproduces Go's signed note and verifier key byte for byte", () => {
    expect(verifierKey("PeterNeumann", publicKey)).toBe(GO_VKEY);
    expect(keyIdOf("PeterNeumann", publicKey).toString(16)).toBe("c74f20a3");
    expect(signNote(GO_TEXT, "PeterNeumann", publicKey, signer)).toBe(GO_NOTE);
  });

  it("opens Go's note with its verifier key, and nothing altered", () => {
    const v = parseVerifierKey(GO_VKEY);
    expect(openNote(GO_NOTE, v)).toBe(GO_TEXT);
    expect(openNote(GO_NOTE.replace("cryptography", "cryptographY"), v)).toBeNull();
    const sig = parseNote(GO_NOTE).signatures[0]!;
    for (let bit = 0; bit < 64 * 8; bit += 29) {
      const bad = Buffer.from(sig.signature);
      bad.writeUInt8(bad.readUInt8(bit >> 3) ^ (1 << (bit & 7)), bit >> 3);
      const line = Buffer.concat([Buffer.from([0xc7, 0x4f, 0x20, 0xa3]), bad]).toString("base64");
      expect(openNote(`${GO_TEXT}\n\u2014 PeterNeumann ${line}\n`, v)).toBeNull();
    }
    // Another name or key id is not this key's signature.
    expect(openNote(GO_NOTE.replace("\u2014 PeterNeumann", "\u2014 PeterNeuman"), v)).toBeNull();
  });

  it("reads a key whose base64 holds a '+' (transparency-dev's test key)", () => {
    const v = parseVerifierKey("TEST+7997405c+AQcC+FTVKf0jlTdHDY3rbevmnKxxPjigCXlVtGe6RIr6");
    expect(v).toMatchObject({ name: "TEST", keyId: 0x7997405c });
    expect(verifierKey("TEST", v.publicKey)).toBe("TEST+7997405c+AQcC+FTVKf0jlTdHDY3rbevmnKxxPjigCXlVtGe6RIr6");
  });

  it("refuses malformed verifier keys", () => {
    expect(() => parseVerifierKey("PeterNeumann+c74f20a4+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW")).toThrow(
      /key id/,
    );
    expect(() => parseVerifierKey("PeterNeumann+c74f20a3+AhpcMQcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW")).toThrow();
    expect(() => parseVerifierKey("Peter Neumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW")).toThrow();
    expect(() => parseVerifierKey("PeterNeumann+c74f20a3")).toThrow();
    expect(() => verifierKey("bad name", publicKey)).toThrow();
  });

  it("checkpoint bodies round-trip and bad ones are refused", () => {
    const root = Buffer.alloc(32, 7);
    const text = checkpointText({ origin: "chat.example.com/tnt_a", size: 42, root });
    expect(text).toBe(`chat.example.com/tnt_a\n42\n${root.toString("base64")}\n`);
    expect(parseCheckpoint(text)).toEqual({ origin: "chat.example.com/tnt_a", size: 42, root });
    expect(parseCheckpoint(`${text}extension line\n`).size).toBe(42);
    expect(() => parseCheckpoint("o\n042\nAAAA\n")).toThrow();
    expect(() => parseCheckpoint(`o\n1\n${Buffer.alloc(31).toString("base64")}\n`)).toThrow();
    expect(() => parseCheckpoint("o\n1\n")).toThrow();
  });
});
