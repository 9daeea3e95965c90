import type { TStoredEvent } from "../../contracts/events.js";
import type { ScanRow } from "./store.js";

/** A stored row back to the event it holds: the hashed envelope plus its chain links. */
export function toStoredEvent(row: ScanRow): TStoredEvent {
  const event = JSON.parse(row[1]) as TStoredEvent;
  event.integrity = { hash: row[3], prev_hash: row[2] };
  return event;
}
