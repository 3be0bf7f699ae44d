/**
 * Pieces of the neutral messages that every API's mapping reads alike: images as `data:` URLs,
 * the text of a message, a tool call's arguments as JSON, and the check that refuses images for a
 * model that does not read them before anything is sent.
 */
import * as l10n from '@vscode/l10n';
import type { ModelProfile } from '../modelProfile';
import type { ImagePart, TextPart } from './messages';

/** A request this model cannot take (images for a text-only model, and the like): said before anything is sent. */
export class UnsupportedInputError extends Error {
  override readonly name = 'UnsupportedInputError';
}

/** Where the service reads the image: its own address, or its bytes as a `data:` URL. */
export const dataUrl = (image: ImagePart) => image.url ?? `data:${image.mimeType};base64,${Buffer.from(image.data).toString('base64')}`;

export const textOf = (parts: ReadonlyArray<{ type: string }>) =>
  // Stryker disable next-line ConditionalExpression: the other parts have no text, and an absent text joins as nothing
  parts.filter((p): p is TextPart => p.type === 'text').map((p) => p.text).join('');

/** Arguments travel as a JSON string; a string input is taken to be that JSON already. */
export function argumentsOf(input: unknown): string {
  if (typeof input === 'string') return input;
  return JSON.stringify(input ?? {});
}

/** Throws when `parts` hold an image and the model reads none, naming the deployment and what to do. */
export function checkImages(parts: ReadonlyArray<{ type: string }>, profile: Pick<ModelProfile, 'imageInput' | 'family'>, deployment: string): void {
  if (!profile.imageInput && parts.some((p) => p.type === 'image')) {
    throw new UnsupportedInputError(
      l10n.t(
        'The deployment "{0}" ({1}) does not take images. Remove the image, or pick a deployment of a model that reads images ({2}).',
        deployment,
        profile.family,
        'gpt-4o, gpt-4.1, o3, ...',
      ),
    );
  }
}
