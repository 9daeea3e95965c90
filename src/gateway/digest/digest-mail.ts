import { pickLocale, translator } from "../../shared/i18n.js";

/** One thing that waited on the person, with the link that opens it. */
export interface DigestLine {
  kind: string;
  title: string;
  body: string;
  url: string;
}

/**
 * The words of a digest e-mail, in the person's language: what waited on them, each with its
 * link into the Messenger (the configured public address plus the app's own path, nothing else).
 */
export function digestMessage(input: {
  displayName: string;
  locale: string | undefined;
  afterMinutes: number;
  lines: DigestLine[];
}): { subject: string; text: string } {
  const t = translator(pickLocale(input.locale));
  const body = input.lines.flatMap((l) => [
    `• ${t(`people.digest.kind.${l.kind}`)}: ${l.title}`,
    ...(l.body ? [`  ${l.body}`] : []),
    `  ${l.url}`,
    "",
  ]);
  return {
    subject: t("people.digest.subject", { count: input.lines.length }),
    text: [
      t("people.digest.greeting", { name: input.displayName }),
      "",
      t("people.digest.intro", { minutes: input.afterMinutes }),
      "",
      ...body,
      t("people.digest.footer"),
      "",
    ].join("\n"),
  };
}
