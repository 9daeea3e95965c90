/**
 * The latest people's messages (event id → sender), at most `capacity`, the oldest dropped
 * first: a ring of slots and nothing else. Adding is two slot writes, where a `Map` cost a hash
 * of the id, an insert and a delete per message (and taking its first key walked past every
 * deleted entry still in its table, ≈ 1 µs a message at 1,024 here). A lookup reads the ring
 * newest first: it is asked only when an agent opens a job, about the message it is answering,
 * which is among the latest.
 */
export class RecentSenders {
  private readonly ids: (string | undefined)[];
  private readonly senders: (string | undefined)[];
  private next = 0;

  constructor(private readonly capacity: number) {
    this.ids = new Array(capacity).fill(undefined);
    this.senders = new Array(capacity).fill(undefined);
  }

  get(eventId: string): string | undefined {
    const { ids, capacity } = this;
    for (let n = 0, slot = this.next; n < capacity; n++) {
      slot = slot === 0 ? capacity - 1 : slot - 1;
      const id = ids[slot];
      if (id === undefined) return undefined;
      if (id === eventId) return this.senders[slot];
    }
    return undefined;
  }

  /** Adds a message not held yet (event ids are unique), in place of the oldest when full. */
  add(eventId: string, sender: string): void {
    const slot = this.next;
    this.ids[slot] = eventId;
    this.senders[slot] = sender;
    this.next = slot + 1 === this.capacity ? 0 : slot + 1;
  }

  /** Taken just before an `add`, undoes it exactly (what the slot held, and where the ring was). */
  undoOfAdd(): () => void {
    const slot = this.next;
    const oldId = this.ids[slot];
    const oldSender = this.senders[slot];
    return () => {
      this.ids[slot] = oldId;
      this.senders[slot] = oldSender;
      this.next = slot;
    };
  }

  /** Every held id with its sender. */
  *entries(): IterableIterator<[string, string]> {
    for (let slot = 0; slot < this.capacity; slot++) {
      const id = this.ids[slot];
      if (id !== undefined) yield [id, this.senders[slot]!];
    }
  }
}
