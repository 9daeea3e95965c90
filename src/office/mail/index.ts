/**
 * Office's outgoing mail: the SMTP transport, the iMIP invite builder and the outbox worker
 * that delivers `office_outbox` rows with retries. Wiring (which vault, which artifact, which
 * ledger events in the hooks) belongs to whoever creates the worker.
 */
export { createSmtpTransport, type MailTransport, type SendResult, type SmtpTransportOptions } from "./smtp-transport.js";
export { buildInviteMessage, stableMessageId, type InviteMessageInput, type MailAddress, type Recipient } from "./invite-message.js";
export {
  createOutboxWorker,
  DEFAULT_MAIL_SCHEDULE_MS,
  type DeliveryHooks,
  type DeliveryOutcome,
  type OutboxWorker,
  type OutboxWorkerDeps,
  type ResendResult,
} from "./outbox-worker.js";
export type { OutboxDelivery, OutboxRow, OutboxStatus } from "./outbox-store.js";
export { classifyFailure, scrubAddresses, type FailureClass } from "./classify.js";
