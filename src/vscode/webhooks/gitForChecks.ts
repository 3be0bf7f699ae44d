/**
 * The `git` the .env check may run: none in Restricted Mode (a repository's files are not trusted),
 * else the executable VS Code's Git extension resolved (the user's `git.path` setting or its own
 * search), else undefined and the core looks on PATH itself (gitExecutable.ts).
 */
import * as vscode from 'vscode';
import { GIT_NOT_ALLOWED, type GitChoice } from '../../webhooks/endpoints/gitExecutable';

/** The part of the Git extension's API (vscode.git, version 1) read here. */
interface GitExtension {
  readonly enabled: boolean;
  getAPI(version: 1): { readonly git: { readonly path: string } };
}

export async function gitForChecks(): Promise<GitChoice> {
  if (!vscode.workspace.isTrusted) return GIT_NOT_ALLOWED;
  try {
    const ext = vscode.extensions.getExtension<GitExtension>('vscode.git');
    const api = ext && (ext.isActive ? ext.exports : await ext.activate());
    // Disabled (git.enabled false) or not found any git: getAPI throws or there is no path.
    return api?.enabled ? api.getAPI(1).git.path || undefined : undefined;
  } catch {
    return undefined;
  }
}
