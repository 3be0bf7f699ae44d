/** A fine-tuning job as the service lists one, running unless `over` says otherwise (the page tests share it). */
import type { FineTuningJob } from '../../src/service/jobTypes';

export const fineTuningJob = (over: Record<string, unknown> = {}): FineTuningJob =>
  ({
    id: 'ftjob-1',
    object: 'fine_tuning.job',
    model: 'gpt-4.1-mini-2025-04-14',
    status: 'running',
    created_at: 1_700_000_000,
    finished_at: null,
    fine_tuned_model: null,
    error: null,
    training_file: 'file-a',
    validation_file: null,
    result_files: [],
    trained_tokens: null,
    ...over,
  }) as FineTuningJob;
