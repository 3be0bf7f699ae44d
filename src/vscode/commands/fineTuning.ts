/** Create Fine-tuning Job…, Cancel / Pause / Resume, and Deploy of the model a job made. */
import { basename } from 'node:path';
import * as vscode from 'vscode';
import { describeProblems } from '../../jobs/problems';
import type { FineTuningInput } from '../../service/fineTuning';
import type { FineTuningJob } from '../../service/jobTypes';
import type { Deployment } from '../../service/types';
import { loadNetwork } from '../bundles';
import type { ConnectionInfo } from '../connections/connectionStore';
import { logInfo } from '../log';
import { plainLine } from '../plainText';
import type { Services } from '../services';
import { connectionFor, jobTarget } from '../jobs/jobArgs';
import { FineTuningJobNode } from '../tree/jobNodes';
import { argsOf, workspacePath } from './args';
import { confirmed, uploadWithProgress, withCancellableProgress, withProgress } from './registry';

/** Base models the service fine-tunes (Azure's names, with their versions). */
export const TUNABLE_MODELS = ['gpt-4.1-mini-2025-04-14', 'gpt-4.1-nano-2025-04-14', 'gpt-4.1-2025-04-14', 'gpt-4o-2024-08-06', 'gpt-4o-mini-2024-07-18', 'o4-mini-2025-04-16'];

export interface CreateFineTuningArgs {
  connectionId?: string;
  model?: string;
  trainingFile?: string;
  validationFile?: string;
  suffix?: string;
  epochs?: number | 'auto';
  metadata?: Record<string, string>;
}

async function pickJsonl(title: string, optional: boolean): Promise<string | undefined | null> {
  const found = await vscode.workspace.findFiles('**/*.jsonl', '**/node_modules/**', 200);
  const none = { label: `$(circle-slash) ${vscode.l10n.t('No validation file')}`, path: null as string | null };
  const items = [...(optional ? [none] : []), ...found.map((u) => ({ label: vscode.workspace.asRelativePath(u), path: u.fsPath as string | null }))];
  if (!items.length) throw new Error(vscode.l10n.t('No .jsonl file in the workspace: add your training data (one chat example per line) and try again.'));
  const pick = await vscode.window.showQuickPick(items, { title, placeHolder: vscode.l10n.t('One chat example per line: {0}', '{"messages": [...]}') });
  return pick ? pick.path : undefined;
}

async function checked(path: string, role: 'training' | 'validation'): Promise<void> {
  const r = await loadNetwork().checkTrainingData(path, { minExamples: role === 'training' ? 10 : 1 });
  if (r.problemCount) throw new Error(`${describeProblems(basename(path), r.problems, r.problemCount)} ${vscode.l10n.t('Nothing was uploaded.')}`);
}

export async function createFineTuningJob(s: Services, arg: unknown): Promise<FineTuningJob | undefined> {
  const args = argsOf<CreateFineTuningArgs>(arg) ?? {};
  const conn = await connectionFor(s, arg, vscode.l10n.t('Fine-tune on which connection?'));
  if (!conn) return undefined;
  const model = args.model ?? (await vscode.window.showQuickPick(TUNABLE_MODELS, { title: vscode.l10n.t('Create Fine-tuning Job (1/4): the base model') }));
  if (!model) return undefined;
  const training = args.trainingFile ? workspacePath(args.trainingFile) : await pickJsonl(vscode.l10n.t('Create Fine-tuning Job (2/4): training data'), false);
  if (!training) return undefined;
  const validation = args.validationFile
    ? workspacePath(args.validationFile)
    : args.trainingFile
      ? null
      : await pickJsonl(vscode.l10n.t('Create Fine-tuning Job (3/4): validation data'), true);
  if (validation === undefined) return undefined;
  const suffix =
    args.suffix ??
    (args.trainingFile
      ? undefined
      : await vscode.window.showInputBox({
          title: vscode.l10n.t('Create Fine-tuning Job (4/4): a suffix for the model name (optional)'),
          validateInput: (v) => (/^[A-Za-z0-9_-]{0,40}$/.test(v) ? undefined : vscode.l10n.t('Up to 40 letters, digits, "-" or "_".')),
        }));
  if (suffix === undefined && !args.trainingFile) return undefined;
  await withProgress(vscode.l10n.t('Checking the training data…'), async () => {
    await checked(training, 'training');
    if (validation) await checked(validation, 'validation');
  });
  const client = await s.clients.get(conn);
  const uploaded: string[] = [];
  try {
    const upload = (path: string) => uploadWithProgress(client.jobs.files, path, 'fine-tune');
    const trainingFile = await upload(training);
    uploaded.push(trainingFile.id);
    const validationFile = validation ? await upload(validation) : undefined;
    if (validationFile) uploaded.push(validationFile.id);
    const input: FineTuningInput = { model, training_file: trainingFile.id, validation_file: validationFile?.id, suffix: suffix || undefined };
    if (args.metadata) input.metadata = args.metadata;
    if (args.epochs !== undefined) input.hyperparameters = { n_epochs: args.epochs };
    const job = await client.jobs.fineTuning.create(input);
    logInfo(`Fine-tuning job ${job.id} of ${model} created on ${conn.label}.`);
    s.jobs.upsert(conn.id, 'fineTuning', job);
    void vscode.window.showInformationMessage(plainLine(vscode.l10n.t('Fine-tuning job {0} created: {1} on {2}.', job.id, model, basename(training)), 1000));
    return job;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    // The uploads go with a job that was not made; when it may have been made, they stay for it.
    if ((err as { mayHaveActed?: boolean }).mayHaveActed === true || !uploaded.length) throw err;
    await Promise.all(uploaded.map((id) => client.jobs.files.delete(id).catch(() => undefined)));
    throw new Error(`${message} ${vscode.l10n.t('The uploaded files were deleted.')}`);
  }
}

/** Opens a job's page: from its row, with arguments, or picked from the connection's newest jobs. */
export async function openFineTuningJob(s: Services, arg: unknown): Promise<void> {
  if (arg instanceof FineTuningJobNode || (argsOf<{ jobId?: string }>(arg)?.jobId)) {
    const { conn, jobId } = jobTarget(s, arg);
    return s.fineTuningPanels.show(conn, jobId);
  }
  const conn = await connectionFor(s, arg, vscode.l10n.t('Open a fine-tuning job of which connection?'));
  if (!conn) return;
  const page = await withProgress(vscode.l10n.t('Listing fine-tuning jobs…'), async () => (await s.clients.get(conn)).jobs.fineTuning.list({ limit: 50 }));
  if (!page.data.length) throw new Error(vscode.l10n.t('"{0}" has no fine-tuning jobs yet: create one with "Create Fine-tuning Job…".', conn.label));
  const pick = await vscode.window.showQuickPick(
    page.data.map((j) => ({ label: plainLine(j.fine_tuned_model ?? j.model), description: plainLine(`${j.status} · ${j.id}`), id: j.id })),
    { title: vscode.l10n.t('Open Fine-tuning Job'), placeHolder: vscode.l10n.t('Newest first') },
  );
  if (pick) s.fineTuningPanels.show(conn, pick.id);
}

type Action = 'cancel' | 'pause' | 'resume';
const ALLOWED: Record<Action, string[]> = {
  cancel: ['validating_files', 'queued', 'running', 'paused'],
  pause: ['running'],
  resume: ['paused'],
};

export async function actOnJob(s: Services, arg: unknown, action: Action): Promise<FineTuningJob | undefined> {
  const { conn, jobId } = jobTarget(s, arg);
  const client = await s.clients.get(conn);
  const current = await client.jobs.fineTuning.retrieve(jobId);
  if (!ALLOWED[action].includes(current.status)) {
    const states = ALLOWED[action].join(', ');
    const only = {
      cancel: vscode.l10n.t('The job {0} is {1}: only a job that is {2} can be cancelled.', jobId, current.status, states),
      pause: vscode.l10n.t('The job {0} is {1}: only a job that is {2} can be paused.', jobId, current.status, states),
      resume: vscode.l10n.t('The job {0} is {1}: only a job that is {2} can be resumed.', jobId, current.status, states),
    };
    throw new Error(only[action]);
  }
  if (action === 'cancel' && !argsOf(arg)) {
    if (!(await confirmed(vscode.l10n.t('Cancel fine-tuning job {0}? It cannot be resumed.', jobId), vscode.l10n.t('Cancel Job')))) return undefined;
  }
  const job = await client.jobs.fineTuning[action](jobId);
  s.jobs.upsert(conn.id, 'fineTuning', job);
  return job;
}

export interface DeployArgs {
  connectionId?: string;
  jobId: string;
  name?: string;
  sku?: string;
  capacity?: number;
}

/** Deploys a succeeded job's model through Resource Manager; the new deployment then shows in the tree. */
export async function deployFineTunedModel(s: Services, arg: unknown): Promise<Deployment | undefined> {
  const { conn, jobId } = jobTarget(s, arg);
  const args = argsOf<DeployArgs>(arg) ?? ({} as Partial<DeployArgs>);
  const arm = armFor(s, conn);
  const job = await (await s.clients.get(conn)).jobs.fineTuning.retrieve(jobId);
  if (job.status !== 'succeeded' || !job.fine_tuned_model) {
    throw new Error(vscode.l10n.t('The job {0} is {1}: only a job that succeeded has a model to deploy.', jobId, job.status));
  }
  const name =
    args.name ??
    (await vscode.window.showInputBox({
      title: vscode.l10n.t('Deploy {0} (1/3): deployment name', job.fine_tuned_model),
      value: `${job.model.replace(/-\d{4}-\d{2}-\d{2}$/, '')}-ft${job.user_provided_suffix ? `-${job.user_provided_suffix}` : ''}`.slice(0, 64),
      validateInput: (v) => (/^[A-Za-z0-9][A-Za-z0-9._-]{1,63}$/.test(v) ? undefined : vscode.l10n.t('2 to 64 letters, digits, ".", "-" or "_".')),
    }));
  if (!name) return undefined;
  const sku = args.sku ?? (await vscode.window.showQuickPick(['standard', 'globalstandard', 'developer'], { title: vscode.l10n.t('Deploy (2/3): SKU') }));
  if (!sku) return undefined;
  const capacityText =
    args.capacity !== undefined
      ? String(args.capacity)
      : await vscode.window.showInputBox({
          title: vscode.l10n.t('Deploy (3/3): capacity (units of 1,000 tokens per minute)'),
          value: '1',
          validateInput: (v) => (/^[1-9]\d{0,5}$/.test(v) ? undefined : vscode.l10n.t('A whole number from 1.')),
        });
  if (!capacityText) return undefined;
  const deployment = await withCancellableProgress(vscode.l10n.t('Deploying {0} as {1}', job.fine_tuned_model, name), (signal, report) =>
    arm.client.deployments.put(arm.accountId, name, { model: job.fine_tuned_model!, sku, capacity: Number(capacityText) }, { signal, onProgress: report }),
  );
  s.tree.refresh(s.tree.connectionNode(conn.id)?.deployments);
  // Not awaited: the command (and a script that runs it) is done once the deployment is made.
  const openChat = vscode.l10n.t('Open Chat');
  void vscode.window.showInformationMessage(plainLine(vscode.l10n.t('Deployed {0} as {1}.', job.fine_tuned_model, name), 1000), openChat).then((open) => {
    if (open === openChat) void vscode.commands.executeCommand('aoaiWorkbench.openChat', { connectionId: conn.id, deployment: name });
  });
  return deployment;
}

function armFor(s: Services, conn: ConnectionInfo) {
  if (conn.auth !== 'entraId' || !conn.armId) {
    const how = vscode.l10n.t('add the connection with "Add Connection from Azure…" (Entra ID), then deploy from there');
    throw new Error(vscode.l10n.t('Deploying goes through Azure Resource Manager, and "{0}" does not know its Azure account: {1}.', conn.label, how));
  }
  return { client: s.clients.arm(conn.tokenSource ?? 'vscode', conn.tenantId), accountId: conn.armId };
}
