// Run data reaches terminals: `report` prints stack names, axis values, marks, host facts and
// error messages that a run folder (anyone's) or a remote tool put there, and the CLI prints sweep
// events as they come. A control character in them would be obeyed by the terminal: OSC 0 sets
// the window title, OSC 52 writes the clipboard, CR and ESC[2K overwrite a line with fake output.
// Every such character (C0 but tab and newline, DEL, C1) is written as a visible `\u00XX` escape
// instead: the sequence becomes inert text that still shows it was there, and JSON stays valid.

// eslint-disable-next-line no-control-regex -- these characters are what the file exists to find
const controls = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

function escaped(character: string): string {
  return `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** `text` with every control character but tab and newline escaped. */
export function escapeControlCharacters(text: string): string {
  return text.replace(controls, escaped);
}

/** The same for every string inside plain data (an event, a record), keys included; a new value. */
export function withControlCharactersEscaped<T>(value: T): T {
  return escapeDeep(value, 0) as T;
}

function escapeDeep(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return escapeControlCharacters(value);
  if (typeof value !== 'object' || value === null || depth > 64) return value;
  if (Array.isArray(value)) return value.map((item) => escapeDeep(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [escapeControlCharacters(key), escapeDeep(item, depth + 1)]),
  );
}
