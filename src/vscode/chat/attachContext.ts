/** Reads what the user attaches to a chat message: an editor's selection, a text file, an image. */
import * as vscode from 'vscode';
import { IMAGE_TYPES, MAX_IMAGE_BYTES, MAX_TEXT_ATTACHMENT, looksLikeText } from '../../chat/attachments';
import { newId } from '../../chat/conversation';
import type { Attachment } from '../../chat/model';

const baseName = (uri: vscode.Uri) => uri.path.split('/').pop() || uri.toString();
const kb = (n: number) => `${Math.round(n / 1024)} KB`;

/** The selection of `editor` (or of the visible editor that has one). */
export function selectionAttachment(editor: vscode.TextEditor | undefined): Attachment {
  const target = editor && !editor.selection.isEmpty ? editor : vscode.window.visibleTextEditors.find((e) => !e.selection.isEmpty);
  if (!target) throw new Error(vscode.l10n.t('Select some text in an editor first, then attach it.'));
  const { selection, document } = target;
  const text = document.getText(selection);
  if (text.length > MAX_TEXT_ATTACHMENT) {
    throw new Error(vscode.l10n.t('The selection is {0}; at most {1} can be attached.', kb(text.length), kb(MAX_TEXT_ATTACHMENT)));
  }
  const first = selection.start.line + 1;
  const last = selection.end.character === 0 && selection.end.line > selection.start.line ? selection.end.line : selection.end.line + 1;
  const lines = first === last ? vscode.l10n.t('line {0}', first) : vscode.l10n.t('lines {0}-{1}', first, last);
  return { id: newId('a_'), kind: 'selection', name: `${baseName(document.uri)} (${lines})`, text, language: document.languageId };
}

/** A text file, whole. */
export async function fileAttachment(uri: vscode.Uri): Promise<Attachment> {
  const bytes = await vscode.workspace.fs.readFile(uri);
  if (bytes.length > MAX_TEXT_ATTACHMENT) {
    throw new Error(vscode.l10n.t('{0} is {1}; at most {2} can be attached. Attach a selection instead.', baseName(uri), kb(bytes.length), kb(MAX_TEXT_ATTACHMENT)));
  }
  if (!looksLikeText(bytes)) throw new Error(vscode.l10n.t('{0} is not a text file. Only text files and images can be attached.', baseName(uri)));
  const language = (await vscode.workspace.openTextDocument(uri).then((d) => d.languageId, () => undefined)) ?? undefined;
  return { id: newId('a_'), kind: 'file', name: baseName(uri), text: Buffer.from(bytes).toString('utf8'), language };
}

/** An image (PNG, JPEG, GIF, WebP), as a data URL. */
export async function imageAttachment(uri: vscode.Uri): Promise<Attachment> {
  const ext = baseName(uri).split('.').pop()?.toLowerCase() ?? '';
  const mime = IMAGE_TYPES[ext];
  if (!mime) throw new Error(vscode.l10n.t('{0} is not a PNG, JPEG, GIF or WebP image.', baseName(uri)));
  const bytes = await vscode.workspace.fs.readFile(uri);
  if (bytes.length > MAX_IMAGE_BYTES) throw new Error(vscode.l10n.t('{0} is {1}; images up to {2} can be attached.', baseName(uri), kb(bytes.length), kb(MAX_IMAGE_BYTES)));
  return { id: newId('a_'), kind: 'image', name: baseName(uri), dataUrl: `data:${mime};base64,${Buffer.from(bytes).toString('base64')}` };
}

/** Asks for a file to attach (an image when `image`). */
export async function pickFile(image: boolean): Promise<vscode.Uri | undefined> {
  const picked = await vscode.window.showOpenDialog({
    canSelectMany: false,
    openLabel: vscode.l10n.t('Attach'),
    title: image ? vscode.l10n.t('Attach an image') : vscode.l10n.t('Attach a file'),
    filters: image ? { [vscode.l10n.t('Images')]: Object.keys(IMAGE_TYPES) } : undefined,
  });
  return picked?.[0];
}
