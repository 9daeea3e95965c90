// @ts-check
// Shared JSDoc types. The wire shapes come from contracts/ (zod-inferred), never re-declared.

/** @typedef {import('../contracts/cards').TJobCard} JobCard */
/** @typedef {import('../contracts/cards').TFormalizeCard} FormalizeCard */
/** @typedef {import('../contracts/cards').TTrackingCard} TrackingCard */
/** @typedef {import('../contracts/cards').TFinishedCard} FinishedCard */
/** @typedef {import('../contracts/cards').TCardButton} CardButton */
/** @typedef {import('../contracts/cards').TCardAction} CardAction */
/** @typedef {import('../contracts/cards').TInputSchema} InputSchema */
/** @typedef {import('../contracts/cards').TInputField} InputField */
/** @typedef {import('../contracts/cards').TArtifactRef} ArtifactRef */
/** @typedef {import('../contracts/gateway').TTimelineItem} TimelineItem */
/** @typedef {import('../contracts/gateway').TConversationSummary} ConversationSummary */
/** @typedef {import('../contracts/gateway-responses').TChannelList['channels'][number]} Channel */
/** @typedef {import('../contracts/gateway').TJobDrawerResponse} JobDrawer */
/** @typedef {import('../contracts/gateway').TJobTimelineItem} JobTimelineItem */
/** @typedef {import('../contracts/search').TSearchResults} SearchResults */
/** @typedef {import('../contracts/search').TSearchHit} SearchHit */
/** @typedef {import('../contracts/gateway').TAcceptedResponse} Accepted */
/** @typedef {import('../contracts/gateway').TPresenceState} PresenceState */
/** @typedef {import('../contracts/primitives').TJobState} JobState */

/**
 * Presence as the UI keeps it (the gateway's Presence without tenant).
 * @typedef {{ state: PresenceState, job_id?: string, job_title?: string, detail?: string, since?: string,
 *   connection?: 'online' | 'away' | 'offline', last_seen_at?: string }} Presence
 */

/**
 * A coworker or contact as the directory returns it; fields beyond these are ignored.
 * @typedef {{ entity_id: string, display_name: string, actor_type?: 'human'|'agent'|'system',
 *   role?: string, roles?: string[], capabilities?: string[], email?: string, phone?: string, kind?: string,
 *   avatar_url?: string, time_zone?: string, locale?: string, status_text?: string, status_until?: string, dnd_until?: string }} Entity
 */

/** @typedef {{ entity_id: string, tenant_id: string, display_name: string, roles?: string[], email?: string | null, read_receipts?: boolean, calls?: boolean }} Me */

/**
 * The job header the UI tracks for chips, drawer and stale-button detection.
 * @typedef {{ job_id: string, conversation_id?: string, title?: string, state: JobState,
 *   updated_at?: string, available_actions?: CardButton[], actions_card_id?: string, open?: boolean, waiting_on?: {entity_id:string,display_name:string}[] }} JobHead
 */

/**
 * An optimistic bubble shown before the server confirms (a text, a card action, or a file on its
 * way up with its progress from 0 to 1 and a cancel).
 * @typedef {{ local_id: string, kind: 'text'|'action'|'file', text: string, ts: string,
 *   status: 'sending'|'queued'|'sent'|'failed'|'waiting', event_ids: string[], retry: () => void,
 *   progress?: number, cancel?: () => void, size?: number }} LocalBubble
 */

/** @typedef {import('../contracts/llm').TThreadContextView} ThreadContext */
/** @typedef {import('../contracts/llm').TAssistResponse} AssistResponse */
/** @typedef {import('../contracts/llm').TSuggestionView} SuggestionView */
/** @typedef {import('../contracts/llm').TActionSummary} ActionSummary */
/** @typedef {import('../contracts/llm').TSurface} Surface */
/** @typedef {import('../contracts/llm').TRenderDoc} RenderDoc */
/** @typedef {import('../contracts/llm').TRenderBlock} RenderBlock */

export {};

/** One of my sessions (GET /v1/sessions). @typedef {{ session_id: string, device: string | null, signed_in_via: string | null, created_at: string, last_seen_at: string | null, current: boolean }} SessionInfo */
/** One of my passkeys (GET /v1/passkeys). @typedef {{ passkey_id: string, device: string | null, created_at: string, last_used_at: string | null }} PasskeyInfo */
