/**
 * "Check My Handler" and "Copy as Test…" above a webhook fixture open in the editor. A file is
 * taken for a fixture by its mark (`"aoaiWorkbenchFixture"`) alone: parsing waits for the click,
 * so a large JSON file costs a substring search.
 */
import * as vscode from 'vscode';
import { Commands } from '../contributions';

const MARK = '"aoaiWorkbenchFixture"';

export function registerHandlerLens(): vscode.Disposable {
  return vscode.languages.registerCodeLensProvider(
    [{ language: 'json' }, { language: 'jsonc' }],
    {
      provideCodeLenses(doc) {
        if (!doc.getText().includes(MARK)) return [];
        const top = new vscode.Range(0, 0, 0, 0);
        return [
          new vscode.CodeLens(top, { title: vscode.l10n.t('Check My Handler'), command: Commands.checkHandler, arguments: [doc.uri] }),
          new vscode.CodeLens(top, { title: vscode.l10n.t('Copy as Test…'), command: Commands.copyFixtureAsTest, arguments: [doc.uri] }),
        ];
      },
    },
  );
}
