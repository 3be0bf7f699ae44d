/**
 * What the chat panel's next message will carry: the attached selections, files and images,
 * shown as chips in the composer. An image is taken only when the deployment's model reads images,
 * and dropped when the user switches to one that does not.
 */
import * as vscode from 'vscode';
import { attachmentTokens } from '../../chat/attachments';
import type { Attachment } from '../../chat/model';
import type { HostMessage } from '../../webview/chat/protocol';
import { fileAttachment, imageAttachment, pickFile, selectionAttachment } from './attachContext';

export class Composer {
  private pending: Attachment[] = [];

  constructor(
    private readonly post: (msg: HostMessage) => void,
    /** Whether the deployment's model reads images, and its name for messages. */
    private readonly model: () => Promise<{ name: string; imageInput: boolean }>,
  ) {}

  /** Shows the chips and whether an image can be attached. */
  async show(): Promise<void> {
    const items = this.pending.map((a) => ({ id: a.id, kind: a.kind, name: a.name, tokens: attachmentTokens([a]) }));
    this.post({ type: 'attachments', items, imageInput: (await this.model()).imageInput });
  }

  async add(attachment: Attachment): Promise<void> {
    if (attachment.kind === 'image') {
      const model = await this.model();
      if (!model.imageInput) throw new Error(vscode.l10n.t('{0} does not take images. Pick a deployment of a model that does ({1}).', model.name, 'gpt-4o, gpt-4.1, o3…'));
    }
    this.pending.push(attachment);
    await this.show();
  }

  /** The user's pick: the editor's selection, or a file or image chosen in a dialog. */
  async pick(kind: Attachment['kind']): Promise<void> {
    if (kind === 'selection') return this.add(selectionAttachment(vscode.window.activeTextEditor));
    const uri = await pickFile(kind === 'image');
    if (uri) await this.addUri(uri, kind);
  }

  async addUri(uri: vscode.Uri, kind: 'file' | 'image'): Promise<void> {
    await this.add(kind === 'image' ? await imageAttachment(uri) : await fileAttachment(uri));
  }

  async remove(id: string): Promise<void> {
    this.pending = this.pending.filter((a) => a.id !== id);
    await this.show();
  }

  /** The deployment changed: images go if its model reads none. */
  async deploymentChanged(): Promise<void> {
    if (!(await this.model()).imageInput) this.pending = this.pending.filter((a) => a.kind !== 'image');
    await this.show();
  }

  /** What the message being sent carries; the composer starts empty again. */
  take(): Attachment[] | undefined {
    if (!this.pending.length) return undefined;
    const taken = this.pending;
    this.pending = [];
    void this.show();
    return taken;
  }
}
