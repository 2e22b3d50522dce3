/**
 * Accept-Language (common rule 7): a configured language when the header
 * asks for one, else the Company default; no header means default values
 * (undefined). Multi-language text is an object keyed by language.
 */
import type { CompanySettings } from '../tenancy/types.js';

/** Language tags of the header, most preferred first (q values honoured). */
function preferences(header: string): string[] {
  return header
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag: tag.trim().toLowerCase(), q: q ? Number(q.slice(2)) : 1, index };
    })
    .filter((p) => p.tag !== '' && p.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((p) => p.tag);
}

export function selectLanguage(header: string | undefined, settings: CompanySettings): string | undefined {
  if (header === undefined || header.trim() === '') return undefined;
  for (const tag of preferences(header)) {
    const primary = tag.split('-')[0];
    if (settings.languages.includes(tag)) return tag;
    if (settings.languages.includes(primary)) return primary;
  }
  return settings.default_language;
}

/** Text in the selected language: the language's entry, else the default language's, else any. */
export function localize(
  text: string | Readonly<Record<string, string>>,
  language: string | undefined,
  settings: CompanySettings,
): string {
  if (typeof text === 'string') return text;
  const fallback = text[settings.default_language] ?? Object.values(text)[0] ?? '';
  return language === undefined ? fallback : (text[language] ?? fallback);
}

/**
 * What is wrong with a text sent per language, or undefined: each of its languages must be one the Company
 * configures, and the default language's text must be there (every default read, cart effect and stored name
 * shows it). `language` names the language at fault, when one is.
 */
export function textsProblem(
  texts: Readonly<Record<string, string>>,
  settings: Pick<CompanySettings, 'languages' | 'default_language'>,
): { language?: string; message: string } | undefined {
  const foreign = Object.keys(texts).find((language) => !settings.languages.includes(language));
  if (foreign !== undefined) return { language: foreign, message: `${foreign} is not one of the Company's languages (${settings.languages.join(', ')})` };
  if (!Object.hasOwn(texts, settings.default_language)) {
    return { message: `must have a text in ${settings.default_language}, the Company's default language` };
  }
  return undefined;
}
