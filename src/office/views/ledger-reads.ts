import type { TStoredEvent } from "../../../contracts/events.js";
import type { TQueryRequest } from "../../../contracts/ledger.js";
import type { LedgerDoorApi } from "../../ledger/index.js";

/** Every event matching a query, paging through the ledger's cursor; only a ledger whose reads answer at once (SQLite). */
export function queryAll(ledger: LedgerDoorApi, req: Omit<TQueryRequest, "limit" | "after_cursor">): TStoredEvent[] {
  const out: TStoredEvent[] = [];
  let after: string | undefined;
  for (;;) {
    const page = ledger.query({ ...req, limit: 1000, ...(after ? { after_cursor: after } : {}) });
    if (page instanceof Promise) throw new Error("queryAll needs a ledger whose reads answer at once");
    out.push(...page.events);
    if (!page.next_cursor || page.events.length < 1000) break;
    after = page.next_cursor;
  }
  return out;
}

/** `queryAll` through the door every ledger offers, whose reads may answer later. */
export async function readAll(
  ledger: LedgerDoorApi,
  req: Omit<TQueryRequest, "limit" | "after_cursor">,
): Promise<TStoredEvent[]> {
  const out: TStoredEvent[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await ledger.query({ ...req, limit: 1000, ...(after ? { after_cursor: after } : {}) });
    out.push(...page.events);
    if (!page.next_cursor || page.events.length < 1000) break;
    after = page.next_cursor;
  }
  return out;
}
