// One SSH round trip for several questions to the same host: a step that asked a host
// two or three things in turn (memcached's facts then onload_stackdump; the sampler's stop then the
// HDR logs) sends them as one POSIX sh script instead, each part in its own subshell (its `exit`
// ends only that part), its output framed by `@@part NAME EXIT` so each part's own parser reads
// exactly what it read when it ran alone. A part may run only when an earlier one printed a line
// (memcached found: then its stack). Scripts and splitting are pure; the caller runs the script.

export interface ScriptPart {
  /** Letters, digits and `_`: the shell variable `part_NAME` holds its output for later conditions. */
  name: string;
  script: string;
  /** Runs only when this earlier part's output has a line matching `onlyIf.line` (a grep -E pattern). */
  onlyIf?: { part: string; line: string };
}

export interface PartOutput {
  exitCode: number;
  text: string;
}

const namePattern = /^[A-Za-z0-9_]+$/;

/** The script: each part's output, captured, printed after a `@@part NAME EXIT` line. */
export function batchScript(parts: ScriptPart[]): string {
  const lines: string[] = [];
  for (const part of parts) {
    if (!namePattern.test(part.name))
      throw new Error(`batch part name ${JSON.stringify(part.name)} is not a shell word`);
    const run = [
      `part_${part.name}=$( (`,
      part.script,
      `) ); rc=$?`,
      `echo "@@part ${part.name} $rc"`,
      `[ -z "$part_${part.name}" ] || printf '%s\\n' "$part_${part.name}"`,
    ];
    if (part.onlyIf) {
      if (!namePattern.test(part.onlyIf.part))
        throw new Error(`batch part name ${JSON.stringify(part.onlyIf.part)} is not a shell word`);
      // the pattern is quoted as a literal (no shell expansion): single quotes, embedded ones escaped
      const pattern = `'${part.onlyIf.line.replace(/'/g, `'\\''`)}'`;
      lines.push(`if printf '%s\\n' "$part_${part.onlyIf.part}" | grep -qE -- ${pattern}; then`, ...run, 'fi');
    } else lines.push(...run);
  }
  lines.push('exit 0');
  return lines.join('\n');
}

/** The parts' outputs by name; a part that did not run (or a script that did not) is missing. Pure. */
export function splitBatch(output: string): Map<string, PartOutput> {
  const parts = new Map<string, PartOutput>();
  let current: { name: string; exitCode: number; lines: string[] } | undefined;
  const flush = (): void => {
    if (current)
      parts.set(current.name, {
        exitCode: current.exitCode,
        text: current.lines.length > 0 ? `${current.lines.join('\n')}\n` : '',
      });
  };
  const lines = output.split('\n');
  if (lines.at(-1) === '') lines.pop();
  for (const line of lines) {
    const header = /^@@part ([A-Za-z0-9_]+) (\d+)$/.exec(line);
    if (header) {
      flush();
      current = { name: header[1], exitCode: Number(header[2]), lines: [] };
    } else current?.lines.push(line);
  }
  flush();
  return parts;
}
