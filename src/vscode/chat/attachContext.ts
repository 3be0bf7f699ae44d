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
  if (!target) throw new Error('Select some text in an editor first, then attach it.');
  const { selection, document } = target;
  const text = document.getText(selection);
  if (text.length > MAX_TEXT_ATTACHMENT) throw new Error(`The selection is ${kb(text.length)}; at most ${kb(MAX_TEXT_ATTACHMENT)} can be attached.`);
  const first = selection.start.line + 1;
  const last = selection.end.character === 0 && selection.end.line > selection.start.line ? selection.end.line : selection.end.line + 1;
  const lines = first === last ? `line ${first}` : `lines ${first}-${last}`;
  return { id: newId('a_'), kind: 'selection', name: `${baseName(document.uri)} (${lines})`, text, language: document.languageId };
}

/** A text file, whole. */
export async function fileAttachment(uri: vscode.Uri): Promise<Attachment> {
  const bytes = await vscode.workspace.fs.readFile(uri);
  if (bytes.length > MAX_TEXT_ATTACHMENT) throw new Error(`${baseName(uri)} is ${kb(bytes.length)}; at most ${kb(MAX_TEXT_ATTACHMENT)} can be attached. Attach a selection instead.`);
  if (!looksLikeText(bytes)) throw new Error(`${baseName(uri)} is not a text file. Only text files and images can be attached.`);
  const language = (await vscode.workspace.openTextDocument(uri).then((d) => d.languageId, () => undefined)) ?? undefined;
  return { id: newId('a_'), kind: 'file', name: baseName(uri), text: Buffer.from(bytes).toString('utf8'), language };
}

/** An image (PNG, JPEG, GIF, WebP), as a data URL. */
export async function imageAttachment(uri: vscode.Uri): Promise<Attachment> {
  const ext = baseName(uri).split('.').pop()?.toLowerCase() ?? '';
  const mime = IMAGE_TYPES[ext];
  if (!mime) throw new Error(`${baseName(uri)} is not a PNG, JPEG, GIF or WebP image.`);
  const bytes = await vscode.workspace.fs.readFile(uri);
  if (bytes.length > MAX_IMAGE_BYTES) throw new Error(`${baseName(uri)} is ${kb(bytes.length)}; images up to ${kb(MAX_IMAGE_BYTES)} can be attached.`);
  return { id: newId('a_'), kind: 'image', name: baseName(uri), dataUrl: `data:${mime};base64,${Buffer.from(bytes).toString('base64')}` };
}

/** Asks for a file to attach (an image when `image`). */
export async function pickFile(image: boolean): Promise<vscode.Uri | undefined> {
  const picked = await vscode.window.showOpenDialog({
    canSelectMany: false,
    openLabel: 'Attach',
    title: image ? 'Attach an image' : 'Attach a file',
    filters: image ? { Images: Object.keys(IMAGE_TYPES) } : undefined,
  });
  return picked?.[0];
}
