// What each value of an enum option means, in the words of the option's own description, for the
// completion list (`sf` → "store-and-forward"). Descriptions name values two ways: quoted names
// ("'ct' is cut-through (...), 'sf' store-and-forward") and numbers after a colon or a comma
// ("0 off, 1 on when available, 2 required"). A value the description does not explain gets nothing.
import type { OptionInfo } from './catalogTypes';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function valueMeaning(option: Pick<OptionInfo, 'description'>, value: string): string | undefined {
  const text = option.description ?? '';
  const quoted = new RegExp(
    `'${escape(value)}'\\s+(?:is\\s+|means\\s+)?([^,;']+?(?:\\([^)]*\\))?)\\s*(?=,\\s*'|,\\s*and\\s+'|;|\\.(?:\\s|$)|$)`,
  ).exec(text);
  if (quoted) return tidy(quoted[1]!);
  if (/^\d+$/.test(value)) {
    const numbered = new RegExp(
      `(?:^|[:,]\\s*|\\s)${value}\\s+(?:is\\s+|means\\s+)?([a-z][^,;.=]*?(?:\\([^)]*\\))?)\\s*(?=,\\s*(?:and\\s+)?\\d+\\s|;|\\.(?:\\s|$)|$)`,
    ).exec(text);
    if (numbered) return tidy(numbered[1]!);
  }
  return undefined;
}

function tidy(phrase: string): string | undefined {
  const trimmed = phrase.trim();
  return trimmed === '' || trimmed.length > 120 ? undefined : trimmed;
}
