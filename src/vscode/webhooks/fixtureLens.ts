/**
 * The actions on a fixture file (CodeLens and shape warnings): registered at activation, built by
 * dist/fixtures.js (fixtures/lenses.ts), which loads with the first file that carries the fixture's
 * mark. Any other JSON file costs one substring search.
 */
import * as vscode from 'vscode';
import { FIXTURE_MARK } from '../../webhooks/fixtures/mark';
import type { FixtureLenses } from '../fixtures/lenses';
import { loadFixtures } from '../fixtures/loader';
import { owned } from '../ownedArgs';

export function registerFixtureLens(): vscode.Disposable {
  let lenses: FixtureLenses | undefined;
  // Once loaded, every JSON file is asked: a mark just deleted must take its warnings with it.
  const provider: vscode.CodeLensProvider = {
    provideCodeLenses: (doc) => (lenses || doc.getText().includes(FIXTURE_MARK) ? (lenses ??= new (loadFixtures().FixtureLenses)(owned)).provide(doc) : []),
  };
  return vscode.Disposable.from(
    vscode.languages.registerCodeLensProvider([{ language: 'json', scheme: 'file' }, { language: 'json', scheme: 'untitled' }], provider),
    vscode.workspace.onDidCloseTextDocument((doc) => lenses?.forget(doc.uri)),
    { dispose: () => lenses?.dispose() },
  );
}
