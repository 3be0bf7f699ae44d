/**
 * Copy as Test… (the command): the fixture in the editor (or the file clicked) written as a test
 * for the project's runner (webhooks/fixtures/asTest.ts), saved where the user says (beside the
 * project's tests by default) and opened.
 */
import * as vscode from 'vscode';
import type { TestRunner } from '../../webhooks/fixtures/asTestTypes';
import { loadNetwork } from '../bundles';
import { plainLine } from '../plainText';
import { fixtureOfText, plainArgs, type HandlerHost } from './handlerCheck';

export interface CopyAsTestArgs {
  /** The fixture file; else the active editor's. */
  uri?: string;
  /** Where to write the test (no dialog). */
  path?: string;
  runner?: TestRunner;
  /** The app's URL; the route's for the fixture's type by default. */
  url?: string;
}

const RUNNER_LABELS: Record<TestRunner, () => string> = {
  node: () => vscode.l10n.t("Node's test runner (node:test)"),
  vitest: () => 'Vitest',
  jest: () => 'Jest',
  pytest: () => 'pytest',
};

async function readText(uri: vscode.Uri): Promise<string | undefined> {
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}

export async function copyFixtureAsTest(listener: Pick<HandlerHost, 'forwardRoute'>, arg: unknown): Promise<string | undefined> {
  const args = plainArgs<CopyAsTestArgs>(arg);
  const uri = arg instanceof vscode.Uri ? arg : args?.uri ? vscode.Uri.parse(args.uri) : vscode.window.activeTextEditor?.document.uri;
  if (!uri) throw new Error(vscode.l10n.t('Open a webhook fixture first (Save as Fixture writes one from a delivery).'));
  const doc = await vscode.workspace.openTextDocument(uri);
  const fixture = fixtureOfText(doc.getText());
  if (typeof fixture === 'string') throw new Error(vscode.l10n.t('{0} is not a webhook fixture: {1}.', vscode.workspace.asRelativePath(uri), fixture));
  const net = loadNetwork();
  const root = vscode.workspace.getWorkspaceFolder(uri)?.uri ?? vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.joinPath(uri, '..');
  const names = await vscode.workspace.fs.readDirectory(root).then(
    (entries) => entries.map(([name]) => name),
    () => [] as string[],
  );
  const facts = { packageJson: await readText(vscode.Uri.joinPath(root, 'package.json')), names };
  const runners = net.runnersFor(facts);
  const runner =
    args?.runner ??
    (
      await vscode.window.showQuickPick(
        runners.map((r, i) => ({ label: RUNNER_LABELS[r](), description: i === 0 ? vscode.l10n.t('this project looks like it uses it') : undefined, runner: r })),
        { title: vscode.l10n.t('Copy as Test: the test runner'), ignoreFocusOut: true },
      )
    )?.runner;
  if (!runner) return undefined;
  const url = args?.url ?? listener.forwardRoute({ eventType: fixture.type })?.url ?? 'http://localhost:3000/webhook';
  const test = net.testOfFixture({ fixture, url, runner, typescript: net.usesTypeScript(facts), source: vscode.workspace.asRelativePath(uri) });
  const folder = net.testFolder(runner, names);
  const target = args?.path
    ? vscode.Uri.file(args.path)
    : await vscode.window.showSaveDialog({
        title: vscode.l10n.t('Copy as Test: where to write the test'),
        defaultUri: vscode.Uri.joinPath(root, ...(folder ? [folder] : []), test.fileName),
        saveLabel: vscode.l10n.t('Write Test'),
      });
  if (!target) return undefined;
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(test.text));
  await vscode.window.showTextDocument(target, { preview: false });
  // The command names the file, a name from the fixture's type: as text.
  void vscode.window.showInformationMessage(
    plainLine(vscode.l10n.t('Test written. Start the app with the test secret the file names, then run: {0}', test.run), 600),
  );
  return target.fsPath;
}
