// The `onloadBench` settings the server reads, from whichever way the client sends them:
// `initializationOptions` (eglot, Helix `config`), `workspace/didChangeConfiguration` (Neovim's
// `settings`, pushed at start), or `workspace/configuration` (VS Code, pulled). Folder paths may
// start with `~` (the home folder) and may be relative to the first workspace folder. Also the
// client-side commands a client says it has, which answers may then name.
import type { LanguageSettings } from '../common/languageFeatures';
import { expandFolders } from '../common/profileFolders';

/** Accepts `{onloadBench: {profilePath}}`, `{profilePath}`, or the `onloadBench` section itself. */
export function readSettings(raw: unknown, roots: readonly string[]): LanguageSettings | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const record = raw as Record<string, unknown>;
  const section = (
    typeof record.onloadBench === 'object' && record.onloadBench !== null ? record.onloadBench : record
  ) as Record<string, unknown>;
  const value = section.profilePath ?? section['onloadBench.profilePath'];
  if (value === undefined) return undefined;
  const list = typeof value === 'string' ? value.split(':') : Array.isArray(value) ? value : [];
  return {
    profilePath: expandFolders(
      list.filter((entry): entry is string => typeof entry === 'string' && entry.trim() !== ''),
      roots,
    ),
  };
}

/** The client-side commands a client says it has (`initializationOptions.clientCommands`: VS Code's client). */
export function clientCommandsOf(initializationOptions: unknown): string[] {
  const list =
    typeof initializationOptions === 'object' && initializationOptions !== null
      ? (initializationOptions as { clientCommands?: unknown }).clientCommands
      : undefined;
  return Array.isArray(list) ? list.filter((command): command is string => typeof command === 'string') : [];
}
