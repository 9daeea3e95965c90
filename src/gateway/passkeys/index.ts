/** Passkeys (WebAuthn credentials) and their single-use challenges. */
export { createPasskeys, type PasskeyInfo, type Passkeys } from "./passkeys.js";
