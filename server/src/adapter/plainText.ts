// Markdown as plain text, for clients whose hover `contentFormat` or completion
// `documentationFormat` does not include markdown (eglot without markdown-mode, some Vim
// plugins): they show the text as it is, so `**`, backticks, `---` rules and escapes must go.
// Only the Markdown our services write is handled: emphasis, code spans, rules, lists, tables.

export function markdownToPlainText(markdown: string): string {
  const lines: string[] = [];
  for (const line of markdown.split('\n')) {
    if (/^\s*(-{3,}|\*{3,}|_{3,})\s*$/.test(line)) {
      // A horizontal rule separates sections: one blank line says the same.
      if (lines.length > 0 && lines.at(-1) !== '') lines.push('');
      continue;
    }
    if (/^\s*\|(\s*:?-{3,}:?\s*\|)+\s*$/.test(line)) continue; // a table's header rule
    let text = line;
    if (/^\s*\|.*\|\s*$/.test(text)) {
      text = text
        .trim()
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim())
        .join('  ');
    }
    lines.push(inline(text));
  }
  while (lines.at(-1) === '') lines.pop();
  return lines.join('\n').replace(/\n{3,}/g, '\n\n');
}

function inline(text: string): string {
  return (
    text
      // Code spans keep their content verbatim (a value such as `EF_POLL_USEC` or `*`).
      .split(/(`+)([^`]*?)\1/g)
      .map((part, index) => {
        if (index % 3 === 1) return '';
        if (index % 3 === 2) return part;
        return part
          .replace(/\*\*(.+?)\*\*/g, '$1')
          .replace(/__(.+?)__/g, '$1')
          .replace(/(^|[\s(])\*(\S(?:.*?\S)?)\*(?=$|[\s).,;:!?])/g, '$1$2')
          .replace(/(^|[\s(])_(\S(?:.*?\S)?)_(?=$|[\s).,;:!?])/g, '$1$2')
          .replace(/\[([^\]]+)\]\(([^)]+)\)/g, '$1 ($2)')
          .replace(/\\([\\`*_{}[\]()#+\-.!|])/g, '$1');
      })
      .join('')
  );
}
