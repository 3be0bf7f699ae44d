/**
 * Conversations persist as one JSON file each in the extension's global storage, written
 * atomically (temp file, then rename), so a crash never leaves half a conversation.
 */
import * as vscode from 'vscode';
import { parseConversation, toJson, type Conversation } from '../../chat/conversation';

export interface ConversationSummary {
  id: string;
  title: string;
  deployment: string;
  connectionLabel: string;
  updatedAt: number;
  turns: number;
}

export class ConversationStore {
  /** The conversations' folder in global storage (traces keep beside it). */
  readonly dir: vscode.Uri;

  constructor(storage: vscode.Uri) {
    this.dir = vscode.Uri.joinPath(storage, 'conversations');
  }

  private file(id: string): vscode.Uri {
    if (!/^[\w-]+$/.test(id)) throw new Error(`Invalid conversation id "${id}".`);
    return vscode.Uri.joinPath(this.dir, `${id}.json`);
  }

  async save(c: Conversation): Promise<void> {
    await vscode.workspace.fs.createDirectory(this.dir);
    const tmp = vscode.Uri.joinPath(this.dir, `${c.id}.json.tmp`);
    await vscode.workspace.fs.writeFile(tmp, Buffer.from(toJson(c), 'utf8'));
    await vscode.workspace.fs.rename(tmp, this.file(c.id), { overwrite: true });
  }

  async load(id: string): Promise<Conversation | undefined> {
    try {
      return parseConversation(Buffer.from(await vscode.workspace.fs.readFile(this.file(id))).toString('utf8'));
    } catch {
      return undefined;
    }
  }

  private async loadAll(): Promise<Conversation[]> {
    let entries: [string, vscode.FileType][];
    try {
      entries = await vscode.workspace.fs.readDirectory(this.dir);
    } catch {
      return [];
    }
    const out: Conversation[] = [];
    for (const [name] of entries.filter(([n]) => n.endsWith('.json'))) {
      const c = await this.load(name.slice(0, -5));
      if (c) out.push(c);
    }
    return out;
  }

  async list(): Promise<ConversationSummary[]> {
    const all = await this.loadAll();
    return all
      .map((c) => ({ id: c.id, title: c.title, deployment: c.deployment, connectionLabel: c.connectionLabel, updatedAt: c.updatedAt, turns: c.turns.length }))
      .sort((a, b) => b.updatedAt - a.updatedAt);
  }

  /** The saved conversation holding the reply that the service's response `responseId` gave. */
  async withResponse(responseId: string): Promise<Conversation | undefined> {
    return (await this.loadAll()).find((c) => c.turns.some((t) => t.responseId === responseId));
  }

  async delete(id: string): Promise<void> {
    await vscode.workspace.fs.delete(this.file(id), { useTrash: false }).then(undefined, () => undefined);
  }
}
