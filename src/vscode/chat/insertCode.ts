/** Puts a code block from a reply into the editor: over each selection, or in a new document beside. */
import * as vscode from 'vscode';

export async function insertCode(code: string): Promise<void> {
  // With the panel focused there is no active editor: use the one beside it.
  const editor = vscode.window.activeTextEditor ?? vscode.window.visibleTextEditors[0];
  if (!editor) {
    const doc = await vscode.workspace.openTextDocument({ content: code });
    await vscode.window.showTextDocument(doc, vscode.ViewColumn.Beside);
    return;
  }
  await editor.edit((b) => {
    for (const sel of editor.selections) b.replace(sel, code);
  });
}
