/**
 * The network stack, bundled apart from the extension as `dist/network.js` (see esbuild.mjs) and
 * required on first use through `loadNetwork()` in src/vscode/bundles.ts: drawing the trees from
 * stored connections needs none of it.
 *
 * Everything that throws or checks the service's errors lives here together, so `instanceof
 * ServiceError` sees one class: a second copy in the main bundle would not match these errors.
 */
export { AzureOpenAIClient } from '../service/client';
export { ArmClient } from '../service/arm';
export { runChat } from '../chat/engine/runner';
export { runCompareRound } from '../chat/compare/compareRun';
export { repeatCompare, summarize } from '../chat/compare/summary';
export { compareMarkdown } from '../chat/compare/markdown';
export { errorInfo } from '../chat/engine/result';
export { Waker, followResponse, resultOf, startBackground } from '../chat/engine/background';
export { ChildListener } from '../webhooks/receive/childListener';
export { defaultShell, replay, replayToApp, sendTestEvent, signedCurl, testEventBody } from '../webhooks/send/resend';
export { checkVerifier } from '../webhooks/send/verifierCheck';
// Webhook fixtures' core: dist/fixtures.js (the editor's side) takes it from here, one copy.
export { FIXTURE_VARIANTS, answeredAsExpected, sendFixture } from '../webhooks/fixtures/send';
export { readScenario, runScenario } from '../webhooks/fixtures/order';
export { fixtureOf, parseFixture, serializeFixture } from '../webhooks/fixtures/format';
export { catalogFixture, fixtureOfDelivery, subjectKindOf } from '../webhooks/fixtures/fromDelivery';
export { fixtureBaseName, saveFixture } from '../webhooks/fixtures/save';
export { fixturesFolderIn, fixturesFolderOnDisk } from '../webhooks/fixtures/folder';
export { fixtureInText } from '../webhooks/fixtures/lens';
export { shapeFlags } from '../webhooks/fixtures/shape';
export { HANDLER_CHECKS, checkHandler, handlerUrlProblem } from '../webhooks/fixtures/handlerCheck';
export { checkName, handlerReportMarkdown } from '../webhooks/fixtures/handlerReport';
export { runnersFor, testFolder, testOfFixture, usesTypeScript } from '../webhooks/fixtures/asTest';
export { webhookOutbound } from '../webhooks/send/outbound';
export { CloudflaredTunnel, DevTunnel, LocalTunnel, ManualTunnel, NgrokTunnel } from '../tunnels/providers';
export { CLOUDFLARED_VERSION, cloudflaredDownloadUrl, downloadCloudflared } from '../tunnels/cloudflaredDownload';
export { removeDownloadedCloudflared } from '../tunnels/cloudflaredRemove';
export { checkBatchInput, deploymentInfo } from '../jobs/batchInput';
export { checkTrainingData } from '../jobs/trainingData';
export { BatchResults, downloadResults, requestOfLine } from '../jobs/batchResults';
export { envFileWarnings, writeEnvVariable } from '../webhooks/endpoints/dotenvFile';
export { deliveryView, responseIdOf } from '../webhooks/inspect/deliveryView';
