/**
 * The actions on a fixture file: a CodeLens for each of the four sends on the fixture's first line,
 * and the shape check's flags as warnings in the Problems view (a flag never stops a send). Any
 * other JSON file costs one substring search; a fixture's is read by dist/fixtures.js.
 */
import * as vscode from 'vscode';
import { Commands } from '../contributions';
import { loadFixtures } from '../fixtures/loader';
import { owned } from '../ownedArgs';
import type { FixtureVariant } from '../../webhooks/fixtures/send';
import { VARIANTS, variantTitle } from '../fixtures/variants';

const MARK = '"aoaiWorkbenchFixture"';

export function registerFixtureLens(): vscode.Disposable {
  const diagnostics = vscode.languages.createDiagnosticCollection('aoaiWorkbench.fixtures');
  const provider: vscode.CodeLensProvider = {
    provideCodeLenses(doc) {
      const text = doc.getText();
      const found = text.includes(MARK) ? loadFixtures().fixtureInText(text) : undefined;
      if (!found) {
        diagnostics.delete(doc.uri);
        return [];
      }
      diagnostics.set(
        doc.uri,
        found.flags.map((f) => {
          const said = vscode.l10n.t('Not what the service sends: {0}. It is sent as it is.', f.text);
          const d = new vscode.Diagnostic(doc.lineAt(f.line).range, said, vscode.DiagnosticSeverity.Warning);
          d.source = 'Azure OpenAI webhook fixture';
          return d;
        }),
      );
      const range = doc.lineAt(found.line).range;
      const uri = doc.uri.toString();
      // Marked as ours here: the bundle's copy of ownedArgs is not the one askFirst.ts reads.
      const lens = (variant: FixtureVariant) => ({ title: variantTitle(variant), command: Commands.sendFixture, arguments: [owned({ uri, variant })] });
      return VARIANTS.map((variant) => new vscode.CodeLens(range, lens(variant)));
    },
  };
  return vscode.Disposable.from(
    diagnostics,
    vscode.languages.registerCodeLensProvider([{ language: 'json', scheme: 'file' }, { language: 'json', scheme: 'untitled' }], provider),
    vscode.workspace.onDidCloseTextDocument((doc) => diagnostics.delete(doc.uri)),
  );
}
