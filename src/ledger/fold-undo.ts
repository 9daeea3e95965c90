import type { Undo } from "./fold-state.js";

/**
 * The fold's undo log. A mark is a position in the log, which is recorded only while a mark is
 * open, so boot replay (no marks) pays nothing for it. `rollbackTo(m)` undoes back to m (m stays
 * open, later marks close); `release(m)` forgets undo information before m and closes marks up
 * to m; with no mark left open the log is dropped. Marks nest: one per commit, one per batch
 * inside it.
 */
export class UndoLog {
  private readonly log: Undo[] = [];
  /** Position of log[0]: positions stay valid when released entries are dropped. */
  private base = 0;
  /** Open marks (positions). Undo is recorded only while one is open. */
  private readonly marks = new Set<number>();

  /** Whether a mark is open (callers check it before building an undo they would otherwise drop). */
  get recording(): boolean {
    return this.marks.size > 0;
  }

  record(u: Undo): void {
    if (this.marks.size) this.log.push(u);
  }

  setInMap<K, V>(map: Map<K, V>, key: K, value: V): void {
    if (this.marks.size) {
      const had = map.has(key);
      const prev = map.get(key);
      this.log.push(() => (had ? map.set(key, prev as V) : map.delete(key)));
    }
    map.set(key, value);
  }

  addToSet<T>(set: Set<T>, value: T): void {
    if (set.has(value)) return;
    set.add(value);
    this.record(() => set.delete(value));
  }

  mark(): number {
    const pos = this.base + this.log.length;
    this.marks.add(pos);
    return pos;
  }

  rollbackTo(pos: number): void {
    if (pos < this.base) throw new Error(`fold.rollbackTo(${pos}): undo information before ${this.base} was released`);
    while (this.base + this.log.length > pos) (this.log.pop() as Undo)();
    for (const m of this.marks) if (m > pos) this.marks.delete(m);
  }

  release(pos: number): void {
    for (const m of this.marks) if (m <= pos) this.marks.delete(m);
    if (this.marks.size === 0) {
      this.base += this.log.length;
      this.log.length = 0;
      return;
    }
    const drop = Math.min(pos - this.base, this.log.length);
    if (drop > 0) {
      this.log.splice(0, drop);
      this.base += drop;
    }
  }
}
