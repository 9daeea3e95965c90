/**
 * Office's outgoing mail: the SMTP transport, the iMIP invite builder and the outbox worker
 * that delivers `office_outbox` rows with retries. Wiring (which vault, which artifact, which
 * ledger events in the hooks) belongs to whoever creates the worker.
 */
export { createSmtpTransport, type MailTransport } from "./smtp-transport.js";
export { buildInviteMessage, stableMessageId } from "./invite-message.js";
export {
  createOutboxWorker,
  type DeliveryHooks,
  type DeliveryOutcome,
  type OutboxWorker,
  type OutboxWorkerDeps,
} from "./outbox-worker.js";
export type { OutboxDelivery, OutboxRow } from "./outbox-store.js";
export { classifyFailure, scrubAddresses } from "./classify.js";
