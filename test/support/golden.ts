import { SSE_EVENT_NAMES } from "../../contracts/sse.js";
import { EventSource } from "eventsource";
import { getJson, postJson, waitFor } from "./server.js";

/** Values a person would type into the Provide-info modal, by field. */
export function fillInput(
  schema:
    | {
        fields: Array<{
          key: string;
          type: string;
          required?: boolean;
          options?: Array<{ value: string }>;
          default_value?: unknown;
        }>;
      }
    | undefined,
) {
  const out: Record<string, string> = {};
  for (const f of schema?.fields ?? []) {
    // The pasted-link box is for "Paste a link" only; the first place offered (Jitsi) needs none.
    if (f.key === "meeting_url") {
      if (f.required) out[f.key] = "https://meet.example.com/weekly-sync";
    } else if (/email|contact/.test(f.key)) out[f.key] = "maria@acme.com";
    else if (f.type === "select") out[f.key] = f.options?.[0]?.value ?? "jitsi";
    else if (f.key === "time_window") out[f.key] = "Tue–Thu, 14:00–17:00";
    else if (f.key === "timezone") out[f.key] = "Europe/Lisbon";
    else out[f.key] = typeof f.default_value === "string" ? f.default_value : "ok";
  }
  return out;
}

export interface Frame {
  event: string;
  id: string;
  data: any;
}

/**
 * A real EventSource (the `eventsource` package) on /v1/stream, authenticated like a browser:
 * the session cookie, plus Last-Event-ID when resuming. Collects every frame.
 */
export function openStream(
  url: string,
  opts: { token: string; lastEventId?: string; cookie?: boolean; query?: string },
) {
  const frames: Frame[] = [];
  const names = SSE_EVENT_NAMES;
  const es = new EventSource(`${url}/v1/stream${opts.query ?? ""}`, {
    fetch: (input, init) =>
      fetch(input, {
        ...init,
        headers: {
          ...(init?.headers as Record<string, string>),
          ...(opts.cookie === false
            ? { authorization: `Bearer ${opts.token}` }
            : { cookie: `ll_session=${opts.token}` }),
          ...(opts.lastEventId ? { "last-event-id": opts.lastEventId } : {}),
        },
      }),
  });
  for (const n of names) {
    es.addEventListener(n, (ev) => {
      const m = ev as MessageEvent;
      if (n === "error" && !m.data) return;
      frames.push({ event: n, id: m.lastEventId, data: JSON.parse(m.data) });
    });
  }
  return {
    es,
    frames,
    lastId: () => [...frames].reverse().find((f) => f.id)?.id ?? "",
    waitFor: (pred: (f: Frame) => boolean, ms = 8000, what = "frame") => waitFor(() => frames.find(pred), ms, what),
    close: () => es.close(),
  };
}

export const cardFrame = (type: string) => (f: Frame) =>
  f.event === "timeline.append" && f.data.item.message.card?.card_type === type;

/** Clicks the first button of `card` whose action is `type`, filling its input schema if any. */
export async function click(url: string, token: string, card: any, type: string, key?: string) {
  const btn = card.buttons.find((b: any) => b.action.type === type);
  if (!btn) throw new Error(`no ${type} button on ${card.card_type}`);
  const needsInput = btn.action.input_schema !== undefined;
  return postJson(
    `${url}/v1/jobs/${card.job_id}/actions`,
    token,
    {
      conversation_id: card.conversation_id,
      card_id: card.card_id,
      button_id: btn.button_id,
      action: btn.action,
      ...(needsInput ? { input: fillInput(btn.action.input_schema) } : {}),
    },
    key,
  );
}

export async function timelineOf(url: string, token: string, conversationId: string) {
  return (await getJson(`${url}/v1/conversations/${conversationId}/timeline?limit=1000`, token)).body.items as any[];
}
