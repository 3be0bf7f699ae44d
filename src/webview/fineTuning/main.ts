/**
 * A fine-tuning job's page: status, model, trained tokens, hyperparameters, loss per step as a
 * chart (with a table), checkpoints and events, and the actions its status allows. It talks to the
 * extension only through the typed protocol and validates everything it receives. Everything in
 * a job comes from the service: put on the page as text, never as HTML.
 */
import { $, connect, el } from '../shared/page';
import { drawLossChart, lossRows } from './chart';
import { formatLoss, parseFineTuningHostMessage, type FineTuningHostMessage, type FineTuningViewMessage, type JobAction, type JobView } from './protocol';

const vscode = connect<FineTuningViewMessage, FineTuningHostMessage>(parseFineTuningHostMessage, (msg) => handle(msg));
const post = (msg: FineTuningViewMessage) => vscode.post(msg);

let shown: JobView | undefined;

const when = (seconds: number) => new Date(seconds * 1000).toLocaleString();
const count = (n: number) => n.toLocaleString('en');

function took(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

const ACTIONS_BY_STATUS: Record<JobAction, (j: JobView) => boolean> = {
  deploy: (j) => j.status === 'succeeded' && !!j.fineTunedModel,
  pause: (j) => j.status === 'running',
  resume: (j) => j.status === 'paused',
  cancel: (j) => ['validating_files', 'queued', 'running', 'paused'].includes(j.status),
};

function fillKv(dl: HTMLElement, rows: Array<[string, string | undefined]>): void {
  dl.replaceChildren(...rows.filter((r): r is [string, string] => r[1] !== undefined).flatMap(([k, v]) => [el('dt', k), el('dd', v)]));
}

function render(j: JobView): void {
  const before = shown;
  shown = j;
  $('loading').hidden = true;
  $('job').hidden = false;
  $('content').setAttribute('aria-busy', 'false');
  const name = j.fineTunedModel ?? `${j.model}${j.suffix ? ` (${j.suffix})` : ''}`;
  $('title').textContent = name;
  document.title = `Fine-tuning: ${name}`;
  const badge = $('status-badge');
  badge.textContent = j.status.replace(/_/g, ' ');
  badge.className = `badge status-${j.status.replace(/[^a-z_]/g, '')}`;
  $('subtitle').textContent = `${j.id} · ${j.connectionLabel}`;
  for (const b of document.querySelectorAll<HTMLButtonElement>('[data-action]')) {
    const action = b.dataset.action as JobAction | 'refresh';
    if (action !== 'refresh') b.hidden = !ACTIONS_BY_STATUS[action](j);
  }
  $('updated').textContent = `As of ${new Date().toLocaleTimeString()}${j.final ? '.' : ': updated while the job runs.'}`;
  if (before && before.id === j.id && before.status !== j.status) say(`Status now: ${j.status.replace(/_/g, ' ')}.`);
  $('job-error').hidden = !j.error;
  $('job-error').textContent = j.error ? `Error: ${j.error}` : '';

  drawLossChart($('chart'), j.points);
  $('no-loss').hidden = j.points.length > 0;
  $('no-loss').textContent = j.final ? 'The job reported no loss.' : 'No loss yet: it appears once training starts.';
  $('loss-data').hidden = j.points.length === 0;
  $('loss-rows').replaceChildren(...lossRows(j.points));

  const end = j.finishedAt;
  fillKv($('details'), [
    ['Status', j.status.replace(/_/g, ' ')],
    ['Base model', j.model],
    ['Fine-tuned model', j.fineTunedModel ?? (j.final ? 'none' : 'not yet (named when the job succeeds)')],
    ['Trained tokens', j.trainedTokens !== undefined ? count(j.trainedTokens) : undefined],
    ['Created', when(j.createdAt)],
    ['Finished', end ? `${when(end)} (took ${took(end - j.createdAt)})` : undefined],
    ['Expected to finish', j.estimatedFinish ? when(j.estimatedFinish) : undefined],
    ['Training file', j.trainingFile],
    ['Validation file', j.validationFile ?? 'none'],
    ['Suffix', j.suffix],
    ['Job ID', j.id],
  ]);
  fillKv($('hyperparameters'), j.hyperparameters.length ? j.hyperparameters.map((h) => [h.name.replace(/_/g, ' '), h.value]) : [['All', 'chosen by the service']]);

  $('no-checkpoints').hidden = j.checkpoints.length > 0;
  $('no-checkpoints').textContent = j.final ? 'None.' : 'None yet: the job makes one at the end of each epoch.';
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
      step.dataset.label = 'Step';
      tr.append(step, cell(c.model, 'mono wrap', 'Model'), cell(formatLoss(c.trainLoss), 'num', 'Training loss'), cell(formatLoss(c.validLoss), 'num', 'Validation loss'));
      return tr;
    }),
  );

  $('events-note').textContent = j.events.length
    ? `Newest first${j.eventsLeftOut ? `; ${count(j.eventsLeftOut)} older events are not shown` : ''}.`
    : 'No events yet.';
  $('events').replaceChildren(
    ...j.events.map((e) => {
      const li = el('li', undefined, `event ${e.level === 'error' ? 'error' : e.level === 'warn' ? 'warn' : ''}`);
      const at = el('time', new Date(e.at * 1000).toLocaleTimeString(), 'muted');
      at.dateTime = new Date(e.at * 1000).toISOString();
      li.append(at, ' ', e.level === 'info' ? '' : el('strong', `${e.level}: `), el('span', e.message, 'message'));
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
