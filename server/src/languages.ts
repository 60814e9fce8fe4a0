// Every language the server knows, by language id. Each entry is a pure service (see
// common/languageFeatures.ts); register a new language here and nowhere else.
import type { LanguageFeatures } from './common/languageFeatures';
import { createOnloadLanguage } from './onload/service';
import { createYcsbLanguageService } from './ycsb/service';

export function createLanguages(): LanguageFeatures[] {
  return [createOnloadLanguage(), createYcsbLanguageService()];
}
