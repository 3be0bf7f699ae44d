/**
 * Rotate Signing Secret: a replacement endpoint with a new secret, both accepted while the app is
 * updated, the new secret handed to the app (clipboard or a .env file the user picks, never
 * settings), then Finish (delete the old endpoint) or Cancel (delete the new one).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { validEnvName } from '../../webhooks/endpoints/dotenv';
import type { PendingRotation } from '../../webhooks/endpoints/rotation';
import type { ConnectionInfo } from '../connections/connectionStore';
import { Commands } from '../contributions';
import { owned } from './args';
import { errorText, log, logInfo, redact, showError } from '../log';
import { plainLine } from '../plainText';
import type { Services } from '../services';
import { WebhookNode } from '../tree/nodes';
import { gitForChecks } from '../webhooks/gitForChecks';
import { loadNetwork } from '../bundles';
import { confirmed, withProgress } from './registry';
import { resolveEndpoint } from './webhookEndpoints';
import { dateTime } from '../../text/format';

/** How the new secret reaches the app; scripts and tests pass it, people pick it. */
export type HandOver = { kind: 'copy' } | { kind: 'env'; file: string; variable: string } | { kind: 'later' };

interface RotateArgs {
  connectionId: string;
  endpointId: string;
  /** false: no confirmation dialog (scripts, tests). */
  confirm?: boolean;
  handOver?: HandOver;
}

const LAST_VARIABLE = 'aoaiWorkbench.lastEnvVariable';

// A tree row has none of these fields, so reading them from one finds nothing.
const argsOf = (arg: unknown): Partial<RotateArgs> => (arg && typeof arg === 'object' ? (arg as Partial<RotateArgs>) : {});

export async function rotateSigningSecret(s: Services, arg: unknown): Promise<PendingRotation | undefined> {
  const target = await resolveEndpoint(s, arg, vscode.l10n.t('Rotate the signing secret of'));
  if (!target) return undefined;
  const { conn, endpoint } = target;
  const args = argsOf(arg);
  if (args.confirm !== false) {
    const detail = [
      vscode.l10n.t("The service cannot change an endpoint's secret, so a new endpoint with the same URL and events is created, with a new secret."),
      vscode.l10n.t('Until you finish, both deliver and both secrets are accepted here: your app gets each event twice (deduplicate by event id).'),
      vscode.l10n.t('Give the new secret to your app, then Finish Rotation deletes the old endpoint.'),
    ].join(' ');
    if (!(await confirmed(vscode.l10n.t('Rotate the signing secret of "{0}"?', endpoint.name), vscode.l10n.t('Rotate'), detail))) return undefined;
  }
  const r = await withProgress(vscode.l10n.t('Creating a replacement for "{0}"…', endpoint.name), () => s.endpoints.beginRotation(conn, endpoint));
  logInfo(`Rotating the signing secret of webhook endpoint ${r.oldId}: replacement ${r.newId} → ${r.url}; its secret is in secret storage.`);
  // The rotation has begun whatever happens to the hand-over: say so, and how to try it again.
  // Not awaiting the message: it stays until the user closes it.
  await handOverSecret(s, conn, r, args.handOver).catch((err: unknown) => {
    void showError(
      vscode.l10n.t('Both secrets of "{0}" are accepted now, but the new one was not given to your app (use Give New Secret to App… on the endpoint)', r.name),
      err,
    );
  });
  if (args.confirm !== false) {
    const both = vscode.l10n.t('Both secrets of "{0}" are accepted now. When your app uses the new one, finish the rotation to delete the old endpoint.', r.name);
    void vscode.window
      .showInformationMessage(plainLine(both, 1000), vscode.l10n.t('Finish Rotation'))
      .then((c) => c && vscode.commands.executeCommand(Commands.finishRotation, owned({ connectionId: conn.id, endpointId: r.newId })));
  }
  return r;
}

/** The rotation an invocation is about: from either endpoint's row or ids. */
async function pendingFor(s: Services, arg: unknown, purpose: string): Promise<{ conn: ConnectionInfo; rotation: PendingRotation } | undefined> {
  if (!(arg instanceof WebhookNode) && !argsOf(arg).endpointId) return pickRotation(s, purpose);
  const target = await resolveEndpoint(s, arg, purpose);
  if (!target) return undefined;
  const found = s.endpoints.rotationOf(target.conn.id, target.endpoint.id);
  if (!found) throw new Error(vscode.l10n.t('"{0}" is not in a secret rotation.', target.endpoint.name));
  return { conn: target.conn, rotation: found.rotation };
}

/** From the palette: the rotations in progress, not every endpoint (a rotation's two look alike). */
async function pickRotation(s: Services, purpose: string): Promise<{ conn: ConnectionInfo; rotation: PendingRotation } | undefined> {
  const items = s.endpoints.rotations().flatMap((rotation) => {
    const conn = s.store.get(rotation.connectionId);
    const detail = conn && vscode.l10n.t('{0} · started {1}', conn.label, dateTime(rotation.startedAt, false));
    return conn ? [{ label: plainLine(rotation.name), description: plainLine(rotation.url, 300), detail, conn, rotation }] : [];
  });
  if (items.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No signing secret rotation is in progress. Rotate Signing Secret… on a webhook endpoint starts one.'));
    return undefined;
  }
  const pick = items.length === 1 ? items[0] : await vscode.window.showQuickPick(items, { title: vscode.l10n.t('{0} which endpoint?', purpose) });
  return pick && { conn: pick.conn, rotation: pick.rotation };
}

/** Gives the replacement's secret to the app: the clipboard, or a line in a .env file. */
export async function handOverSecret(s: Services, conn: ConnectionInfo, r: PendingRotation, how?: HandOver): Promise<HandOver | undefined> {
  const choice = how ?? (await askHandOver(s, r));
  if (!choice || choice.kind === 'later') return undefined;
  const secret = await s.store.signingSecret(conn.id, r.newId);
  if (!secret) throw new Error(vscode.l10n.t('The new signing secret is not in secret storage any more: cancel this rotation and start again.'));
  if (choice.kind === 'copy') {
    await vscode.env.clipboard.writeText(secret);
    void vscode.window.showInformationMessage(plainLine(vscode.l10n.t('Copied the new signing secret of "{0}".', r.name), 1000));
    return choice;
  }
  const uri = vscode.Uri.file(choice.file);
  const where = vscode.workspace.asRelativePath(uri);
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
  // The .env check and writer (with the ignore-file reader) load with the network bundle, on first use.
  const { envFileWarnings, writeEnvVariable } = loadNetwork();
  const warnings = await envFileWarnings(choice.file, folders, await gitForChecks());
  for (const w of warnings) log().warn(redact(w));
  if (warnings.length && !how) {
    if (!(await confirmed(vscode.l10n.t('Write the signing secret into {0}?', where), vscode.l10n.t('Write Anyway'), warnings.join('\n')))) return undefined;
  }
  const { replaced, backup } = await writeEnvVariable(choice.file, choice.variable, secret);
  await s.context.globalState.update(LAST_VARIABLE, choice.variable);
  logInfo(`Wrote the new signing secret of webhook endpoint ${r.newId} into ${choice.variable} in ${where}${backup ? ` (the previous file is kept as ${path.basename(backup)})` : ''}.`);
  if (!how) {
    const done = replaced
      ? vscode.l10n.t('Replaced {0} in {1}. Restart your app so it reads it.', choice.variable, where)
      : vscode.l10n.t('Added {0} in {1}. Restart your app so it reads it.', choice.variable, where);
    void vscode.window.showInformationMessage(plainLine(done, 1000));
  }
  else if (warnings.length) void vscode.window.showWarningMessage(plainLine(warnings.join(' '), 1000));
  return choice;
}

async function askHandOver(s: Services, r: PendingRotation): Promise<HandOver | undefined> {
  const pick = await vscode.window.showQuickPick(
    [
      { label: `$(copy) ${vscode.l10n.t('Copy the new secret')}`, choice: 'copy' as const },
      { label: `$(file) ${vscode.l10n.t('Write it into a .env file…')}`, description: vscode.l10n.t('replaces the variable, keeps the rest'), choice: 'env' as const },
      { label: vscode.l10n.t('Later'), description: vscode.l10n.t('Give New Secret to App… on the endpoint'), choice: 'later' as const },
    ],
    { title: vscode.l10n.t('Give the new signing secret of "{0}" to your app', r.name), ignoreFocusOut: true },
  );
  if (!pick) return undefined;
  return pick.choice === 'env' ? askEnvTarget(s) : { kind: pick.choice };
}

async function askEnvTarget(s: Services): Promise<{ kind: 'env'; file: string; variable: string } | undefined> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const picked = await vscode.window.showSaveDialog({
    title: vscode.l10n.t('The .env file your app reads'),
    saveLabel: vscode.l10n.t('Write Secret Here'),
    defaultUri: folder && vscode.Uri.joinPath(folder, '.env'),
    filters: { [vscode.l10n.t('Environment files')]: ['env'], [vscode.l10n.t('All files')]: ['*'] },
  });
  if (!picked) return undefined;
  const variable = await vscode.window.showInputBox({
    title: vscode.l10n.t('Variable name for the signing secret'),
    value: s.context.globalState.get<string>(LAST_VARIABLE) ?? 'WEBHOOK_SECRET',
    validateInput: validEnvName,
    ignoreFocusOut: true,
  });
  return variable ? { kind: 'env', file: picked.fsPath, variable } : undefined;
}

export async function handOverRotatedSecret(s: Services, arg: unknown): Promise<HandOver | undefined> {
  const found = await pendingFor(s, arg, vscode.l10n.t('Give the new signing secret to your app'));
  return found && handOverSecret(s, found.conn, found.rotation, argsOf(arg).handOver);
}

interface Ending {
  purpose: string;
  question: (r: PendingRotation) => string;
  detail: (r: PendingRotation) => string;
  button: string;
  progress: (r: PendingRotation) => string;
  run: (s: Services, conn: ConnectionInfo, r: PendingRotation) => Promise<void>;
  done: (r: PendingRotation) => string;
}

/** Finish and Cancel: the same steps, each deleting one side of the rotation. */
async function endRotation(s: Services, arg: unknown, e: Ending): Promise<boolean> {
  const found = await pendingFor(s, arg, e.purpose);
  if (!found) return false;
  const { conn, rotation } = found;
  if (argsOf(arg).confirm !== false && !(await confirmed(e.question(rotation), e.button, e.detail(rotation)))) return false;
  try {
    await withProgress(e.progress(rotation), () => e.run(s, conn, rotation));
  } catch (err) {
    const still = vscode.l10n.t("The rotation is still in progress (both secrets are accepted); try again from either endpoint's row.");
    throw new Error(`${errorText(err).replace(/\.?$/, '.')} ${still}`);
  }
  logInfo(e.done(rotation));
  return true;
}

export function finishRotationCommand(s: Services, arg: unknown): Promise<boolean> {
  return endRotation(s, arg, {
    purpose: vscode.l10n.t('Finish the secret rotation of'),
    question: (r) => vscode.l10n.t('Finish rotating the secret of "{0}"?', r.name),
    detail: (r) => vscode.l10n.t('The old endpoint ({0}) is deleted: from then on deliveries are signed only with the new secret, so your app must use it.', r.oldId),
    button: vscode.l10n.t('Finish Rotation'),
    progress: (r) => vscode.l10n.t('Deleting the old endpoint of "{0}"…', r.name),
    run: (svc, conn, r) => svc.endpoints.finishRotation(conn, r),
    done: (r) => `Finished rotating webhook endpoint ${r.oldId}: deleted; ${r.newId} goes on with the new secret.`,
  });
}

export function cancelRotationCommand(s: Services, arg: unknown): Promise<boolean> {
  return endRotation(s, arg, {
    purpose: vscode.l10n.t('Cancel the secret rotation of'),
    question: (r) => vscode.l10n.t('Cancel rotating the secret of "{0}"?', r.name),
    detail: (r) => vscode.l10n.t('The new endpoint ({0}) and its secret are deleted; the old secret stays the only one.', r.newId),
    button: vscode.l10n.t('Cancel Rotation'),
    progress: (r) => vscode.l10n.t('Deleting the replacement of "{0}"…', r.name),
    run: (svc, conn, r) => svc.endpoints.cancelRotation(conn, r),
    done: (r) => `Cancelled rotating webhook endpoint ${r.oldId}: deleted the replacement ${r.newId}.`,
  });
}
