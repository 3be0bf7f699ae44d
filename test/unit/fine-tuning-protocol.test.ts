/**
 * The fine-tuning page's protocol, field by field: a job view the page accepts, each field that is
 * missing, of the wrong kind or over its bound makes the page drop the whole message (so it keeps
 * what it showed), and the optional ones may be left out. Also the page's own messages and how a
 * loss is said.
 */
import assert from 'node:assert/strict';
import { formatLoss, isJobView, JOB_ACTIONS, MAX_EVENTS_SHOWN, parseFineTuningHostMessage, parseFineTuningViewMessage, type JobView } from '../../src/webview/fineTuning/protocol';

const view = (): JobView => ({
  id: 'ftjob-1',
  connectionLabel: 'Contoso',
  status: 'running',
  final: false,
  model: 'gpt-4.1-mini',
  fineTunedModel: 'gpt-4.1-mini:ft-1',
  suffix: 'sfx',
  trainedTokens: 1200,
  createdAt: 1_700_000_000,
  finishedAt: 1_700_000_900,
  estimatedFinish: 1_700_001_000,
  trainingFile: 'file-a',
  validationFile: 'file-b',
  error: 'Line 3 is not a chat example.',
  hyperparameters: [{ name: 'n_epochs', value: '3' }],
  events: [{ at: 1_700_000_001, level: 'info', message: 'Job started' }],
  eventsLeftOut: 0,
  checkpoints: [{ step: 10, model: 'm:ckpt-10', trainLoss: 0.5, validLoss: 0.6 }],
  points: [{ step: 1, train: 1.2, valid: 1.3 }],
});
const accepted = (job: unknown) => parseFineTuningHostMessage({ type: 'job', job }) !== undefined;
const s = (n: number) => 'x'.repeat(n);

describe('fine-tuning page protocol: the job view, field by field', () => {
  it('accepts a full view and a view without its optional fields', () => {
    assert.deepEqual(parseFineTuningHostMessage({ type: 'job', job: view() }), { type: 'job', job: view() });
    const bare: Record<string, unknown> = { ...view() };
    for (const k of ['fineTunedModel', 'suffix', 'trainedTokens', 'finishedAt', 'estimatedFinish', 'validationFile', 'error']) delete bare[k];
    assert.ok(isJobView(bare));
    const noLosses = { ...view(), checkpoints: [{ step: 1, model: 'm' }], points: [{ step: 1 }] };
    assert.ok(isJobView(noLosses), 'a step without a loss yet is a point');
  });

  const wrong: Array<[string, unknown]> = [
    ['id', undefined], ['id', ''], ['id', s(201)], ['id', 7],
    ['connectionLabel', undefined], ['connectionLabel', s(501)],
    ['status', undefined], ['status', s(51)],
    ['final', undefined], ['final', 'yes'],
    ['model', undefined], ['model', s(501)],
    ['fineTunedModel', 3], ['fineTunedModel', s(501)],
    ['suffix', 3], ['suffix', s(101)],
    ['trainedTokens', '1200'], ['trainedTokens', Infinity],
    ['createdAt', undefined], ['createdAt', NaN], ['createdAt', '1700000000'],
    ['finishedAt', 'soon'], ['estimatedFinish', 'soon'],
    ['trainingFile', undefined], ['trainingFile', s(201)],
    ['validationFile', 3], ['validationFile', s(201)],
    ['error', {}], ['error', s(4001)],
    ['hyperparameters', undefined], ['hyperparameters', {}],
    ['hyperparameters', Array.from({ length: 51 }, () => ({ name: 'a', value: 'b' }))],
    ['hyperparameters', [{ name: s(101), value: 'b' }]], ['hyperparameters', [{ name: 'a', value: s(201) }]],
    ['hyperparameters', [{ name: 'a' }]], ['hyperparameters', [{ value: 'b' }]], ['hyperparameters', ['n_epochs=3']],
    ['eventsLeftOut', undefined], ['eventsLeftOut', '2'],
    ['events', undefined], ['events', Array.from({ length: MAX_EVENTS_SHOWN + 1 }, () => ({ at: 1, level: 'info', message: 'm' }))],
    ['events', [{ at: '1', level: 'info', message: 'm' }]], ['events', [{ at: 1, level: s(21), message: 'm' }]],
    ['events', [{ at: 1, level: 'info', message: s(4001) }]], ['events', [{ at: 1, message: 'm' }]], ['events', [null]],
    ['checkpoints', undefined], ['checkpoints', Array.from({ length: 501 }, () => ({ step: 1, model: 'm' }))],
    ['checkpoints', [{ step: '1', model: 'm' }]], ['checkpoints', [{ step: 1, model: s(501) }]], ['checkpoints', [{ step: 1 }]],
    ['checkpoints', [{ step: 1, model: 'm', trainLoss: '0.5' }]], ['checkpoints', [{ step: 1, model: 'm', validLoss: '0.6' }]], ['checkpoints', ['m']],
    ['points', undefined], ['points', Array.from({ length: 20_001 }, (_, i) => ({ step: i }))],
    ['points', [{ step: '1' }]], ['points', [{ step: 1, train: '1.2' }]], ['points', [{ step: 1, valid: NaN }]], ['points', [1]],
  ];
  for (const [field, value] of wrong) {
    const long = typeof value === 'string' && value.length > 20 ? `${value.length} characters` : undefined;
    const shown = long ?? (Array.isArray(value) && value.length > 3 ? `${value.length} items` : (JSON.stringify(value) ?? String(value)));
    it(`drops a job whose ${field} is ${shown}`, () => {
      assert.equal(accepted({ ...view(), [field]: value }), false);
      assert.equal(isJobView({ ...view(), [field]: value }), false);
    });
  }

  it('accepts every field at its bound', () => {
    const full: JobView = {
      ...view(),
      id: s(200), connectionLabel: s(500), status: s(50), model: s(500), fineTunedModel: s(500), suffix: s(100),
      trainingFile: s(200), validationFile: s(200), error: s(4000),
      hyperparameters: Array.from({ length: 50 }, () => ({ name: s(100), value: s(200) })),
      events: Array.from({ length: MAX_EVENTS_SHOWN }, () => ({ at: 1, level: s(20), message: s(4000) })),
      checkpoints: Array.from({ length: 500 }, () => ({ step: 1, model: s(500) })),
      points: Array.from({ length: 20_000 }, (_, i) => ({ step: i })),
    };
    assert.ok(isJobView(full));
    assert.ok(isJobView({ ...view(), final: true }));
  });

  it('drops what is not a job message at all', () => {
    const notJobs = [null, 'job', [view()], { type: 'warning', text: 'x' }, 
      { type: 'job' }, { type: 'job', job: [] }, { type: 'jobs', job: view() }, { type: 'error' }, { type: 'error', text: 5 }, { job: view() }];
    for (const m of notJobs) {
      assert.equal(parseFineTuningHostMessage(m), undefined, JSON.stringify(m));
    }
    assert.equal(isJobView(null), false);
    assert.equal(isJobView([view()]), false);
    assert.deepEqual(parseFineTuningHostMessage({ type: 'error', text: s(2000) }), { type: 'error', text: s(2000) });
  });
});

describe("fine-tuning page protocol: the page's messages", () => {
  it('passes ready, refresh and every action, and nothing else', () => {
    assert.deepEqual(parseFineTuningViewMessage({ type: 'ready', x: 1 }), { type: 'ready' });
    assert.deepEqual(parseFineTuningViewMessage({ type: 'refresh' }), { type: 'refresh' });
    assert.deepEqual(JOB_ACTIONS, ['cancel', 'pause', 'resume', 'deploy']);
    for (const action of JOB_ACTIONS) assert.deepEqual(parseFineTuningViewMessage({ type: 'act', action }), { type: 'act', action });
    for (const m of [null, [], { type: 'act' }, { type: 'act', action: 'delete' }, { type: 'cancel' }, { action: 'cancel' }, { type: 'refresh!' }]) {
      assert.equal(parseFineTuningViewMessage(m), undefined, JSON.stringify(m));
    }
  });

  it('says a loss to four places, and a dash when there is none', () => {
    assert.equal(formatLoss(0.123456), '0.1235');
    assert.equal(formatLoss(2), '2.0000');
    assert.equal(formatLoss(undefined), '–');
  });
});
