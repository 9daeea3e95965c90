import type { MessageFacts } from "./policy/types.js";
import { PrintTable } from "./print-table.js";

/** FNV-1a over the UTF-16 units, folded to 30 bits so it is a small integer on every V8 build. */
export function fingerprint(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return (h ^ (h >>> 30)) & 0x3fffffff;
}

/**
 * A tenant's chat messages as the fold keeps them: a row number per message and the row's
 * facts in typed columns (conversation and author as numbers into one table of ids, the send
 * time, the deleted flag). `get` builds the facts on demand; rows are never reused, so a row
 * number stays valid.
 *
 * Given `idAt` (the message id the log holds at a tenant seq), a row is found by a 30-bit
 * fingerprint of its id (a small integer key) and the id itself is not kept: the row keeps
 * the tenant seq of its `message.sent`, and a fingerprint that matches is confirmed by asking
 * the log. Ids whose fingerprint another row already holds are kept whole in `exact`. A million
 * messages then cost ≈ 40–60 bytes a row, where a map of the id strings cost about twice that and
 * kept every id alive. Without `idAt` every id is kept in `exact`.
 */
export class MessageTable {
  private readonly byPrint = new PrintTable();
  private readonly exact = new Map<string, number>();
  private readonly names: string[] = [];
  private readonly nameIds = new Map<string, number>();
  private conv = new Uint32Array(1024);
  private author = new Uint32Array(1024);
  private tsMs = new Float64Array(1024);
  private seqs = new Float64Array(1024);
  private deletedFlags = new Uint8Array(1024);
  private next = 0;

  constructor(private readonly idAt?: (tenantSeq: number) => string | undefined) {}

  has(messageId: string): boolean {
    return this.rowOf(messageId) !== undefined;
  }

  /**
   * Adds a message unless its id is held; returns its row, or -1 when the id was held.
   * `tenantSeq` is the seq of the event that sent it.
   */
  addNew(messageId: string, conversationId: string, authorEntityId: string, tsMs: number, tenantSeq: number): number {
    if (this.exact.size > 0 && this.exact.has(messageId)) return -1;
    const idAt = this.idAt;
    let print = -1;
    if (idAt) {
      print = fingerprint(messageId);
      const held = this.byPrint.get(print);
      if (held !== -1) {
        if (idAt(this.seqs[held]!) === messageId) return -1;
        print = -1;
      }
    }
    if (this.next === this.conv.length) this.grow();
    const row = this.next++;
    this.conv[row] = this.nameId(conversationId);
    this.author[row] = this.nameId(authorEntityId);
    this.tsMs[row] = tsMs;
    this.seqs[row] = tenantSeq;
    this.deletedFlags[row] = 0;
    if (print === -1) this.exact.set(messageId, row);
    else this.byPrint.set(print, row);
    return row;
  }

  /** Forgets the message at `row` (the undo of `addNew`, which reads nothing); the row is left unused. */
  remove(messageId: string, row: number): void {
    if (this.exact.get(messageId) === row) this.exact.delete(messageId);
    else if (this.idAt) {
      const print = fingerprint(messageId);
      if (this.byPrint.get(print) === row) this.byPrint.delete(print);
    }
  }

  /** The message's row, or undefined. */
  rowOf(messageId: string): number | undefined {
    if (this.exact.size > 0) {
      const row = this.exact.get(messageId);
      if (row !== undefined) return row;
    }
    if (!this.idAt) return undefined;
    const row = this.byPrint.get(fingerprint(messageId));
    return row !== -1 && this.idAt(this.seqs[row]!) === messageId ? row : undefined;
  }

  isDeleted(row: number): boolean {
    return this.deletedFlags[row] === 1;
  }

  setDeleted(row: number, deleted: boolean): void {
    this.deletedFlags[row] = deleted ? 1 : 0;
  }

  get(messageId: string): MessageFacts | undefined {
    const row = this.rowOf(messageId);
    return row === undefined ? undefined : this.facts(row);
  }

  /** Every message id with its facts (ids found by fingerprint are read from the log). */
  *entries(): IterableIterator<[string, MessageFacts]> {
    for (const [id, row] of this.exact) yield [id, this.facts(row)];
    if (!this.idAt) return;
    const exactRows = new Set(this.exact.values());
    for (let row = 0; row < this.next; row++) {
      if (exactRows.has(row)) continue;
      const id = this.idAt(this.seqs[row]!);
      if (id !== undefined && this.byPrint.get(fingerprint(id)) === row) yield [id, this.facts(row)];
    }
  }

  private facts(row: number): MessageFacts {
    return {
      conversation_id: this.names[this.conv[row]!]!,
      author_entity_id: this.names[this.author[row]!]!,
      ts_ms: this.tsMs[row]!,
      deleted: this.deletedFlags[row] === 1,
    };
  }

  private nameId(name: string): number {
    let id = this.nameIds.get(name);
    if (id === undefined) {
      id = this.names.length;
      this.names.push(name);
      this.nameIds.set(name, id);
    }
    return id;
  }

  private grow(): void {
    const n = this.conv.length * 2;
    this.conv = grown(new Uint32Array(n), this.conv);
    this.author = grown(new Uint32Array(n), this.author);
    this.tsMs = grown(new Float64Array(n), this.tsMs);
    this.seqs = grown(new Float64Array(n), this.seqs);
    this.deletedFlags = grown(new Uint8Array(n), this.deletedFlags);
  }
}

function grown<T extends Uint8Array | Uint32Array | Float64Array>(to: T, from: T): T {
  to.set(from);
  return to;
}
