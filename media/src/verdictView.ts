// The run's verdict, first thing under its header: one line per interface and profile, computed by
// the host (engine/src/report/verdict.ts, the same words as `onload-bench report` and the HTML
// report). Better and worse are said by the line's own words and symbols (▲ better, ▼ worse); the
// colour of the cue and of the line's edge only repeats them.
import type { RunView, VerdictView } from '../../client/src/panel/protocol.js';
import { h, replaceChildren } from './dom.js';

function verdictItem(line: VerdictView): HTMLLIElement {
  const at = line.text.indexOf(line.cue);
  const parts =
    at < 0
      ? [line.text]
      : [line.text.slice(0, at), h('strong', { class: 'cue' }, line.cue), line.text.slice(at + line.cue.length)];
  return h(
    'li',
    {
      class: `verdict-line ${line.kind}`,
      'data-kind': line.kind,
      'data-interface': line.interface,
      'data-stack': line.stack,
    },
    ...parts,
  );
}

/** Creates the verdict box right after the run's header (once), then fills it. */
export function renderVerdict(section: HTMLElement, header: HTMLElement, run: RunView): void {
  let box = section.querySelector<HTMLElement>(':scope > section.verdict-box');
  if (!box) {
    box = h('section', { class: 'verdict-box', 'aria-labelledby': `${section.id}-verdict-heading` });
    header.after(box);
  }
  const lines = run.verdict ?? [];
  box.hidden = lines.every((line) => line.kind === 'no-data') || run.removed === true;
  const going = run.status === 'running' || run.status === 'preflight';
  replaceChildren(
    box,
    h('h3', { id: `${section.id}-verdict-heading` }, going ? 'Verdict so far' : 'Verdict'),
    h('ul', { class: 'verdict' }, ...lines.map(verdictItem)),
  );
}
