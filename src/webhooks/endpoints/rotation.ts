/**
 * Rotating a webhook signing secret. The service has no rotate operation and shows a secret only
 * when an endpoint is created, so a rotation is: create a replacement with the same URL and event
 * types (its secret is kept), verify with both secrets while the app is updated, then delete the
 * old endpoint (finish) or the replacement (cancel). Both endpoints deliver during the overlap, so
 * each event arrives twice: the app's dedupe must be by event id, or the overlap kept short.
 */
import type { WebhookEndpoint, WebhookEndpointInput } from '../../service/types';

/** A rotation begun and not yet finished or cancelled. Ids and names only: never a secret. */
export interface PendingRotation {
  connectionId: string;
  oldId: string;
  newId: string;
  name: string;
  url: string;
  startedAt: number;
}

/** What a rotation needs from the endpoints' owner: `create` keeps the new secret before returning. */
export interface RotationEndpoints {
  create(input: WebhookEndpointInput): Promise<WebhookEndpoint>;
  delete(endpointId: string): Promise<void>;
}

export type RotationRole = 'replacement' | 'replaced';

/** The replacement's settings: the old endpoint's URL, event types and name. */
export function replacementFor(old: WebhookEndpoint): WebhookEndpointInput {
  return { name: old.name, url: old.url, event_types: [...old.event_types] };
}

export async function beginRotation(ops: RotationEndpoints, connectionId: string, old: WebhookEndpoint, now = Date.now()): Promise<PendingRotation> {
  const created = await ops.create(replacementFor(old));
  return { connectionId, oldId: old.id, newId: created.id, name: old.name, url: old.url, startedAt: now };
}

/** A delete that finds the endpoint gone already has nothing left to do. */
async function deleteIfThere(ops: RotationEndpoints, endpointId: string): Promise<void> {
  try {
    await ops.delete(endpointId);
  } catch (err) {
    if ((err as { status?: number }).status !== 404) throw err;
  }
}

/** Deletes the old endpoint: from now on only the new secret signs. */
export function finishRotation(ops: RotationEndpoints, r: PendingRotation): Promise<void> {
  return deleteIfThere(ops, r.oldId);
}

/** Deletes the replacement: the old secret stays the only one. */
export function cancelRotation(ops: RotationEndpoints, r: PendingRotation): Promise<void> {
  return deleteIfThere(ops, r.newId);
}

/** Which side of a pending rotation an endpoint is on, if any. */
export function rotationRole(
  rotations: readonly PendingRotation[],
  connectionId: string,
  endpointId: string,
): { rotation: PendingRotation; role: RotationRole } | undefined {
  for (const rotation of rotations) {
    if (rotation.connectionId !== connectionId) continue;
    if (rotation.newId === endpointId) return { rotation, role: 'replacement' };
    if (rotation.oldId === endpointId) return { rotation, role: 'replaced' };
  }
  return undefined;
}
