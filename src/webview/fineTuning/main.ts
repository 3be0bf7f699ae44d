/**
 * A fine-tuning job's page: status, model, trained tokens, hyperparameters, loss per step as a
 * chart (with a table), checkpoints and events, and the actions its status allows. It talks to the
 * extension only through the typed protocol and validates everything it receives. Everything in
 * a job comes from the service: put on the page as text, never as HTML.
 */
import '../shared/useBundle';
import * as l10n from '@vscode/l10n';
import { $, connect, el, fillKv } from '../shared/page';
import { drawLossChart, lossRows } from './chart';
import { formatLoss, parseFineTuningHostMessage, type FineTuningHostMessage, type FineTuningViewMessage, type JobAction, type JobView } from './protocol';

const vscode = connect<FineTuningViewMessage, FineTuningHostMessage>(parseFineTuningHostMessage, (msg) => handle(msg));
const post = (msg: FineTuningViewMessage) => vscode.post(msg);

let shown: JobView | undefined;

const when = (seconds: number) => new Date(seconds * 1000).toLocaleString();
const count = (n: number) => n.toLocaleString('en');

function took(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return l10n.t('{0} s', s);
  if (s < 3600) return l10n.t('{0} min {1} s', Math.floor(s / 60), s % 60);
  return l10n.t('{0} h {1} min', Math.floor(s / 3600), Math.floor((s % 3600) / 60));
}

/** A status as the page says it (the service's word when it is one we do not know). */
function statusText(status: string): string {
  const known: Record<string, string> = {
    validating_files: l10n.t('validating files'),
    queued: l10n.t('queued'),
    running: l10n.t('running'),
    paused: l10n.t('paused'),
    succeeded: l10n.t('succeeded'),
    failed: l10n.t('failed'),
    cancelled: l10n.t('cancelled'),
  };
  return known[status] ?? status.replace(/_/g, ' ');
}

const ACTIONS_BY_STATUS: Record<JobAction, (j: JobView) => boolean> = {
  deploy: (j) => j.status === 'succeeded' && !!j.fineTunedModel,
  pause: (j) => j.status === 'running',
  resume: (j) => j.status === 'paused',
  cancel: (j) => ['validating_files', 'queued', 'running', 'paused'].includes(j.status),
};

function render(j: JobView): void {
  const before = shown;
  shown = j;
  $('loading').hidden = true;
  $('job').hidden = false;
  $('content').setAttribute('aria-busy', 'false');
  const name = j.fineTunedModel ?? `${j.model}${j.suffix ? ` (${j.suffix})` : ''}`;
  $('title').textContent = name;
  document.title = l10n.t('Fine-tuning: {0}', name);
  const badge = $('status-badge');
  badge.textContent = statusText(j.status);
  badge.className = `badge status-${j.status.replace(/[^a-z_]/g, '')}`;
  $('subtitle').textContent = `${j.id} · ${j.connectionLabel}`;
  for (const b of document.querySelectorAll<HTMLButtonElement>('[data-action]')) {
    const action = b.dataset.action as JobAction | 'refresh';
    if (action !== 'refresh') b.hidden = !ACTIONS_BY_STATUS[action](j);
  }
  const now = new Date().toLocaleTimeString();
  $('updated').textContent = j.final ? l10n.t('As of {0}.', now) : l10n.t('As of {0}: updated while the job runs.', now);
  if (before && before.id === j.id && before.status !== j.status) say(l10n.t('Status now: {0}.', statusText(j.status)));
  $('job-error').hidden = !j.error;
  $('job-error').textContent = j.error ? l10n.t('Error: {0}', j.error) : '';

  drawLossChart($('chart'), j.points);
  $('no-loss').hidden = j.points.length > 0;
  $('no-loss').textContent = j.final ? l10n.t('The job reported no loss.') : l10n.t('No loss yet: it appears once training starts.');
  $('loss-data').hidden = j.points.length === 0;
  $('loss-rows').replaceChildren(...lossRows(j.points));

  const end = j.finishedAt;
  const none = l10n.t({ message: 'none', comment: ['No such file or model'] });
  fillKv($('details'), [
    [l10n.t('Status'), statusText(j.status)],
    [l10n.t('Base model'), j.model],
    [l10n.t('Fine-tuned model'), j.fineTunedModel ?? (j.final ? none : l10n.t('not yet (named when the job succeeds)'))],
    [l10n.t('Trained tokens'), j.trainedTokens !== undefined ? count(j.trainedTokens) : undefined],
    [l10n.t('Created'), when(j.createdAt)],
    [l10n.t('Finished'), end ? l10n.t('{0} (took {1})', when(end), took(end - j.createdAt)) : undefined],
    [l10n.t('Expected to finish'), j.estimatedFinish ? when(j.estimatedFinish) : undefined],
    [l10n.t('Training file'), j.trainingFile],
    [l10n.t('Validation file'), j.validationFile ?? none],
    [l10n.t('Suffix'), j.suffix],
    [l10n.t('Job ID'), j.id],
  ]);
  // The hyperparameters' names are the service's (data): shown as it spells them.
  const chosen: Array<[string, string]> = [[l10n.t('All'), l10n.t('chosen by the service')]];
  fillKv($('hyperparameters'), j.hyperparameters.length ? j.hyperparameters.map((p) => [p.name, p.value]) : chosen);

  $('no-checkpoints').hidden = j.checkpoints.length > 0;
  $('no-checkpoints').textContent = j.final ? l10n.t('None.') : l10n.t('None yet: the job makes one at the end of each epoch.');
  $('checkpoints-table').hidden = j.checkpoints.length === 0;
  $('checkpoint-rows').replaceChildren(
    ...j.checkpoints.map((c) => {
      const tr = el('tr');
      const step = el('th', String(c.step), 'num');
      step.scope = 'row';
      // Each cell names its column: at 300 px the rows stack, with the names beside the values (see fineTuning.css).
      const cell = (text: string, cls: string, label: string) => {
        const td = el('td', text, cls);
        td.dataset.label = label;
        return td;
      };
      step.dataset.label = l10n.t({ message: 'Step', comment: ['A training step, a column heading'] });
      const model = cell(c.model, 'mono wrap', l10n.t({ message: 'Model', comment: ["A checkpoint's model name, a column heading"] }));
      tr.append(step, model, cell(formatLoss(c.trainLoss), 'num', l10n.t('Training loss')), cell(formatLoss(c.validLoss), 'num', l10n.t('Validation loss')));
      return tr;
    }),
  );

  $('events-note').textContent = !j.events.length
    ? l10n.t('No events yet.')
    : j.eventsLeftOut
      ? l10n.t('Newest first; {0} older events are not shown.', count(j.eventsLeftOut))
      : l10n.t('Newest first.');
  $('events').replaceChildren(
    ...j.events.map((e) => {
      const li = el('li', undefined, `event ${e.level === 'error' ? 'error' : e.level === 'warn' ? 'warn' : ''}`);
      const at = el('time', new Date(e.at * 1000).toLocaleTimeString(), 'muted');
      at.dateTime = new Date(e.at * 1000).toISOString();
      const level = e.level === 'error' ? l10n.t('error:') : e.level === 'warn' ? l10n.t('warning:') : undefined;
      li.append(at, ' ', level ? el('strong', `${level} `) : '', el('span', e.message, 'message'));
      return li;
    }),
  );
}

function say(text: string, error = false): void {
  const s = $('status');
  s.textContent = text;
  s.className = error ? 'error' : '';
}

function handle(msg: FineTuningHostMessage): void {
  if (msg.type === 'error') {
    $('loading').hidden = true;
    $('content').setAttribute('aria-busy', 'false');
    say(msg.text, true);
    return;
  }
  if ($('status').className === 'error') say('');
  render(msg.job);
}

document.addEventListener('click', (e) => {
  const action = (e.target as HTMLElement).closest<HTMLElement>('[data-action]')?.dataset.action;
  if (action === 'refresh') post({ type: 'refresh' });
  else if (action === 'cancel' || action === 'pause' || action === 'resume' || action === 'deploy') post({ type: 'act', action });
});

// The chart is drawn to its width: drawn again when the panel is resized.
let drawnWidth = 0;
new ResizeObserver(() => {
  const width = $('chart').clientWidth;
  if (shown && width !== drawnWidth) drawLossChart($('chart'), shown.points);
  drawnWidth = width;
}).observe($('chart'));

post({ type: 'ready' });
