import { ZReceipt } from "../../../contracts/ledger.js";
import { openNote, parseCheckpoint, parseVerifierKey, type NoteVerifier } from "./note.js";
import { leafHash, verifyInclusion } from "./rfc6962.js";

export class ReceiptError extends Error {}

export interface ReceiptCheck {
  job_id: string;
  tenant_id: string;
  events: number;
  origin: string;
  tree_size: number;
  /** The verifier key the checkpoint is signed by. */
  key: string;
  /** Whether that key came from the caller (`--key`) rather than from the receipt itself. */
  key_trusted: boolean;
}

/**
 * Checks a job receipt offline: the checkpoint note is signed by one of the keys (the caller's
 * if given, else the ones the receipt names), every leaf is an event of that job and tenant at
 * the position it claims, and every inclusion proof leads to the signed root.
 */
export function verifyReceipt(input: unknown, trusted?: readonly string[]): ReceiptCheck {
  const parsed = ZReceipt.safeParse(input);
  if (!parsed.success)
    throw new ReceiptError(
      `not a LogLine receipt: ${parsed.error.issues[0]?.path.join(".") || "(root)"} ${parsed.error.issues[0]?.message ?? ""}`.trim(),
    );
  const r = parsed.data;
  const keys = trusted && trusted.length > 0 ? trusted : r.verifier_keys;
  let signedBy: { line: string; text: string } | null = null;
  for (const line of keys) {
    let v: NoteVerifier;
    try {
      v = parseVerifierKey(line);
    } catch (e) {
      throw new ReceiptError(`bad verifier key ${JSON.stringify(line)}: ${(e as Error).message}`);
    }
    let text: string | null;
    try {
      text = openNote(r.checkpoint, v);
    } catch (e) {
      throw new ReceiptError(`the checkpoint is not a signed note: ${(e as Error).message}`);
    }
    if (text !== null) {
      signedBy = { line, text };
      break;
    }
  }
  if (!signedBy) throw new ReceiptError("the checkpoint is not signed by any of the verifier keys");
  let cp: ReturnType<typeof parseCheckpoint>;
  try {
    cp = parseCheckpoint(signedBy.text);
  } catch (e) {
    throw new ReceiptError(`the signed checkpoint is malformed: ${(e as Error).message}`);
  }
  if (!cp.origin.endsWith(`/${r.tenant_id}`))
    throw new ReceiptError(`the checkpoint is of log ${cp.origin}, not of tenant ${r.tenant_id}`);
  if (r.events.length === 0) throw new ReceiptError("the receipt holds no events");
  for (const e of r.events) {
    const bytes = Buffer.from(e.leaf, "base64");
    let event: { tenant_id?: unknown; job_id?: unknown; seq?: unknown; event_type?: unknown };
    try {
      event = JSON.parse(bytes.toString("utf8")) as typeof event;
    } catch {
      throw new ReceiptError(`leaf ${e.tenant_seq} is not an event`);
    }
    if (
      event.tenant_id !== r.tenant_id ||
      event.job_id !== r.job_id ||
      event.seq !== e.tenant_seq ||
      event.event_type !== e.event_type
    ) {
      throw new ReceiptError(`leaf ${e.tenant_seq} is not event #${e.tenant_seq} (${e.event_type}) of job ${r.job_id}`);
    }
    const proof = e.proof.map((h) => Buffer.from(h, "base64"));
    if (!verifyInclusion(leafHash(bytes), e.tenant_seq - 1, cp.size, proof, cp.root)) {
      throw new ReceiptError(
        `event #${e.tenant_seq} (${e.event_type}) is not included in the signed tree of size ${cp.size}`,
      );
    }
  }
  return {
    job_id: r.job_id,
    tenant_id: r.tenant_id,
    events: r.events.length,
    origin: cp.origin,
    tree_size: cp.size,
    key: signedBy.line,
    key_trusted: keys !== r.verifier_keys,
  };
}
