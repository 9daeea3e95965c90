/** What the gateway needs to send a sign-in link: one plain message to one address. */
export interface SignInMailer {
  /** Resolves once the mail server took the message; rejects otherwise. */
  send(message: { to: string; subject: string; text: string }): Promise<void>;
}

/** The words of a sign-in email, built from facts only (who, which link, how long). */
export function signInMessage(input: { displayName: string; url: string; ttlMinutes: number }): {
  subject: string;
  text: string;
} {
  return {
    subject: "Your LogLine sign-in link",
    text: [
      `Hello ${input.displayName},`,
      "",
      "Open this link to sign in to LogLine on this device:",
      "",
      input.url,
      "",
      `It works once, within ${input.ttlMinutes} minute${input.ttlMinutes === 1 ? "" : "s"}, and signs you in as yourself, with your conversations.`,
      "If you did not ask for it, ignore this email: nobody can use it without opening it.",
      "",
    ].join("\n"),
  };
}
