/**
 * Portuguese time words, made readable for parseWhen. Dates and weekdays ("amanhã", "sexta às
 * 10:00", "3 de dezembro") are left to chrono-node's Portuguese parser; what it does not read —
 * hours written "15h" or "9h30", ranges ("das 14h às 17h", "entre as 14h e as 17h"), weekday
 * ranges ("de terça a quinta"), weeks ("na próxima semana") and parts of the day — is turned
 * into the forms parseWhen reads itself. The text arrives lower-cased, dashes as "-".
 */

// JavaScript's \b does not know accented letters: these edges do.
const B = String.raw`(?<![\p{L}\d])`;
const E = String.raw`(?![\p{L}\d])`;
const re = (src: string) => new RegExp(src, "gu");

const WEEKDAYS: Array<[string, string]> = [
  ["seg(?:unda)?", "mon"],
  ["ter(?:ça|ca)?", "tue"],
  ["qua(?:rta)?", "wed"],
  ["qui(?:nta)?", "thu"],
  ["sex(?:ta)?", "fri"],
  ["s[áa]b(?:ado)?", "sat"],
  ["dom(?:ingo)?", "sun"],
];
const WEEKDAY = `(${WEEKDAYS.map(([w]) => w).join("|")})(?:-feira)?\\.?`;
const english = (word: string) =>
  WEEKDAYS.find(([w]) => new RegExp(`^(?:${w})(?:-feira)?\\.?$`, "u").test(word))?.[1] ?? word;

const HOUR = String.raw`(\d{1,2})(?:\s*h\s*(\d{2})?|:(\d{2}))`;
const hour = (h: string, m1?: string, m2?: string) => `${h}:${m1 ?? m2 ?? "00"}`;
// Before a time of day: "às 15h", "pelas 9h30", "das 14h", "até às 17h".
const AT = String.raw`(?:[àa]s|pelas|das|at[ée](?:\s+[àa]s)?|a partir das|depois das|antes das|entre\s+as|e\s+as|e)`;

export function portugueseWords(text: string): string {
  let t = text;
  // Lengths are not times: "30 minutos", "meia hora", "uma hora e meia".
  t = t.replace(
    re(
      `${B}(?:uma\\s+)?hora\\s+e\\s+meia${E}|${B}meia[\\s-]hora${E}|${B}(?:\\d+(?:[.,]\\d+)?|uma|duas|tr[êe]s)\\s*(?:minutos?|mins?|horas?)${E}`,
    ),
    " ",
  );
  // Ranges first, then single hours.
  t = t.replace(
    re(`${B}(?:entre\\s+(?:as\\s+)?)${HOUR}\\s+e\\s+(?:as\\s+)?${HOUR}`),
    (_m, h1, a1, b1, h2, a2, b2) => ` ${hour(h1, a1, b1)}-${hour(h2, a2, b2)} `,
  );
  t = t.replace(
    re(`${B}(?:das\\s+|de\\s+)?${HOUR}\\s*(?:-|[àa]s|at[ée](?:\\s+[àa]s)?)\\s*${HOUR}`),
    (_m, h1, a1, b1, h2, a2, b2) => ` ${hour(h1, a1, b1)}-${hour(h2, a2, b2)} `,
  );
  t = t.replace(
    re(`${B}(${AT})\\s+(\\d{1,2})\\s*h\\s*(\\d{2})?${E}`),
    (_m, at: string, h, mm) => ` ${edge(at)} ${hour(h, mm)} `,
  );
  t = t.replace(re(`${B}(\\d{1,2})h(\\d{2})${E}`), (_m, h, mm) => ` ${hour(h, mm)} `);
  t = t.replace(
    re(`${B}(depois das|a partir das|antes das|at[ée] [àa]s)\\s+(\\d{1,2}:\\d{2})`),
    (_m, at: string, time) => ` ${edge(at)} ${time} `,
  );
  // Weekday ranges: "de terça a quinta", "ter-qui".
  t = t.replace(
    re(`${B}(?:de\\s+)?${WEEKDAY}\\s*(?:-|a|at[ée])\\s*${WEEKDAY}${E}`),
    (_m, a: string, b: string) => ` ${english(a)}-${english(b)} `,
  );
  t = t.replace(re(`${B}(?:nos\\s+|em\\s+)?dias [úu]teis${E}`), " weekdays ");
  t = t.replace(re(`${B}(?:n?o\\s+)?fim de semana${E}`), " weekend ");
  // Weeks.
  t = t.replace(re(`${B}(?:daqui a duas semanas|na semana a seguir [àa] pr[óo]xima)${E}`), " week after next ");
  t = t.replace(re(`${B}(?:n?a\\s+)?(?:pr[óo]xima semana|semana que vem)${E}|${B}para a semana${E}`), " next week ");
  t = t.replace(re(`${B}(?:n?esta|ainda esta) semana${E}`), " this week ");
  // Parts of the day ("amanhã" is a day, not a morning).
  t = t.replace(re(`${B}(?:de |pela |na )?(?<!a)manh[ãa]${E}`), " morning ");
  t = t.replace(re(`${B}(?:[àa] |de |pela |na )?tarde${E}`), " afternoon ");
  t = t.replace(re(`${B}(?:[àa] |de |pela )?noite${E}`), " evening ");
  t = t.replace(re(`${B}(?:[àa] |na )?hora de almo[çc]o${E}|${B}ao almo[çc]o${E}`), " lunch time ");
  return t.replace(/\s{2,}/g, " ");
}

/** "depois das" opens a window, "antes das" closes one; a plain "às" is an exact start. */
function edge(at: string): string {
  if (/depois|a partir/.test(at)) return "after";
  if (/antes|at[ée]/.test(at)) return "before";
  return "às";
}
