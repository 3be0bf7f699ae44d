/**
 * The fine-tuning job's page through its states, for the pseudo-locale test (see pageScenarios.ts):
 * a job that runs (loss so far, no checkpoint), one that failed, one that succeeded with a
 * checkpoint and events left out, and an error reading it.
 */
import type { JobView } from '../../src/webview/fineTuning/protocol';
import { pseudo } from './pageHarness';
import type { Scenario } from './pageScenarios';

const T0 = Date.parse('2026-11-20T10:00:00Z') / 1000;
const MODEL = 'gpt-4.1-mini-2025-04-14';
const TUNED = `${MODEL}.ft-0123456789abcdef-ui`;

const job = (over: Partial<JobView>): JobView => ({
  id: 'ftjob-0123456789abcdef',
  connectionLabel: 'Emulator',
  status: 'running',
  final: false,
  model: MODEL,
  suffix: 'ui',
  createdAt: T0,
  estimatedFinish: T0 + 60,
  trainingFile: 'file-train',
  validationFile: 'file-valid',
  hyperparameters: [{ name: 'n_epochs', value: '3' }],
  events: [
    { at: T0 + 2, level: 'info', message: 'Step 1/30: training loss=2.1741' },
    { at: T0 + 1, level: 'warn', message: 'Slow queue' },
  ],
  eventsLeftOut: 0,
  checkpoints: [],
  points: [
    { step: 1, train: 2.1741 },
    { step: 2, train: 2.0123 },
  ],
  ...over,
});

export const FINE_TUNING: Scenario = {
  async run(page, snapshot) {
    await page.post({ type: 'job', job: job({ points: [], events: [], hyperparameters: [] }) });
    await snapshot();
    await page.post({ type: 'job', job: job({}) });
    await page.page.click('#loss-data summary');
    await snapshot();
    const error = 'invalid_training_file';
    await page.post({ type: 'job', job: job({ status: 'failed', final: true, error, points: [], events: [{ at: T0 + 3, level: 'error', message: error }] }) });
    await snapshot();
    const checkpoint = { step: 30, model: `${TUNED}:ckpt-step-30`, trainLoss: 0.33, validLoss: 0.38 };
    const done = job({ status: 'succeeded', final: true, fineTunedModel: TUNED, trainedTokens: 690, finishedAt: T0 + 75, checkpoints: [checkpoint], eventsLeftOut: 12 });
    await page.post({ type: 'job', job: { ...done, points: [...done.points, { step: 30, train: 0.33, valid: 0.38 }] } });
    await snapshot();
    await page.post({ type: 'error', text: pseudo('Could not read the fine-tuning job.') });
    await snapshot();
  },
  data: [
    ...[TUNED, `${TUNED}:ckpt-step-30`, MODEL, 'ftjob-0123456789abcdef', 'Emulator', 'file-train', 'file-valid', 'n_epochs', 'ui'],
    ...['Step 1/30: training loss=2.1741', 'Slow queue', 'invalid_training_file'],
  ],
  english: [
    'Reading the job…',
    'No loss yet: it appears once training starts.',
    'All',
    'Loss per step',
    'Training loss from 2.1741 at step 1 to 2.0123 at step 2',
    'The loss as a table',
    'None yet: the job makes one at the end of each epoch.',
    'warning:',
    'Pause',
    'Expected to finish',
    'Error: invalid_training_file',
    'The job reported no loss.',
    'error:',
    'Deploy…',
    'Newest first; 12 older events are not shown.',
    'Status now: succeeded.',
    'Trained tokens',
  ],
};
