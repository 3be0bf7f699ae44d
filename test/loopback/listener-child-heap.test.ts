/**
 * What a burst through the listener's process leaves in the extension host's young generation
 * (issue #35): V8 doubles it once the bytes that survive its scavenges pass its size, so a burst
 * must leave little surviving per delivery. The child hands each kept record over as its JSON
 * bytes; the host stores and writes them as they are, and decodes none while nothing asks. A host
 * process of its own (test/support/hostSurvival.ts, 1 MB semi-spaces), the real child, real files,
 * deliveries on loopback; the scavenges are V8's own report.
 */
import assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import { join } from 'node:path';
import type { SurvivalReport } from '../support/hostSurvival';

describe('the listener in its own process, and the host heap', function () {
  this.timeout(180_000);

  it('2,000 deliveries leave the host under 3,000 bytes each surviving its scavenges, and read back as recorded', async () => {
    const host = fork(join(__dirname, '../support/hostSurvival.ts'), ['2000'], { execArgv: ['--max-semi-space-size=1', '--import', 'tsx'], stdio: 'inherit' });
    const report = await new Promise<SurvivalReport>((resolve, reject) => {
      host.on('message', (m) => resolve(m as SurvivalReport));
      host.on('exit', (code) => reject(new Error(`the host ended (exit code ${code}) before it reported`)));
    });
    assert.equal(report.kept, 1000, 'the newest 1,000 are kept');
    assert.deepEqual(report.newest, { eventId: 'evt_burst_1999', verdict: 'verified', frozen: true }, 'newest first, as the child recorded it');
    // Records as parsed objects over the channel (stringified again for the store): 9.6–11.5 KB a delivery here, in 27–29 scavenges.
    const each = report.survivedBytes / 2000;
    assert.ok(report.scavenges >= 3, `only ${report.scavenges} scavenges: nothing measured`);
    assert.ok(each < 3000, `${each.toFixed(0)} bytes a delivery survived ${report.scavenges} scavenges`);
  });
});
