/** What a job command is about: a sidebar row, or plain arguments (scripts and tests). */
import * as vscode from 'vscode';
import type { ConnectionInfo } from '../connections/connectionStore';
import type { Services } from '../services';
import { BatchNode, CallNode, FineTuningJobNode, JobGroupNode } from '../tree/jobNodes';
import { resolveConnection } from '../commands/args';

/** The `connectionId` of plain arguments, if they name one. */
const connectionIdOf = (arg: unknown) => (arg as { connectionId?: string } | undefined)?.connectionId;

function connectionOf(s: Services, arg: unknown): ConnectionInfo {
  const id = connectionIdOf(arg);
  const all = s.store.list();
  const conn = id ? s.store.get(id) : all.length === 1 ? all[0] : undefined;
  if (!conn) {
    throw new Error(id ? vscode.l10n.t('No connection with id "{0}".', id) : vscode.l10n.t('Say which connection: pass "connectionId" (there is more than one).'));
  }
  return conn;
}

function field(arg: unknown, key: string): string {
  const v = (arg as Record<string, unknown> | undefined)?.[key];
  if (typeof v !== 'string' || !v) throw new Error(vscode.l10n.t('Pass the {0} to act on (or run the command from its row in the sidebar).', key));
  return v;
}

export function batchTarget(s: Services, arg: unknown): { conn: ConnectionInfo; batchId: string } {
  if (arg instanceof BatchNode) return { conn: arg.connection, batchId: arg.batch.id };
  return { conn: connectionOf(s, arg), batchId: field(arg, 'batchId') };
}

export function jobTarget(s: Services, arg: unknown): { conn: ConnectionInfo; jobId: string } {
  if (arg instanceof FineTuningJobNode) return { conn: arg.connection, jobId: arg.job.id };
  return { conn: connectionOf(s, arg), jobId: field(arg, 'jobId') };
}

export function callTarget(s: Services, arg: unknown): { conn: ConnectionInfo; callId: string } {
  if (arg instanceof CallNode) return { conn: arg.connection, callId: arg.call.id };
  return { conn: connectionOf(s, arg), callId: field(arg, 'callId') };
}

/** The connection of a create command: its group's row, `connectionId`, the only one, or a pick. */
export function connectionFor(s: Services, arg: unknown, purpose: string): Promise<ConnectionInfo | undefined> {
  if (arg instanceof JobGroupNode) return Promise.resolve(arg.connection);
  const id = connectionIdOf(arg);
  return resolveConnection(s, id ? { connectionId: id } : undefined, purpose);
}
