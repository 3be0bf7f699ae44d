/**
 * Each page through its states, by the messages the extension sends (and a few clicks), for the
 * pseudo-locale test. Text the extension makes (titles, errors, notes, the doctor's advice) comes
 * pseudo-localized, as the extension's own translation would; `data` is what stays as it is in
 * every language; `english` holds words each state says in English, so a state not reached fails.
 */
import { aggregateUsage } from '../../src/usage/aggregate';
import { pseudo, type OpenPage } from './pageHarness';
import { NOW, usageRecord } from './usageRecords';

export interface Scenario {
  run(page: OpenPage, snapshot: () => Promise<void>): Promise<void>;
  data: string[];
  english: string[];
}

const T0 = Date.parse('2026-11-20T10:00:00Z');
const CODE = '\n\n```python\n42\n```\n';

const turn = (id: string, role: 'user' | 'assistant', at: number, over: Record<string, unknown> = {}) => ({ id, role, content: pseudo('Hello there, friend.'), createdAt: T0 + at, ...over });
const usage = (reasoning?: number) => ({
  prompt_tokens: 1200,
  completion_tokens: 300,
  total_tokens: 1500,
  ...(reasoning ? { completion_tokens_details: { reasoning_tokens: reasoning } } : {}),
});
const conversation = (turns: unknown[]) => ({
  id: 'conv1',
  title: pseudo('Chat with a deployment'),
  connectionId: 'c1',
  connectionLabel: 'Emulator',
  deployment: 'gpt-4o',
  params: { systemPrompt: pseudo('You are a helpful assistant.'), route: 'v1' },
  turns,
});
const DEPLOYMENTS = [{ connectionId: 'c1', connectionLabel: 'Emulator', deployment: 'gpt-4o', model: 'gpt-4o', modelVersion: '2024-11-20', sku: 'GlobalStandard' }];

export const CHAT: Scenario = {
  async run(page, snapshot) {
    await page.post({ type: 'init', conversation: conversation([]), deployments: DEPLOYMENTS, busy: false });
    await snapshot();
    const turns = [
      turn('u1', 'user', 0, { attachments: [{ id: 'f1', kind: 'file', name: 'notes.md' }] }),
      turn('a1', 'assistant', 1000, {
        content: pseudo('Hello there.') + CODE,
        deployment: 'gpt-4o',
        model: 'gpt-4o-2024-11-20',
        usage: usage(80),
        latencyMs: 1234,
        finishReason: 'length',
        reasoningSummary: pseudo('Thinking about a greeting.'),
        notes: [pseudo('Left out temperature: this model does not take it.')],
      }),
      turn('u2', 'user', 2000),
      turn('a2', 'assistant', 3000, { content: '', error: { message: pseudo('The content filter refused the prompt.'), kind: 'content_filter', code: 'content_filter' } }),
      turn('u3', 'user', 4000),
      turn('a3', 'assistant', 5000, { interrupted: true, usageEstimated: true, usage: usage(), stopped: true, finishReason: 'content_filter' }),
      turn('u4', 'user', 6000),
      turn('a4', 'assistant', 7000, { content: '', error: { message: pseudo('The service failed.'), kind: 'http', status: 500 } }),
    ];
    await page.post({ type: 'init', conversation: conversation(turns), deployments: DEPLOYMENTS, busy: false });
    await page.post({ type: 'attachments', items: [{ id: 's1', kind: 'selection', name: 'main.ts:1-5', tokens: 200_000 }], imageInput: true });
    await page.post({ type: 'restoreDraft', text: pseudo('Say it again.'), turnId: 'u4' });
    await page.page.click('.code-block [data-action="copy"]');
    await page.page.click('[data-action="copy-turn"][data-turn-id="a1"]', { force: true });
    await snapshot();
    await page.post({ type: 'turnStarted', turn: turn('a5', 'assistant', 8000, { content: '' }) });
    await page.post({ type: 'delta', turnId: 'a5', text: pseudo('A long answer. ').repeat(40) });
    await page.post({ type: 'backgroundStatus', turnId: 'a5', status: 'in_progress', elapsedSeconds: 4 });
    await snapshot();
    await page.post({ type: 'retryCountdown', turnId: 'a5', seconds: 7 });
    await snapshot();
  },
  data: ['gpt-4o-2024-11-20', 'gpt-4o', 'GlobalStandard', '2024-11-20', 'Emulator', 'notes.md', 'main.ts', 'python', 'v1 (/openai/v1)', 'api-version', '^(?:[a-z0-9-]+\\.)+[a-z]{2,}$'],
  english: [
    'Ask gpt-4o anything',
    'Example prompts',
    'Send',
    'cut at the token limit',
    'Reasoning',
    'Copied',
    'Copied to the clipboard.',
    'Edit your message and send it again',
    'This reply was cut off',
    'about 1200 + 300 = 1500 tokens (estimated)',
    'Retry',
    'Remove main.ts:1-5',
    'Your message is back in the box',
    'The next request is larger than the model takes',
    'Generating…',
    'Background reply in progress for 4 s',
    'Rate limited by the service: retrying in 7 s',
  ],
};

const column = (id: string, over: Record<string, unknown>) => ({ id, outcome: 'ok', content: '', finishReason: 'stop', totalMs: 900, notes: [], ...over });
const stat = (median: number) => ({ median, min: median / 2, max: median * 2 });

export const COMPARE: Scenario = {
  async run(page, snapshot) {
    const heads = [
      { id: 'a', label: 'gpt-4o', detail: 'Emulator · gpt-4o-2024-11-20' },
      { id: 'b', label: 'gpt-4o-mini', detail: 'Emulator · gpt-4o-mini' },
    ];
    await page.post({ type: 'init', columns: heads, settings: { systemPrompt: pseudo('Be brief.') }, busy: false });
    await page.post({ type: 'attachments', items: [{ id: 'f1', kind: 'file', name: 'notes.md' }], imageInput: true });
    await page.page.click('#send');
    await snapshot();
    await page.post({ type: 'roundStarted', round: 2, of: 3 });
    await page.post({ type: 'delta', id: 'a', text: pseudo('Hello') });
    await snapshot();
    const ok = column('a', {
      content: pseudo('Hello there.') + CODE,
      model: 'gpt-4o',
      firstTokenMs: 120,
      tokens: { prompt: 10, cached: 0, completion: 20, reasoning: 5 },
      tokensPerSecond: 31.5,
      costUsd: 0.0001,
      notes: [pseudo('Left out temperature.')],
    });
    const limited = column('b', { outcome: 'failed', finishReason: null, failure: { kind: 'rate_limited', message: pseudo('Too many requests.'), status: 429, retryAt: Date.now() + 60_000 } });
    await page.post({ type: 'column', column: ok });
    await page.post({ type: 'column', column: limited });
    await page.post({ type: 'roundEnded' });
    await page.post({ type: 'summary', summaries: [{ id: 'a', answered: 3, rounds: 3, firstTokenMs: stat(120), totalMs: stat(900), tokensPerSecond: stat(30), costUsd: stat(0.0001) }] });
    await snapshot();
    await page.post({ type: 'column', column: column('b', { outcome: 'stopped', tokens: { prompt: 10, cached: 0, completion: 2, reasoning: 0 } }) });
    await snapshot();
    await page.post({ type: 'roundStarted', round: 1, of: 1 });
    await snapshot();
  },
  data: ['gpt-4o-2024-11-20', 'gpt-4o-mini', 'gpt-4o', 'Emulator', 'notes.md', 'python', 'rate_limited', 'stop'],
  english: [
    'Compare 2 deployments',
    'Write a prompt first.',
    'Run 2 of 3…',
    'First token',
    '10 in, 20 out, 5 reasoning',
    '(estimate)',
    'Rate limited: try again in',
    'Every column has ended.',
    'Median (range) of 3/3 runs',
    'Continue in Chat with gpt-4o',
    'Remove notes.md',
    'stopped',
    'no price',
    'Sent to every deployment…',
  ],
};

const APP = 'http://127.0.0.1:3000/webhooks';
const BODY = '{"object":"event","type":"response.completed","data":{"id":"resp_1"}}';
const pretty = (json: string) => JSON.stringify(JSON.parse(json), null, 2);
const header = (name: string, value: string) => ({ name, value });
const answer = (over: Record<string, unknown>) => ({ kind: 'forward', edited: false, url: APP, ok: true, durationMs: 12, headers: [], body: '', ...over });
const delivery = (over: Record<string, unknown>) => ({
  id: 'evt_1',
  title: 'response.completed',
  verdict: 'verified',
  status: 200,
  receivedAt: T0,
  method: 'POST',
  path: '/webhooks',
  headers: [header('webhook-id', 'msg_1'), header('content-type', 'application/json')],
  body: BODY,
  replayable: true,
  appUrl: APP,
  responseId: 'resp_1',
  trace: {
    toleranceSeconds: 300,
    skewSeconds: 2,
    missingHeaders: [],
    received: ['v1,abc'],
    tried: [{ endpoint: 'ep1', hint: 'whsec_…abcd', expected: 'v1,abc', matched: true }],
    bodyBytes: 1200,
    bodySha256: '0a1b2c3d',
  },
  diagnoses: [{ cause: 'clock', title: pseudo('The clock is off.'), advice: pseudo('Set the time.'), evidence: [pseudo('Two hours ahead.')] }],
  answers: [
    answer({ at: T0 + 10, status: 200, headers: [header('content-type', 'application/json')], body: '{"ok":true}' }),
    answer({ kind: 'replay', edited: true, webhookId: 'msg_2', ok: false, error: pseudo('Connection refused.') }),
  ],
  ...over,
});

export const INSPECTOR: Scenario = {
  async run(page, snapshot) {
    await page.post({ type: 'empty', text: pseudo('No delivery yet.') });
    await snapshot();
    await page.post({ type: 'show', delivery: delivery({}) });
    await snapshot();
    const rejected = delivery({
      id: 'evt_2',
      verdict: 'rejected',
      reason: pseudo('No secret matched.'),
      replayable: false,
      notReplayable: pseudo('Only verified deliveries can be replayed.'),
      bodyNote: pseudo('The first bytes only.'),
      answers: [],
      trace: { toleranceSeconds: 300, skewSeconds: -500, missingHeaders: ['webhook-signature'], received: [], tried: [], bodyBytes: 10, bodySha256: '0a1b' },
    });
    await page.post({ type: 'show', delivery: rejected });
    await snapshot();
    await page.post({ type: 'show', delivery: delivery({ id: 'evt_3', answers: [], trace: undefined, appUrl: undefined }) });
    await snapshot();
    await page.post({ type: 'show', delivery: delivery({ id: 'evt_5', verdict: 'duplicate', answers: [] }) });
    await snapshot();
    await page.post({ type: 'show', delivery: delivery({ id: 'evt_4', answers: [] }) });
    await page.page.click('[data-action="edit"]');
    await snapshot();
    await page.page.click('[data-action="replay"]');
    await page.post({ type: 'busy', busy: true, text: pseudo('Replaying…') });
    await snapshot();
    await page.post({ type: 'busy', busy: false });
    await page.post({ type: 'show', delivery: delivery({ id: 'evt_4', answers: [answer({ kind: 'replay', status: 503, ok: false, error: pseudo('Busy.') })] }) });
    await snapshot();
    await page.post({ type: 'notice', level: 'info', text: pseudo('Copied a curl command.') });
    await snapshot();
    // Jobs and calls: a call's SIP headers with its actions, one with none; what a batch or job delivery opens.
    const sip = [header('From', '<sip:+15550100@pstn.example>')];
    await page.post({ type: 'show', delivery: delivery({ id: 'evt_6', answers: [], call: { callId: 'rtc_1', headers: sip, actionable: true }, subject: { kind: 'batch', id: 'b1' } }) });
    await snapshot();
    await page.post({ type: 'show', delivery: delivery({ id: 'evt_7', answers: [], call: { callId: 'rtc_1', headers: [], actionable: false }, subject: { kind: 'fineTuningJob', id: 'j1' } }) });
    await snapshot();
  },
  data: [
    ...[pretty(BODY), pretty('{"ok":true}'), APP, 'response.completed', 'aoaiWorkbench.webhooks.forwardTo'],
    ...['webhook-signature', 'webhook-id', 'content-type', 'application/json', 'whsec_…abcd', 'v1,abc', 'msg_2', 'msg_1', 'ep1', 'POST', '/webhooks', '0a1b2c3d', '0a1b'],
    ...['rtc_1', 'From', '<sip:+15550100@pstn.example>'],
  ],
  english: [
    'Choose a delivery',
    'Replay to app',
    'Likely cause',
    'received',
    'verified',
    'Forwarded on arrival',
    'Replay 1 (edited body)',
    'No answer',
    'Headers (1)',
    'Timestamp',
    'all three present',
    'matches',
    '2 s old on arrival (tolerance ±300 s): within',
    '500 s in the future on arrival',
    'missing: webhook-signature',
    'No signing secret is held here.',
    'Only verified deliveries are forwarded.',
    'Not forwarded: set "aoaiWorkbench.webhooks.forwardTo"',
    'Set "aoaiWorkbench.webhooks.forwardTo" to replay to your app.',
    'Replays go to http://127.0.0.1:3000/webhooks.',
    'Edited body: sent re-signed',
    'The app answered 503 (',
    'duplicate',
    'rejected',
    'Incoming call',
    'SIP headers, in the order the caller sent them',
    'Hang up',
    'Open batch results',
    'Open fine-tuning job',
    'The delivery carried no SIP headers.',
    'Not verified: nothing here acts on this call',
  ],
};

export const USAGE: Scenario = {
  async run(page, snapshot) {
    await page.post({ type: 'summary', summary: await aggregateUsage([], { now: NOW, zone: () => 0 }), filter: { connection: '', source: '' } });
    await snapshot();
    await page.post({ type: 'error', text: pseudo('The usage log could not be read.') });
    await snapshot();
    const records = [
      usageRecord({ rateLimit: { remainingRequests: 99, limitRequests: 100, remainingTokens: 9000 } }),
      usageRecord({ outcome: { kind: 'rate_limited', waitMs: 3000 }, at: NOW - 86_400_000 * 3 }),
      usageRecord({ outcome: { kind: 'error', status: 500 } }),
      usageRecord({ deployment: 'tuned', model: 'my-finetune', source: 'vscode-chat' }),
    ];
    const summary = await aggregateUsage(records, { now: NOW, zone: () => 0 });
    await page.post({ type: 'summary', summary, filter: { connection: '', source: '' } });
    await snapshot();
    for (const period of ['today', 'week']) {
      await page.page.selectOption('#window', period);
      await snapshot();
    }
    await page.page.selectOption('#metric', 'cost');
    await snapshot();
    // Filtered to a connection whose only request is older than the week shown.
    const older = await aggregateUsage([usageRecord({ at: NOW - 20 * 86_400_000 })], { now: NOW, zone: () => 0 });
    await page.post({ type: 'summary', summary: older, filter: { connection: 'c1', source: '' } });
    await snapshot();
  },
  data: ['my-finetune', 'gpt-4o', 'tuned', 'Emulator'],
  english: [
    'No usage recorded yet',
    'Requests per deployment, the last 30 days: 2 deployments',
    'Requests per deployment, today',
    'Requests per deployment, the last 7 days',
    '(1 failed)',
    'tokens only',
    '(no price)',
    'A model without a price shows tokens only.',
    'Tokens per day over the last 30 days',
    'Estimated cost (USD) per day and deployment',
    'requests: 99 of 100 left',
    'tokens: 9,000 left (limit not known)',
    'Batch',
    'No requests in the last 7 days with these filters.',
    'Every figure is in the table below.',
  ],
};
