/**
 * The rules planner's Portuguese words: the golden path's verbs and meeting nouns ("Marca uma
 * reunião com a Ana amanhã às 15h", "agenda uma chamada com o João na sexta às 10:00"), next to
 * the English ones in rules.ts. JavaScript's \b does not know accented letters, so the word
 * edges are written out.
 */

const B = String.raw`(?<![\p{L}\d])`;
const E = String.raw`(?![\p{L}\d])`;
const words = (alternatives: string) => new RegExp(`${B}(?:${alternatives})${E}`, "iu");

const SCHEDULE_VERB_PT = words(
  "marca|marcar|marque|marcas|agenda|agendar|agende|combina|combinar|combine|organiza|organizar|organize|prepara uma|arranja|arranjar|preciso de|quero|queria|podes marcar|pode marcar",
);
const MEETING_NOUN_PT = words(
  "reuni[ãa]o|reuni[õo]es|chamada|videochamada|telefonema|encontro|conversa|call|demo|demonstra[çc][ãa]o|entrevista|revis[ãa]o|sess[ãa]o|consulta|ponto de situa[çc][ãa]o",
);
const WITH_NAME_PT = /(?<![\p{L}])com\s+(?:(?:a|o|as|os)\s+)?[A-ZÀ-Ý]/u;
const STRONG_PT = words("marca|marcar|marque|agenda|agendar|agende|envia um convite|manda um convite");

/** A Portuguese scheduling request: a verb and a meeting noun, or a strong verb with someone named. */
export function isSchedulingPt(text: string): boolean {
  if (STRONG_PT.test(text) && MEETING_NOUN_PT.test(text)) return true;
  if (SCHEDULE_VERB_PT.test(text) && MEETING_NOUN_PT.test(text) && WITH_NAME_PT.test(text)) return true;
  return STRONG_PT.test(text) && WITH_NAME_PT.test(text);
}

/** The meeting kind named in Portuguese, as the English noun the catalog keys use. */
export function meetingNounPt(text: string): string {
  const m = MEETING_NOUN_PT.exec(text)?.[0]?.toLowerCase() ?? "";
  if (/chamada|telefonema|call|conversa/.test(m)) return "call";
  if (/demo/.test(m)) return "demo";
  if (/entrevista/.test(m)) return "interview";
  if (/revis/.test(m)) return "review";
  if (/sess/.test(m)) return "session";
  if (/consulta/.test(m)) return "appointment";
  if (/ponto/.test(m)) return "check-in";
  return "meeting";
}

/** A meeting noun with someone named but no verb ("reunião com a Ana?"): worth asking. */
export function mentionsMeetingPt(text: string): boolean {
  return MEETING_NOUN_PT.test(text) && WITH_NAME_PT.test(text);
}

export const GREETING_PT = /^(?:ol[áa]|oi|bom dia|boa tarde|boa noite)(?![\p{L}])/iu;
export const THANKS_PT = words("obrigad[oa]|obg|muito bem|perfeito|excelente");
