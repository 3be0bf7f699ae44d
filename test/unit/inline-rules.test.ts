import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InlineBudget, nextMidnight } from '../../src/chat/inline/budget';
import { SuggestionCache } from '../../src/chat/inline/cache';
import { afterDebounce } from '../../src/chat/inline/engine';
import { DEFAULT_EXCLUDE, GitIgnoredFiles, matchingPattern, withheld } from '../../src/chat/inline/exclude';
import { scratchDir } from '../support/scratchDir';

describe('inline suggestions: the cache', () => {
  const key = SuggestionCache.key({ connection: 'c', deployment: 'd', path: 'a.ts', languageId: 'typescript', suffix: '\n}' });

  it('shows the rest of a suggestion while the user types it, and the whole again after Backspace', () => {
    const cache = new SuggestionCache();
    cache.put(key, 'function f() {\n  ', 'return 1;\n  // done');
    assert.equal(cache.get(key, 'function f() {\n  r'), 'eturn 1;\n  // done');
    assert.equal(cache.get(key, 'function f() {\n  return 1;\n'), '  // done');
    assert.equal(cache.get(key, 'function f() {\n  '), 'return 1;\n  // done');
    // Typed something else, typed it all, or another file or suffix: no suggestion from the cache.
    assert.equal(cache.get(key, 'function f() {\n  x'), undefined);
    assert.equal(cache.get(key, 'function f() {\n  return 1;\n  // done'), undefined);
    assert.equal(cache.get(SuggestionCache.key({ connection: 'c', deployment: 'd', path: 'a.ts', languageId: 'typescript', suffix: '' }), 'function f() {\n  r'), undefined);
  });

  it('remembers that the model had nothing for a spot, and forgets the oldest past its capacity', () => {
    const cache = new SuggestionCache(2);
    cache.put(key, 'a', '');
    assert.equal(cache.get(key, 'a'), '');
    assert.equal(cache.get(key, 'ab'), undefined);
    cache.put(key, 'b', 'x');
    cache.put(key, 'c', 'y');
    assert.equal(cache.get(key, 'a'), undefined);
    assert.equal(cache.get(key, 'c'), 'y');
  });
});

describe('inline suggestions: the budget', () => {
  it('pauses after the hour\'s requests until the oldest of them is an hour old', () => {
    let now = 1_000_000;
    const budget = new InlineBudget({ requestsPerHour: 2, tokensPerDay: 1e9 }, () => now);
    budget.request();
    now += 1000;
    budget.request();
    assert.deepEqual(budget.pause(), { reason: 'requests', until: 1_000_000 + 3_600_000 });
    now = 1_000_000 + 3_600_001;
    assert.equal(budget.pause(), undefined);
  });

  it('pauses after the day\'s tokens until midnight, and counts afresh the next day', () => {
    let now = new Date(2026, 10, 28, 15, 0).getTime();
    const budget = new InlineBudget({ requestsPerHour: 100, tokensPerDay: 1000 }, () => now);
    budget.spent(600);
    assert.equal(budget.pause(), undefined);
    budget.spent(400);
    assert.deepEqual(budget.pause(), { reason: 'tokens', until: new Date(2026, 10, 29).getTime() });
    now = new Date(2026, 10, 29, 0, 1).getTime();
    assert.equal(budget.pause(), undefined);
    assert.equal(budget.snapshot().tokens, 0);
    assert.equal(nextMidnight(new Date(2026, 11, 31, 23, 59).getTime()), new Date(2027, 0, 1).getTime());
  });

  it('pauses for the time a 429 gave', () => {
    let now = 5_000;
    const budget = new InlineBudget({ requestsPerHour: 100, tokensPerDay: 1e9 }, () => now);
    budget.rateLimited(30_000);
    assert.deepEqual(budget.pause(), { reason: 'rateLimited', until: 35_000 });
    now = 35_000;
    assert.equal(budget.pause(), undefined);
  });

  it('a reload keeps what was spent (the hour\'s requests, the day\'s tokens, a 429\'s pause); a malformed state is left out', () => {
    const now = new Date(2026, 10, 28, 15, 0).getTime();
    const before = new InlineBudget({ requestsPerHour: 2, tokensPerDay: 1000 }, () => now);
    before.request();
    before.request();
    before.spent(1000);
    before.rateLimited(60_000);
    const after = new InlineBudget({ requestsPerHour: 2, tokensPerDay: 1000 }, () => now);
    after.restore(JSON.parse(JSON.stringify(before.snapshot())));
    assert.deepEqual(after.pause(), { reason: 'rateLimited', until: now + 60_000 });
    const later = new InlineBudget({ requestsPerHour: 2, tokensPerDay: 1000 }, () => now + 60_000);
    later.restore(before.snapshot());
    assert.deepEqual(later.pause(), { reason: 'requests', until: now + 3_600_000 });
    assert.equal(later.snapshot().tokens, 1000);
    const fresh = new InlineBudget({ requestsPerHour: 2, tokensPerDay: 1000 }, () => now);
    for (const bad of [undefined, null, 'x', { sent: ['a', -1, NaN], tokens: 'lots', dayEnds: 5, rateLimitedUntil: Infinity }]) fresh.restore(bad);
    assert.equal(fresh.pause(), undefined);
    assert.equal(fresh.snapshot().tokens, 0);
  });
});

describe('inline suggestions: what is never sent', () => {
  it('excludes environment files, keys, certificates and secrets folders by default, at any depth', () => {
    for (const p of ['.env', '.env.local', 'app/.env.production', '/home/me/project/.env', 'C:\\work\\app\\.env', 'certs/server.pem', 'id.key', 'secrets/db.json', 'deploy/secrets/token.txt']) {
      assert.ok(matchingPattern(DEFAULT_EXCLUDE, p), p);
    }
    for (const p of ['src/env.ts', 'environment.md', 'keys.ts', 'src/secret.ts', 'docs/pem.md']) assert.equal(matchingPattern(DEFAULT_EXCLUDE, p), undefined, p);
    // A pattern the package refuses matches nothing rather than throwing.
    assert.equal(matchingPattern(['../x'], 'a/x'), undefined);
    assert.equal(matchingPattern(['generated/**'], 'generated/api.ts'), 'generated/**');
  });

  it('withholds git-ignored files, untitled documents unless enabled, untrusted folders, and what is not a file', async () => {
    const repo = scratchDir('inline-exclude-');
    mkdirSync(join(repo, '.git'));
    mkdirSync(join(repo, 'build'));
    writeFileSync(join(repo, '.gitignore'), 'build/\n*.log\n');
    const git = new GitIgnoredFiles();
    const rules = { patterns: DEFAULT_EXCLUDE, allowUntitled: false, trusted: true };
    const file = (rel: string) => ({ scheme: 'file', fsPath: join(repo, rel), relativePath: rel });
    assert.equal(await withheld(file('src/app.ts'), rules, git), undefined);
    assert.equal(await withheld(file('build/out.js'), rules, git), 'gitignored');
    assert.equal(await withheld(file('debug.log'), rules, git), 'gitignored');
    assert.equal(await withheld(file('.env'), rules, git), 'excluded');
    assert.equal(await withheld(file('src/app.ts'), { ...rules, trusted: false }, git), 'untrusted');
    assert.equal(await withheld({ scheme: 'untitled', relativePath: 'Untitled-1' }, rules, git), 'untitled');
    assert.equal(await withheld({ scheme: 'untitled', relativePath: 'Untitled-1' }, { ...rules, allowUntitled: true }, git), undefined);
    assert.equal(await withheld({ scheme: 'git', fsPath: join(repo, 'src/app.ts'), relativePath: 'src/app.ts' }, rules, git), 'notAFile');
    assert.equal(await withheld({ scheme: 'vscode-remote', fsPath: join(repo, 'src/app.ts'), relativePath: 'src/app.ts' }, rules, git), undefined);
  });
});

describe('inline suggestions: who chooses the settings', () => {
  it('a workspace may add exclude patterns, never remove one, and cannot choose the deployment, the budgets or turn suggestions on', async () => {
    const { resolveSetting } = await import('../../src/vscode/settingRules');
    const defaultValue = [...DEFAULT_EXCLUDE];
    assert.deepEqual(resolveSetting('inline.exclude', { defaultValue, workspaceValue: [] }), defaultValue);
    assert.deepEqual(resolveSetting('inline.exclude', { defaultValue, workspaceValue: ['generated/**'], workspaceFolderValue: ['*.log'] }), [...defaultValue, 'generated/**', '*.log']);
    assert.deepEqual(resolveSetting('inline.exclude', { defaultValue, globalValue: ['*.pem'], workspaceValue: ['*.pem', 'out/**'] }), ['*.pem', 'out/**']);
    assert.equal(resolveSetting('inline.deployment', { defaultValue: '', workspaceValue: 'attacker-deployment' }), '');
    assert.equal(resolveSetting('inline.enabled', { defaultValue: true, globalValue: false, workspaceValue: true }), false);
    assert.equal(resolveSetting('inline.maxTokensPerDay', { defaultValue: 2_000_000, workspaceValue: 1e9 }), 2_000_000);
    assert.equal(resolveSetting('inline.debounceMs', { defaultValue: 150, workspaceValue: 99_999 }), 2000);
  });
});

describe('inline suggestions: the debounce', () => {
  it('lets a call through once the wait passed, and ends it as soon as the next keystroke cancels it', async () => {
    assert.equal(await afterDebounce(5, new AbortController().signal), true);
    assert.equal(await afterDebounce(0, new AbortController().signal), true);
    const keystroke = new AbortController();
    const waiting = afterDebounce(60_000, keystroke.signal);
    keystroke.abort();
    assert.equal(await waiting, false, 'a cancelled wait ends at once, not after its minute');
    assert.equal(await afterDebounce(5, keystroke.signal), false, 'an already cancelled call sends nothing');
  });
});
