// Every form of the password the engine itself writes somewhere: raw (what a remote tool may
// echo), escaped for java.util.Properties (the credentials file YCSB reads, secrets.ts), escaped
// inside a JSON string (a results line or event that quotes an error) and URL-encoded (a REST URL
// or form body a tool may echo). Redacting only the raw form let the properties form
// (`p\=ss\:word`) through to logs.
import { escapePropertiesValue } from './secrets';
import { shellQuote } from './shellQuote';

/** The shortest form worth replacing: shorter ones would blank out ordinary text. */
const minimumLength = 3;

export function passwordForms(password: string): string[] {
  if (password.length === 0) return [];
  const forms = new Set<string>([
    password,
    escapePropertiesValue(password),
    JSON.stringify(password).slice(1, -1),
    encodeURIComponent(password),
    encodeURIComponent(password).replace(/%20/g, '+'),
    shellQuote(password),
  ]);
  // longest first, so a form that contains another is replaced whole
  return [...forms].filter((form) => form.length >= minimumLength).sort((a, b) => b.length - a.length);
}

/** Replaces every form of every secret with `mask`. */
export function redactSecrets(text: string, secrets: readonly string[], mask = '********'): string {
  let out = text;
  for (const secret of secrets) for (const form of passwordForms(secret)) out = out.split(form).join(mask);
  return out;
}
