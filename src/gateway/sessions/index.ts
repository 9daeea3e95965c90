/** Signing in anywhere: device labels, one-time sign-in links, and sign-in email. */
export { deviceLabel } from "./device-label.js";
export { createSignInLinks, type LinkPurpose, type SignInLinks } from "./sign-in-links.js";
export { signInMessage, type SignInMailer } from "./sign-in-mail.js";
