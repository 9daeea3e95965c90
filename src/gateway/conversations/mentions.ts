import { AppError } from "../../shared/errors.js";
import type { Principal } from "../auth/token-store.js";
import type { Core } from "../core.js";
import type { ConversationRow } from "../projections/state.js";

/**
 * The mentions of a message: each a member of the conversation, or an agent of the workspace
 * (who is then offered to be added). Duplicates are dropped; anyone else is refused.
 */
export function checkMentions(
  core: Core,
  p: Principal,
  conv: ConversationRow,
  mentions: ReadonlyArray<{ entity_id: string }> | undefined,
): Array<{ entity_id: string }> {
  if (!mentions?.length) return [];
  const state = core.tenant(p.tenantId);
  const seen = new Set<string>();
  mentions.forEach((m, i) => {
    const e = state.entities.get(m.entity_id);
    if (!conv.participants.has(m.entity_id) && e?.actor_type !== "agent") {
      throw new AppError(
        "VALIDATION_ERROR",
        "A mention must name a member of this conversation or an agent of the workspace",
        { field: `mentions[${i}].entity_id` },
      );
    }
    seen.add(m.entity_id);
  });
  return [...seen].map((entity_id) => ({ entity_id }));
}
