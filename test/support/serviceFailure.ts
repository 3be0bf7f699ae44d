/** The ServiceError a call ends with; the test fails if it succeeds or throws something else. */
import assert from 'node:assert/strict';
import { ServiceError } from '../../src/service/errors';

export async function failure(p: Promise<unknown>): Promise<ServiceError> {
  const err = await p.then(
    () => assert.fail('expected the call to fail'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof ServiceError, `expected a ServiceError, got ${err}`);
  return err;
}
