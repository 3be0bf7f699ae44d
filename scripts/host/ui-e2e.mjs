// End-to-end through the real workbench in Chromium, as a person would: runs the UI journeys
// (test/ui/journeys.ts, TypeScript loaded through tsx), each in a fresh emulator, code-server and
// browser; each saves screenshots into the artifacts folder. Lanes run journeys side by side.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulatorProcess } from './emulatorProcess.mjs';
import { CHROMIUM_ARGS, chromiumPath, startCodeServer, workbenchUrl } from './codeServer.mjs';
import { startLocalAzure } from './localAzure.mjs';
import { PSEUDO_LOCALE, pseudoLocale } from './pseudoLocale.mjs';

/**
 * `lanes`: one promise per lane, the lane starting when it settles; each lane takes the next journey
 * not yet taken, so lanes run side by side (each journey has its own servers, browser and ports).
 */
export async function runUiTests(chromium, root, artifacts, vsix, lanes = [Promise.resolve()]) {
  const { tsImport } = await import('tsx/esm/api');
  const { journeys } = await tsImport('../../test/ui/journeys.ts', import.meta.url);
  let passed = 0;
  let failed = 0;
  /** Each journey's time, its servers' start and stop included: what it costs a run. */
  const times = [];
  // HOST_GREP picks UI tests by name too, for iterating on one feature.
  const grep = process.env.HOST_GREP ? new RegExp(process.env.HOST_GREP) : undefined;
  const queue = longestFirst(journeys.filter((j) => !grep || grep.test(j.title)), artifacts);
  const lane = async (gate) => {
    await gate;
    for (let journey = queue.shift(); journey; journey = queue.shift()) {
      if (await runJourney(journey)) passed++;
      else failed++;
    }
  };
  async function runJourney({ title, run, locale, localAzure }) {
    const started = Date.now();
    const config = join(root, 'scripts', 'emulator.dev.json');
    // `npm start`'s set-up: an identity provider beside the emulator, VS Code signed in to it (localAzure.mjs).
    const azure = localAzure ? await startLocalAzure(root, { configFile: config }) : undefined;
    const emulator = azure?.emulator ?? (await startEmulatorProcess(root, ['--config', config]));
    // A journey in the pseudo-locale: its translations beside the installed extension's English files.
    const pseudo = locale === PSEUDO_LOCALE ? pseudoLocale(root) : undefined;
    // The walkthrough opens at the first look at the sidebar, and its editor would take the focus from
    // a journey's first quick pick: only the walkthrough's own journey turns it on.
    const server = await startCodeServer({
      extraArgs: ['--vscode-option', 'enable-smoke-test-driver'],
      vsix,
      locale,
      afterInstall: pseudo?.install,
      env: azure?.env,
      settings: { 'workbench.welcomePage.walkthroughs.openOnInstall': false, ...azure?.settings },
    });
    const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
    const page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
    if (pseudo) {
      server.pseudoLocale = { nls: pseudo.nls, bundle: pseudo.bundle };
      // What a language pack's nls.messages.js sets, which the workbench reads for its display
      // language and hands the extension host: code-server has no pack for qps-ploc, so VS Code's
      // own words stay English while every extension's run in the pseudo-locale.
      await page.addInitScript((language) => (globalThis._VSCODE_NLS_LANGUAGE = language), locale);
    }
    try {
      await page.goto(workbenchUrl(server, {}));
      await run(page, emulator, artifacts, server);
      console.log(`  ✔ ${title}`);
      return true;
    } catch (err) {
      // CI keeps only the log: what the window showed at the failure, in words, beside the picture;
      // one console.log, so that a lane beside it cannot cut into it.
      const shown = await whatTheWindowShows(page).catch((e) => `    (the window could not be read: ${e?.message ?? e})`);
      console.log(`  ✗ ${title}\n    ${err?.message ?? err}\n${shown}\n${ourLogTails(server.root)}`);
      const picture = `ui-failure-${title.replace(/[^\w]+/g, '-').slice(0, 60)}.png`;
      await page.screenshot({ path: join(artifacts, picture) }).catch(() => {});
      return false;
    } finally {
      await browser.close();
      await server.stop();
      if (azure) await azure.stop();
      else emulator.stop();
      times.push({ title, ms: Date.now() - started });
    }
  }
  await Promise.all(lanes.map(lane));
  const known = { ...lastTimes(artifacts), ...Object.fromEntries(times.map((t) => [t.title, t.ms])) };
  writeFileSync(join(artifacts, 'ui-times.json'), JSON.stringify(known, null, 2));
  return { passed, failed, times };
}

/**
 * The journeys that took longest in the last run first (host-summary.json), so that no lane is left
 * with a long one at the end while the other is idle; new ones first of all.
 */
function longestFirst(journeys, artifacts) {
  const last = lastTimes(artifacts);
  return [...journeys].sort((a, b) => (last[b.title] ?? Infinity) - (last[a.title] ?? Infinity));
}

/** Each journey's time in the runs before, by title (.test-artifacts/ui-times.json). */
function lastTimes(artifacts) {
  try {
    return JSON.parse(readFileSync(join(artifacts, 'ui-times.json'), 'utf8'));
  } catch {
    return {}; // no earlier run: the order of journeys.ts
  }
}

/** The notifications, an open quick input, a dialog and the debug state the failed journey left, as text. */
async function whatTheWindowShows(page) {
  const texts = async (selector) => (await page.locator(selector).allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim()).filter(Boolean);
  const parts = {
    notifications: await texts('.notifications-toasts .notification-list-item, .notifications-center .notification-list-item'),
    'quick input': await texts('.quick-input-widget:visible .quick-input-title, .quick-input-widget:visible .quick-input-message'),
    'quick input value': (await page.locator('.quick-input-widget:visible input.input').count())
      ? [await page.locator('.quick-input-widget:visible input.input').first().inputValue()]
      : [],
    focus: [
      await page.evaluate(() => {
        const el = document.activeElement;
        return el ? `${el.tagName.toLowerCase()}${el.className ? '.' + String(el.className).split(' ').join('.') : ''} ${el.getAttribute('aria-label') ?? ''}` : 'none';
      }),
    ],
    dialog: await texts('.monaco-dialog-box'),
    'status bar': await texts('.part.statusbar .statusbar-item'),
    'debug toolbar': (await page.locator('.debug-toolbar').isVisible()) ? ['visible'] : [],
    tabs: await texts('.tabs-container .tab'),
  };
  return Object.entries(parts)
    .map(([name, list]) => `    ${name}: ${list.length ? JSON.stringify(list).slice(0, 1500) : '(none)'}`)
    .join('\n');
}

/** The last lines of the extension's own output channels in this run's code-server (its log files); never throws. */
function ourLogTails(root) {
  const logs = join(root, 'user-data', 'logs');
  try {
    return readdirSync(logs, { recursive: true })
      .filter((f) => /Azure OpenAI[^/]*\.log$/.test(String(f)))
      .map((f) => {
        const lines = readFileSync(join(logs, String(f)), 'utf8').trimEnd().split('\n');
        return `    ${f} (last ${Math.min(20, lines.length)} of ${lines.length} lines):\n${lines.slice(-20).map((l) => `      ${l.slice(0, 400)}`).join('\n')}`;
      })
      .join('\n');
  } catch (err) {
    return `    (our logs could not be read: ${err?.message ?? err})`;
  }
}
