// The results panel's host (client/src/panel/resultsPanel.ts) against the fake `vscode` of
// fakeVscode.ts, for the tests that drive it: managers registered per test and disposed before the
// next (with the fake reset), the fixture run folder, and the webview's "ready" answered by a model.
import { join } from 'node:path';
import { after, beforeEach } from 'node:test';
import type { PanelViewModel } from '../../../client/src/panel/protocol';
import { FakeUri, type FakeWebviewPanel, installFakeVscode, resetFake, until } from './fakeVscode';

installFakeVscode();
// Loaded after the fake is installed: the host requires `vscode` when it loads.

const panelHost =
  require('../../../client/src/panel/resultsPanel') as typeof import('../../../client/src/panel/resultsPanel');
export const { ResultsPanelManager, resultsViewType } = panelHost;

/** The run folder of fixtureRun.ts, checked in under test/panel/fixtures. */
export const fixtureDir = join(__dirname, '..', 'fixtures', 'run-fixture');
export const extensionUri = FakeUri.file('/ext');

/**
 * Registers the hooks that dispose every manager (and reset the fake) before each test and at the
 * end; returns the function that makes a registered manager.
 */
export function panelManagers(): () => InstanceType<typeof ResultsPanelManager> {
  const registrations: { dispose(): void }[] = [];
  const disposeAll = (): void => {
    for (const registration of registrations.splice(0)) registration.dispose();
  };
  beforeEach(() => {
    disposeAll();
    resetFake();
  });
  after(disposeAll);
  return () => {
    const manager = new ResultsPanelManager({ extensionUri } as never);
    registrations.push(manager.register());
    return manager;
  };
}

/** Says "ready" as the webview does and waits for a model matching `predicate` (the last one). */
export async function readyModel(
  panel: FakeWebviewPanel,
  predicate: (model: PanelViewModel) => boolean = () => true,
): Promise<PanelViewModel> {
  panel.fromWebview({ type: 'ready' });
  await until(() => (panel.models() as unknown as PanelViewModel[]).some(predicate), 'a model message');
  return (panel.models() as unknown as PanelViewModel[]).filter(predicate).at(-1)!;
}
