/** Refresh, load more, and the log. */
import * as vscode from 'vscode';
import { log } from '../log';
import { GroupNode, type TreeNode } from '../tree/nodes';
import { command, type Services } from './context';

export function registerTreeCommands(s: Services): vscode.Disposable[] {
  return [
    command('refresh', 'Could not refresh', () => s.tree.refresh()),
    command('refreshNode', 'Could not refresh', (node) => s.tree.refresh(node as TreeNode)),
    command('loadMore', 'Could not load more', async (node) => {
      if (node instanceof GroupNode) await s.tree.load(node, true);
    }),
    command('showLog', 'Could not show the log', () => log().show()),
  ];
}
