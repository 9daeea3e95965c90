// @ts-check
// The browser's side of passkeys: the WebAuthn calls, with the options and answers as JSON
// (PublicKeyCredential.parse…OptionsFromJSON and toJSON), so no encoding is written by hand.
import { api } from "./api.js";

/** @returns {any} */
const PKC = () => /** @type {any} */ (globalThis).PublicKeyCredential;

/** A bare IPv4 or IPv6 address: browsers allow passkeys only for a domain name (or localhost). */
const onAnAddress = () => /^(\d{1,3}\.){3}\d{1,3}$/.test(location.hostname) || location.hostname.startsWith("[");

/** True when this browser can make and use passkeys with JSON options, on a site that may have them. */
export function passkeysSupported() {
  const pkc = PKC();
  return Boolean(
    pkc &&
      typeof pkc.parseCreationOptionsFromJSON === "function" &&
      typeof pkc.parseRequestOptionsFromJSON === "function" &&
      navigator.credentials &&
      !onAnAddress(),
  );
}

/** Makes a passkey for the signed-in person and registers it. */
export async function addPasskey() {
  const options = await api.passkeyRegistrationOptions();
  const credential = /** @type {any} */ (
    await navigator.credentials.create({ publicKey: PKC().parseCreationOptionsFromJSON(options) })
  );
  return api.registerPasskey(credential.toJSON());
}

/** Signs in with a passkey the authenticator offers; resolves with the new session's token. */
export async function signInWithPasskey() {
  const options = await api.passkeySignInOptions();
  const credential = /** @type {any} */ (
    await navigator.credentials.get({ publicKey: PKC().parseRequestOptionsFromJSON(options) })
  );
  return api.signInWithPasskey(credential.toJSON());
}

/** A WebAuthn call the person cancelled or let time out (nothing to report as a failure). @param {unknown} err */
export const isCancelled = (err) =>
  err instanceof DOMException && (err.name === "NotAllowedError" || err.name === "AbortError");
