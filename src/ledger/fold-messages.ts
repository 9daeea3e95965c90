import type { MessageFacts } from "./policy/types.js";

/**
 * A tenant's chat messages as the fold keeps them: message id → a row number, and the row's
 * facts in typed columns (conversation and author as numbers into one table of ids, the send
 * time, the deleted flag). A million messages cost a map of ids to small integers and ≈ 17 bytes
 * a row, where one object per message cost about twice that and a boxed number besides.
 * `get` builds the facts on demand; rows are never reused, so a row number stays valid.
 */
export class MessageTable {
  private readonly rows = new Map<string, number>();
  private readonly names: string[] = [];
  private readonly nameIds = new Map<string, number>();
  private conv = new Uint32Array(1024);
  private author = new Uint32Array(1024);
  private tsMs = new Float64Array(1024);
  private deletedFlags = new Uint8Array(1024);
  private next = 0;

  has(messageId: string): boolean {
    return this.rows.has(messageId);
  }

  /** Adds a message not held yet; returns its row. */
  add(messageId: string, conversationId: string, authorEntityId: string, tsMs: number): number {
    if (this.next === this.conv.length) this.grow();
    const row = this.next++;
    this.conv[row] = this.nameId(conversationId);
    this.author[row] = this.nameId(authorEntityId);
    this.tsMs[row] = tsMs;
    this.deletedFlags[row] = 0;
    this.rows.set(messageId, row);
    return row;
  }

  /** Forgets a message (the undo of `add`); its row is left unused. */
  remove(messageId: string): void {
    this.rows.delete(messageId);
  }

  /** The message's row, or undefined. */
  rowOf(messageId: string): number | undefined {
    return this.rows.get(messageId);
  }

  isDeleted(row: number): boolean {
    return this.deletedFlags[row] === 1;
  }

  setDeleted(row: number, deleted: boolean): void {
    this.deletedFlags[row] = deleted ? 1 : 0;
  }

  get(messageId: string): MessageFacts | undefined {
    const row = this.rows.get(messageId);
    return row === undefined ? undefined : this.facts(row);
  }

  /** Every message id with its facts, in insertion order. */
  *entries(): IterableIterator<[string, MessageFacts]> {
    for (const [id, row] of this.rows) yield [id, this.facts(row)];
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
    const conv = new Uint32Array(n);
    conv.set(this.conv);
    this.conv = conv;
    const author = new Uint32Array(n);
    author.set(this.author);
    this.author = author;
    const ts = new Float64Array(n);
    ts.set(this.tsMs);
    this.tsMs = ts;
    const deleted = new Uint8Array(n);
    deleted.set(this.deletedFlags);
    this.deletedFlags = deleted;
  }
}
