import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../tenancy/settings.js';
import { localize, selectLanguage } from './language.js';

describe('Accept-Language (common rule 7)', () => {
  const settings = { ...DEFAULT_SETTINGS, default_language: 'es', languages: ['es', 'en', 'ca'] };

  it('gives default values when the header is absent', () => {
    expect(selectLanguage(undefined, settings)).toBeUndefined();
    expect(selectLanguage('  ', settings)).toBeUndefined();
  });

  it('selects a configured language, honouring q values and regional tags', () => {
    expect(selectLanguage('en', settings)).toBe('en');
    expect(selectLanguage('EN-gb', settings)).toBe('en');
    expect(selectLanguage('fr;q=0.9, ca;q=0.8, en;q=0.1', settings)).toBe('ca');
    expect(selectLanguage('en;q=0.2, ca', settings)).toBe('ca');
  });

  it('falls back to the Company default language for a language not configured', () => {
    expect(selectLanguage('fr', settings)).toBe('es');
    expect(selectLanguage('de, fr;q=0.5', settings)).toBe('es');
  });

  it('localizes multi-language text with fallbacks', () => {
    const text = { es: 'Hola', en: 'Hello' };
    expect(localize(text, 'en', settings)).toBe('Hello');
    expect(localize(text, 'ca', settings)).toBe('Hola');
    expect(localize(text, undefined, settings)).toBe('Hola');
    expect(localize('plain', 'en', settings)).toBe('plain');
  });
});
