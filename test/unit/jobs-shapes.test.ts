/** Reading the service's job objects in every shape its own samples show. */
import assert from 'node:assert/strict';
import { ServiceError } from '../../src/service/errors';
import { pageQuery, seconds, toBatch, toFile, toJob, toPage } from '../../src/service/jobTypes';
import { checkTransferTarget } from '../../src/service/calls';
import { checkDeploymentName } from '../../src/service/armDeployments';

const invalid = (re: RegExp) => (e: unknown) => e instanceof ServiceError && e.kind === 'invalid-response' && e.host === 'h' && re.test(e.message);

describe('job shapes', () => {
  it('reads a batch from Azure\'s REST sample: ISO times, "Validating", null counts, empty file ids, endpoint null', () => {
    const b = toBatch(
      {
        id: 'batch_1',
        status: 'Validating',
        created_at: '2024-07-19T21:13:57Z',
        completed_at: null,
        expires_at: 1721510037,
        input_file_id: 'file-in',
        output_file_id: '',
        error_file_id: null,
        endpoint: null,
        request_counts: { total: null, completed: 2, failed: 'x' },
        errors: { data: [{ code: 'c', message: 'm' }] },
        metadata: { a: 'b' },
      },
      'h',
    );
    assert.equal(b.status, 'validating');
    assert.equal(b.created_at, Date.UTC(2024, 6, 19, 21, 13, 57) / 1000);
    assert.equal(b.completed_at, null);
    assert.equal(b.expires_at, 1721510037);
    assert.deepEqual([b.input_file_id, b.output_file_id, b.error_file_id, b.endpoint], ['file-in', null, null, null]);
    assert.deepEqual(b.request_counts, { total: 0, completed: 2, failed: 0 });
    assert.deepEqual(b.errors, { data: [{ code: 'c', message: 'm' }] });
    assert.deepEqual(b.metadata, { a: 'b' });
    assert.equal(b.object, 'batch');
    const bare = toBatch({ id: 'batch_2', endpoint: '/v1/responses', errors: { data: 'no' }, metadata: [] }, 'h');
    assert.deepEqual([bare.input_file_id, bare.request_counts.total, bare.errors, bare.metadata, bare.created_at, bare.endpoint], ['', 0, null, null, 0, '/v1/responses']);
    assert.throws(() => toBatch({ id: '' }, 'h'), invalid(/expected a batch object/));
    assert.throws(() => toBatch({ id: 5 }, 'h'), invalid(/expected a batch object/));
    const times = toBatch({ id: 'batch_3', in_progress_at: '2024-07-19T21:14:00Z' }, 'h');
    assert.equal(times.in_progress_at, Date.UTC(2024, 6, 19, 21, 14) / 1000, 'every time in seconds, not only created_at');
    assert.ok(!('failed_at' in times), 'a time the service did not send stays absent');
    assert.throws(() => toBatch(null, 'h'), invalid(/batch/));
    assert.throws(() => toBatch([], 'h'), invalid(/batch/));
  });

  it('reads a fine-tuning job: older "pending" is queued, empty names are null, an empty error is none', () => {
    const j = toJob(
      {
        id: 'ftjob-1',
        status: 'pending',
        created_at: 5,
        finished_at: '1970-01-01T00:00:10Z',
        fine_tuned_model: '',
        error: {},
        result_files: ['file-r', 3],
        trained_tokens: 'many',
        validation_file: '',
      },
      'h',
    );
    assert.deepEqual([j.status, j.created_at, j.finished_at, j.fine_tuned_model, j.error, j.result_files, j.trained_tokens, j.validation_file], ['queued', 5, 10, null, null, ['file-r'], null, null]);
    const done = toJob({ id: 'ftjob-2', status: 'Succeeded', fine_tuned_model: 'm.ft-1', error: { code: 'x' }, trained_tokens: 9 }, 'h');
    assert.deepEqual([done.status, done.fine_tuned_model, done.error, done.trained_tokens, done.result_files, done.created_at], ['succeeded', 'm.ft-1', { code: 'x' }, 9, [], 0]);
    assert.equal(toJob({ id: 'ftjob-3' }, 'h').status, '');
    assert.deepEqual(toJob({ id: 'ftjob-4', error: { message: 'bad line 3' } }, 'h').error, { message: 'bad line 3' });
    assert.throws(() => toJob({}, 'h'), invalid(/fine-tuning job/));
    assert.throws(() => toJob({ id: 7 }, 'h'), invalid(/fine-tuning job/));
  });

  it('reads a file; lists in both shapes; stops when the service repeats the cursor', () => {
    const f = toFile({ id: 'file-1', bytes: '3', created_at: '2025-01-01T00:00:00Z', status: 'Processed' }, 'h');
    assert.deepEqual([f.bytes, f.created_at, f.status, f.object], [null, Date.UTC(2025, 0, 1) / 1000, 'processed', 'file']);
    assert.throws(() => toFile({ id: 3 }, 'h'), invalid(/a file object/));
    const item = (x: unknown) => x as { id: string };
    assert.deepEqual(toPage({ data: [{ id: 'a' }, { id: 'b' }], has_more: true }, 'h', item), { data: [{ id: 'a' }, { id: 'b' }], hasMore: true, next: 'b' });
    assert.deepEqual(toPage({ data: [{ id: 'a' }], has_more: true, last_id: 'z' }, 'h', item).next, 'z');
    assert.equal(toPage({ data: [{ id: 'a' }, { id: 'b' }, { id: 'c' }], has_more: true }, 'h', item).next, 'c', 'the last item, without last_id');
    assert.deepEqual(toPage({ data: [{ id: 'a' }], has_more: true, last_id: 'a' }, 'h', item, 'a'), { data: [{ id: 'a' }], hasMore: false });
    assert.deepEqual(toPage({ data: [], has_more: true }, 'h', item), { data: [], hasMore: false });
    assert.deepEqual(toPage({ value: [{ id: 'v' }], has_more: 'yes' }, 'h', item), { data: [{ id: 'v' }], hasMore: false });
    assert.throws(() => toPage({ items: [] }, 'h', item), invalid(/a list with a data array/));
    assert.throws(() => toPage('x', 'h', item), invalid(/list/));
  });

  it('turns times into seconds and builds page queries', () => {
    assert.deepEqual([seconds(12), seconds('1970-01-01T00:01:00.900Z'), seconds('soon'), seconds(''), seconds(NaN), seconds(undefined)], [12, 60, null, null, null, null]);
    assert.equal(pageQuery({}), '');
    assert.equal(pageQuery({ after: 'x y', limit: 5, extra: { purpose: 'batch', none: undefined } }), '?after=x+y&limit=5&purpose=batch');
  });

  it('transfers only to tel: and sip: addresses; deployments only get names Resource Manager takes', () => {
    assert.equal(checkTransferTarget(' tel:+1 (555) 010-0199 '), 'tel:+1 (555) 010-0199');
    assert.equal(checkTransferTarget('sip:desk@example.com'), 'sip:desk@example.com');
    assert.equal(checkTransferTarget('SIPS:desk@example.com'), 'SIPS:desk@example.com');
    assert.equal(checkTransferTarget('tel:15550100'), 'tel:15550100', 'a number without +');
    assert.throws(() => checkTransferTarget('call sip:bob@example.com'), /is not a place to transfer a call to/);
    assert.throws(() => checkTransferTarget(`sip:${'a'.repeat(150)}`), (e: Error) => e.message.startsWith(`"sip:${'a'.repeat(96)}" is not a place`));
    assert.throws(() => checkDeploymentName(`-${'b'.repeat(120)}`), (e: Error) => e.message.startsWith(`"-${'b'.repeat(79)}" cannot name a deployment`));
    for (const bad of ['https://evil.example', 'tel:', 'sip:nobody', 'sip:a b@c', 'tel:+1; x', `tel:+${'1'.repeat(40)}`]) {
      assert.throws(() => checkTransferTarget(bad), /use tel:\+15551234567 or sip:/, bad);
    }
    assert.equal(checkDeploymentName('my-model_v1.2'), 'my-model_v1.2');
    for (const bad of ['x', '-lead', 'a/b', 'a'.repeat(65), 'a?b']) assert.throws(() => checkDeploymentName(bad), /cannot name a deployment/, bad);
    assert.equal(checkDeploymentName('a'.repeat(64)).length, 64);
  });
});
