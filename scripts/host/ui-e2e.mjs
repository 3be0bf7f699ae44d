// End-to-end through the real workbench in Chromium, as a person would; each journey lives in
// scripts/host/ui/ by feature and saves screenshots into the artifacts folder.
import { join } from 'node:path';
import { startEmulatorProcess } from './emulatorProcess.mjs';
import { CHROMIUM_ARGS, chromiumPath, startCodeServer, workbenchUrl } from './codeServer.mjs';
import { chatThroughTheUi, reasoningThroughTheUi } from './ui/chat.mjs';
import { chatUxThroughTheUi } from './ui/chatUx.mjs';
import { compareThroughTheUi } from './ui/compare.mjs';
import { inspectThroughTheUi, listenThroughTheUi, rotateThroughTheUi } from './ui/webhooks.mjs';
import { usageThroughTheUi } from './ui/usage.mjs';
import { addConnectionThroughTheUi } from './ui/workbench.mjs';

export async function runUiTests(chromium, root, artifacts, vsix) {
  const tests = [
    ['UI: add a connection through the command palette wizard and see its deployments in the sidebar', addConnectionThroughTheUi],
    ['UI: chat in the panel: streamed markdown with usage, HTML in a reply executes nothing, Stop ends a reply, the panel survives a reload', chatThroughTheUi],
    [
      'UI: chat panel UX: example prompts; the view follows the reply unless scrolled up (Jump to latest); a refused message comes back to edit; ' +
        'usable at 300 px in light, dark and high contrast; actions on hover; context meter; Ask About Selection',
      chatUxThroughTheUi,
    ],
    ['UI: chat with a Responses-only deployment: the reasoning summary in a collapsed section, reasoning tokens in the usage line, a reply in the background', reasoningThroughTheUi],
    [
      'UI: Start Listening from the palette, a delivery appears verified in the Webhook Events view; after a reload it is still there, ' +
        'the inspector comes back on it, and Listen Again resumes with the same endpoint',
      listenThroughTheUi,
    ],
    [
      "UI: a delivery the app refused opens in the inspector from its row (trace, headers, the app's HTML as text); edit and replay shows the new answer; themes, narrow",
      inspectThroughTheUi,
    ],
    ['UI: Rotate Signing Secret from an endpoint\'s context menu: both rows marked during the overlap, Finish Rotation leaves one', rotateThroughTheUi],
    ['UI: Compare Deployments: three picked, replies side by side with figures, Run again medians, stacked at 300 px in light, dark and high contrast, export', compareThroughTheUi],
    [
      'UI: usage view: empty state, then a chat\'s tokens and estimated cost appear live; the status bar shows them and opens it; Export as CSV; ' +
        'light, dark, high contrast, 300 px',
      usageThroughTheUi,
    ],
  ];
  let passed = 0;
  let failed = 0;
  // HOST_GREP picks UI tests by name too, for iterating on one feature.
  const grep = process.env.HOST_GREP ? new RegExp(process.env.HOST_GREP) : undefined;
  for (const [name, fn] of tests.filter(([name]) => !grep || grep.test(name))) {
    const emulator = await startEmulatorProcess(root, ['--config', join(root, 'scripts', 'emulator.dev.json')]);
    const server = await startCodeServer({ extraArgs: ['--vscode-option', 'enable-smoke-test-driver'], vsix });
    const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
    const page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
    try {
      await page.goto(workbenchUrl(server, {}));
      await fn(page, emulator, artifacts, server);
      passed++;
      console.log(`  ✔ ${name}`);
    } catch (err) {
      failed++;
      console.log(`  ✗ ${name}\n    ${err?.message ?? err}`);
      await page.screenshot({ path: join(artifacts, 'ui-failure.png') }).catch(() => {});
    } finally {
      await browser.close();
      await server.stop();
      emulator.stop();
    }
  }
  return { passed, failed };
}
