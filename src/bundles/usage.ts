/**
 * The usage log and what reads it (records, caps, prices, the view's tables, CSV), bundled apart
 * from the extension as `dist/usage-log.js` (see esbuild.mjs) and required on first use through
 * `loadUsage()` in src/vscode/bundles.ts: activation does not parse it; the first request's
 * record, the usage view or the status bar's first read loads it.
 */
export { UsageLog, usageCaps } from '../usage/usageLog';
export { readPriceSetting } from '../usage/prices';
export { usageTableCsv } from '../usage/csv';
export { dayLabel } from '../usage/days';
export { usageRecordOf } from '../chat/engine/usageRecord';
export { batchUsageRecords, claimOnce } from '../usage/batchUsage';
