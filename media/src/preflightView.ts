// The pre-flight part of a run's section: while the checks run, each one as it completes (the
// panel is never blank before the first cell); when a check stops the run, what failed and the next
// step; once passed, a collapsed list. A run whose folder was removed says that nothing is left to resume.
import type { PreflightCheckView, RunView } from '../../client/src/panel/protocol.js';
import { h, replaceChildren } from './dom.js';

function checkItem(check: PreflightCheckView): HTMLLIElement {
  const state = check.ok ? 'ok' : check.blocking ? 'failed' : 'warning';
  const symbol = check.ok ? '✓' : check.blocking ? '✗' : '!';
  return h(
    'li',
    { class: `check ${state}`, 'data-check': check.id, 'data-ok': String(check.ok), 'data-host': check.host },
    h('span', { class: 'symbol', 'aria-hidden': 'true' }, `${symbol} `),
    h('span', { class: 'label' }, check.label),
    check.host ? ` (${check.host})` : null,
    `: ${check.detail}`,
    !check.ok && check.action ? h('span', { class: 'next' }, ` Next: ${check.action}`) : null,
  );
}

function failureBanner(run: RunView): HTMLElement | null {
  const failure = run.failure;
  if (!failure || (run.status !== 'preflight-failed' && run.status !== 'stopped')) return null;
  const heading = run.status === 'preflight-failed' ? 'Pre-flight failed' : 'The run stopped';
  return h(
    'div',
    { class: 'failure', role: 'alert' },
    h('h3', {}, heading),
    h('p', { class: 'what' }, failure.host ? `${failure.host}: ${failure.message}` : failure.message),
    h('p', { class: 'next-step' }, h('strong', {}, 'Next step: '), failure.action),
    run.removed
      ? h(
          'p',
          { class: 'muted' },
          'No cell ran, so no run folder was kept and there is nothing to resume: fix this and run the plan again.',
        )
      : null,
  );
}

export function renderPreflight(section: HTMLElement, run: RunView): void {
  let box = section.querySelector<HTMLElement>(':scope > section.preflight');
  if (!box) {
    box = h('section', { class: 'preflight', 'aria-label': 'Pre-flight checks' });
    section.appendChild(box);
  }
  const checks = run.preflight?.checks ?? [];
  const banner = failureBanner(run);
  box.hidden = !banner && checks.length === 0 && run.status !== 'preflight';
  box.dataset.state =
    run.status === 'preflight'
      ? 'running'
      : run.status === 'preflight-failed'
        ? 'failed'
        : checks.length > 0
          ? 'passed'
          : '';
  const list = h('ul', { class: 'checks' }, ...checks.map(checkItem));
  if (run.status === 'preflight') {
    replaceChildren(
      box,
      h('h3', {}, 'Pre-flight checks'),
      h(
        'p',
        { class: 'pending' },
        h('progress', { 'aria-label': 'Pre-flight checks running' }),
        ` Checking every host: SSH, versions, interfaces, the bucket quota, the profiles and the workload… ${checks.length} done.`,
      ),
      list,
    );
    return;
  }
  const passed = checks.filter((check) => check.ok).length;
  const summary = `Pre-flight: ${passed} of ${checks.length} checks passed`;
  // Failed or warned checks stay open; a clean pass folds away under the results.
  const details =
    checks.length > 0
      ? h(
          'details',
          { class: 'checks-box', open: banner !== null || passed < checks.length },
          h('summary', {}, summary),
          list,
        )
      : null;
  replaceChildren(box, banner, details);
}
