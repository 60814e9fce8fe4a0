// The one way a value enters a remote command line: POSIX single quotes, where nothing is special
// except the quote itself (closed, escaped, reopened). Plain words stay unquoted for readable logs.

const plainWord = /^[A-Za-z0-9_@%+=:,./-]+$/;

export function shellQuote(value: string | number): string {
  const text = String(value);
  if (text.includes('\0')) throw new Error('a shell argument cannot contain a NUL byte');
  if (text !== '' && plainWord.test(text) && !text.startsWith('=')) return text;
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Quotes each argument and joins them into one command line. */
export function shellJoin(args: (string | number)[]): string {
  return args.map(shellQuote).join(' ');
}

/**
 * Fills `{name}` placeholders of a user-written command template with quoted values; unknown
 * placeholders are left alone so a typo shows up in the remote error rather than vanishing.
 */
export function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{([A-Za-z][A-Za-z0-9]*)\}/g, (whole, name: string) =>
    name in values ? shellQuote(values[name]) : whole,
  );
}
