/**
 * Which deployments a connection offers to language model consumers, and how each is described:
 * named so the user sees which resource it is on, with family, version, windows and capabilities
 * from the model profile. Plain data: the VS Code layer hands it on as it is.
 */
import * as l10n from '@vscode/l10n';
import type { Deployment } from '../../service/types';
import { modelProfile } from '../modelProfile';
import { apiRoute } from '../engine/apiChoice';
import { hostOf } from '../naming';
import { groupDigits } from '../../text/format';

export interface LmModelEntry {
  /** `<connection id>/<deployment>`: unique across connections, stable while both exist. */
  id: string;
  connectionId: string;
  deployment: string;
  /** The deployment's model name (e.g. `gpt-4o`). */
  model: string;
  /** What the model picker shows: the deployment, then the connection. */
  name: string;
  detail: string;
  tooltip: string;
  family: string;
  version: string;
  maxInputTokens: number;
  maxOutputTokens: number;
  /** `toolCalling`: how many tools a request may carry (VS Code trims to it), or false. */
  capabilities: { toolCalling: number | false; imageInput: boolean };
}

/** Chat Completions and Responses take at most 128 functions per request. */
export const MAX_TOOLS = 128;

export interface LmConnection {
  id: string;
  label: string;
  endpoint: string;
}

/** Models that do not chat: embeddings, images, audio, video, moderation, completions-only. */
const NOT_CHAT = /embedding|dall-e|gpt-image|whisper|tts|transcribe|audio|realtime|sora|moderation|davinci|babbage|^ada|instruct/i;

/**
 * True when a consumer could chat with it here: a chat model, ready, on an API the provider speaks,
 * and not a batch deployment (Global-Batch, Data Zone Batch: the service refuses live calls on them).
 */
export function isChatDeployment(d: Deployment): boolean {
  if (d.provisioningState && !/succeeded/i.test(d.provisioningState)) return false;
  if (d.sku && /batch/i.test(d.sku)) return false;
  const model = d.model || d.name;
  // Stryker disable next-line ConditionalExpression: every profile today is served on an API the provider speaks
  return !NOT_CHAT.test(model) && apiRoute(modelProfile(model)) !== undefined;
}

export const lmModelId = (connectionId: string, deployment: string) => `${connectionId}/${deployment}`;

export function lmModelEntries(conn: LmConnection, deployments: readonly Deployment[]): LmModelEntry[] {
  const host = hostOf(conn.endpoint);
  return deployments.filter(isChatDeployment).map((d) => {
    const model = d.model || d.name;
    const profile = modelProfile(model);
    const limits = d.rateLimits?.tokensPerMinute ? `, ${groupDigits(d.rateLimits.tokensPerMinute)} tokens/min` : '';
    const sku = d.sku ? ` · ${d.sku}${limits}` : limits;
    return {
      id: lmModelId(conn.id, d.name),
      connectionId: conn.id,
      deployment: d.name,
      model,
      name: `${d.name} (${conn.label})`,
      detail: conn.label === host ? host : `${conn.label} · ${host}`,
      tooltip: `${l10n.t('Deployment "{0}" of {1} on {2}', d.name, `${model}${d.modelVersion ? ` ${d.modelVersion}` : ''}`, host)}${sku}`,
      family: profile.known ? profile.family : model,
      version: d.modelVersion ?? model,
      maxInputTokens: profile.maxInputTokens,
      maxOutputTokens: profile.maxOutputTokens,
      capabilities: { toolCalling: profile.toolCalling ? MAX_TOOLS : false, imageInput: profile.imageInput },
    };
  });
}
