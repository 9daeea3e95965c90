/**
 * The latest people's messages (event id → sender), at most `capacity`, the oldest dropped
 * first: a ring of slots and a map of id → slot. Dropping the oldest is one slot read, where
 * taking the first key of a `Map` that entries keep leaving walks past every deleted entry
 * still in its table (≈ 1 µs a message at 1,024 here). `add` returns its own exact undo.
 */
export class RecentSenders {
  private readonly slots = new Map<string, number>();
  private readonly ids: (string | undefined)[];
  private readonly senders: (string | undefined)[];
  private next = 0;

  constructor(private readonly capacity: number) {
    this.ids = new Array(capacity).fill(undefined);
    this.senders = new Array(capacity).fill(undefined);
  }

  get(eventId: string): string | undefined {
    const slot = this.slots.get(eventId);
    return slot === undefined ? undefined : this.senders[slot];
  }

  /** Adds a message not held yet (event ids are unique); the undo puts back what it replaced. */
  add(eventId: string, sender: string): () => void {
    const slot = this.next;
    const oldId = this.ids[slot];
    const oldSender = this.senders[slot];
    if (oldId !== undefined) this.slots.delete(oldId);
    this.ids[slot] = eventId;
    this.senders[slot] = sender;
    this.slots.set(eventId, slot);
    this.next = slot + 1 === this.capacity ? 0 : slot + 1;
    return () => {
      this.slots.delete(eventId);
      this.ids[slot] = oldId;
      this.senders[slot] = oldSender;
      if (oldId !== undefined) this.slots.set(oldId, slot);
      this.next = slot;
    };
  }

  /** Every held id with its sender. */
  *entries(): IterableIterator<[string, string]> {
    for (const [id, slot] of this.slots) yield [id, this.senders[slot]!];
  }
}
