/**
 * The one message protocol between a fine-tuning job's page and the extension. Both sides import
 * this file and validate what they receive with it: a message that does not parse is dropped. The
 * job's texts (event messages, names, errors) come from the service: the page shows them as text.
 */
import { isObj, isText } from '../../service/shapes';

export interface LossPointView {
  step: number;
  train?: number;
  valid?: number;
}

export interface JobEventView {
  /** Seconds since the epoch. */
  at: number;
  level: string;
  message: string;
}

export interface CheckpointView {
  step: number;
  /** The checkpoint's model name (deployable). */
  model: string;
  trainLoss?: number;
  validLoss?: number;
}

export interface JobView {
  id: string;
  connectionLabel: string;
  status: string;
  /** The job can change no more (succeeded, failed, cancelled): the page stops saying it refreshes. */
  final: boolean;
  model: string;
  fineTunedModel?: string;
  suffix?: string;
  trainedTokens?: number;
  /** Seconds since the epoch. */
  createdAt: number;
  finishedAt?: number;
  estimatedFinish?: number;
  trainingFile: string;
  validationFile?: string;
  error?: string;
  hyperparameters: Array<{ name: string; value: string }>;
  /** Newest first; `eventsLeftOut` older ones are not shown. */
  events: JobEventView[];
  eventsLeftOut: number;
  checkpoints: CheckpointView[];
  points: LossPointView[];
}

/** Extension → page. */
export type FineTuningHostMessage =
  | { type: 'job'; job: JobView }
  /** The job could not be read: what happened and what to do (the page keeps what it showed). */
  | { type: 'error'; text: string };

export type JobAction = 'cancel' | 'pause' | 'resume' | 'deploy';
export const JOB_ACTIONS: readonly JobAction[] = ['cancel', 'pause', 'resume', 'deploy'];

/** Page → extension. */
export type FineTuningViewMessage = { type: 'ready' } | { type: 'refresh' } | { type: 'act'; action: JobAction };

/** Bounds: more than this is not a job of ours (the host caps events and points below these). */
export const MAX_EVENTS_SHOWN = 5000;
const MAX_POINTS = 20_000;

const isStr = (v: unknown, max = 1000): v is string => isText(v, max);
const optStr = (v: unknown, max = 1000) => v === undefined || isStr(v, max);
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const optNum = (v: unknown) => v === undefined || isNum(v);
const isList = (v: unknown, check: (x: unknown) => boolean, max: number): v is unknown[] => Array.isArray(v) && v.length <= max && v.every(check);

const isPoint = (v: unknown) => isObj(v) && isNum(v.step) && optNum(v.train) && optNum(v.valid);
const isEvent = (v: unknown) => isObj(v) && isNum(v.at) && isStr(v.level, 20) && isStr(v.message, 4000);
const isCheckpoint = (v: unknown) => isObj(v) && isNum(v.step) && isStr(v.model, 500) && optNum(v.trainLoss) && optNum(v.validLoss);
const isParam = (v: unknown) => isObj(v) && isStr(v.name, 100) && isStr(v.value, 200);

export function isJobView(v: unknown): v is JobView {
  if (!isObj(v) || !isStr(v.id, 200) || !v.id || !isStr(v.connectionLabel, 500) || !isStr(v.status, 50) || typeof v.final !== 'boolean') return false;
  if (!isStr(v.model, 500) || !optStr(v.fineTunedModel, 500) || !optStr(v.suffix, 100) || !optNum(v.trainedTokens)) return false;
  if (!isNum(v.createdAt) || !optNum(v.finishedAt) || !optNum(v.estimatedFinish) || !isStr(v.trainingFile, 200) || !optStr(v.validationFile, 200)) return false;
  if (!optStr(v.error, 4000) || !isList(v.hyperparameters, isParam, 50) || !isNum(v.eventsLeftOut)) return false;
  return isList(v.events, isEvent, MAX_EVENTS_SHOWN) && isList(v.checkpoints, isCheckpoint, 500) && isList(v.points, isPoint, MAX_POINTS);
}

/** Validates a message from the extension (the page trusts nothing it did not check). */
export function parseFineTuningHostMessage(v: unknown): FineTuningHostMessage | undefined {
  if (!isObj(v)) return undefined;
  if (v.type === 'job') return isJobView(v.job) ? { type: 'job', job: v.job } : undefined;
  if (v.type === 'error') return isStr(v.text, 2000) ? { type: 'error', text: v.text } : undefined;
  return undefined;
}

/** Validates a message from the page. */
export function parseFineTuningViewMessage(v: unknown): FineTuningViewMessage | undefined {
  if (!isObj(v)) return undefined;
  if (v.type === 'ready' || v.type === 'refresh') return { type: v.type };
  if (v.type === 'act' && JOB_ACTIONS.includes(v.action as JobAction)) return { type: 'act', action: v.action as JobAction };
  return undefined;
}

/** A loss as the page says it. */
export const formatLoss = (v: number | undefined) => (v === undefined ? '–' : v.toFixed(4));
