/**
 * Every id the extension contributes in package.json, in one place: commands, views, context
 * keys and settings with their defaults. Spelled out whole, so searching for an id finds it.
 * No `vscode` import: a plain Node test checks this file against package.json.
 */
import type { CustomCloudSetting } from '../auth/clouds';
import type { TunnelProviderId } from '../tunnels/tunnel';

/** The one prefix of commands, settings, views and context keys. */
export const PREFIX = 'aoaiWorkbench';

export const Commands = {
  addConnection: 'aoaiWorkbench.addConnection',
  addConnectionFromAzure: 'aoaiWorkbench.addConnectionFromAzure',
  editConnection: 'aoaiWorkbench.editConnection',
  removeConnection: 'aoaiWorkbench.removeConnection',
  testConnection: 'aoaiWorkbench.testConnection',
  importFromEnvironment: 'aoaiWorkbench.importFromEnvironment',
  startLocalEmulator: 'aoaiWorkbench.startLocalEmulator',
  stopLocalEmulator: 'aoaiWorkbench.stopLocalEmulator',
  refresh: 'aoaiWorkbench.refresh',
  refreshNode: 'aoaiWorkbench.refreshNode',
  loadMore: 'aoaiWorkbench.loadMore',
  openChat: 'aoaiWorkbench.openChat',
  /** The chat used last, else a new one with the deployment last sent to (a default shortcut). */
  openLastChat: 'aoaiWorkbench.openLastChat',
  createWebhookEndpoint: 'aoaiWorkbench.createWebhookEndpoint',
  editWebhookEndpoint: 'aoaiWorkbench.editWebhookEndpoint',
  deleteWebhookEndpoint: 'aoaiWorkbench.deleteWebhookEndpoint',
  copyWebhookId: 'aoaiWorkbench.copyWebhookId',
  copyWebhookUrl: 'aoaiWorkbench.copyWebhookUrl',
  copySigningSecret: 'aoaiWorkbench.copySigningSecret',
  rotateSigningSecret: 'aoaiWorkbench.rotateSigningSecret',
  handOverRotatedSecret: 'aoaiWorkbench.handOverRotatedSecret',
  finishRotation: 'aoaiWorkbench.finishRotation',
  cancelRotation: 'aoaiWorkbench.cancelRotation',
  showLog: 'aoaiWorkbench.showLog',
  openConversation: 'aoaiWorkbench.openConversation',
  exportConversation: 'aoaiWorkbench.exportConversation',
  deleteConversation: 'aoaiWorkbench.deleteConversation',
  exportChatMarkdown: 'aoaiWorkbench.exportChatMarkdown',
  exportChatJson: 'aoaiWorkbench.exportChatJson',
  clearChat: 'aoaiWorkbench.clearChat',
  askAboutSelection: 'aoaiWorkbench.askAboutSelection',
  startListening: 'aoaiWorkbench.startListening',
  stopListening: 'aoaiWorkbench.stopListening',
  resumeListening: 'aoaiWorkbench.resumeListening',
  chooseTunnel: 'aoaiWorkbench.chooseTunnel',
  downloadCloudflared: 'aoaiWorkbench.downloadCloudflared',
  deleteCloudflared: 'aoaiWorkbench.deleteCloudflared',
  sendTestEvent: 'aoaiWorkbench.sendTestEvent',
  startWebhookDebugging: 'aoaiWorkbench.startWebhookDebugging',
  listenerActions: 'aoaiWorkbench.listenerActions',
  openEventPayload: 'aoaiWorkbench.openEventPayload',
  copyEventAsCurl: 'aoaiWorkbench.copyEventAsCurl',
  replayEvent: 'aoaiWorkbench.replayEvent',
  fetchEventResponse: 'aoaiWorkbench.fetchEventResponse',
  openEventConversation: 'aoaiWorkbench.openEventConversation',
  filterEvents: 'aoaiWorkbench.filterEvents',
  clearEvents: 'aoaiWorkbench.clearEvents',
  inspectEvent: 'aoaiWorkbench.inspectEvent',
  checkVerifier: 'aoaiWorkbench.checkVerifier',
  /** Webhook fixtures (#40): a delivery kept as a file in the workspace, sent again from its CodeLens. */
  saveAsFixture: 'aoaiWorkbench.saveAsFixture',
  sendFixture: 'aoaiWorkbench.sendFixture',
  sendFixturesInOrder: 'aoaiWorkbench.sendFixturesInOrder',
  newFixtureFromCatalog: 'aoaiWorkbench.newFixtureFromCatalog',
  /** A handler's contract (valid, duplicate, stale, wrong secret, tampered, burst) checked with a fixture. */
  checkHandler: 'aoaiWorkbench.checkHandler',
  /** A fixture written as a ready test for the user's project (node:test, vitest, jest, pytest). */
  copyFixtureAsTest: 'aoaiWorkbench.copyFixtureAsTest',
  createBatch: 'aoaiWorkbench.createBatch',
  cancelBatch: 'aoaiWorkbench.cancelBatch',
  openBatchResults: 'aoaiWorkbench.openBatchResults',
  openBatchResultLine: 'aoaiWorkbench.openBatchResultLine',
  exportBatchResults: 'aoaiWorkbench.exportBatchResults',
  nextResultsPage: 'aoaiWorkbench.nextResultsPage',
  previousResultsPage: 'aoaiWorkbench.previousResultsPage',
  createFineTuningJob: 'aoaiWorkbench.createFineTuningJob',
  cancelFineTuningJob: 'aoaiWorkbench.cancelFineTuningJob',
  pauseFineTuningJob: 'aoaiWorkbench.pauseFineTuningJob',
  resumeFineTuningJob: 'aoaiWorkbench.resumeFineTuningJob',
  deployFineTunedModel: 'aoaiWorkbench.deployFineTunedModel',
  openFineTuningJob: 'aoaiWorkbench.openFineTuningJob',
  acceptCall: 'aoaiWorkbench.acceptCall',
  rejectCall: 'aoaiWorkbench.rejectCall',
  transferCall: 'aoaiWorkbench.transferCall',
  hangUpCall: 'aoaiWorkbench.hangUpCall',
  compareDeployments: 'aoaiWorkbench.compareDeployments',
  showUsage: 'aoaiWorkbench.showUsage',
  showTrace: 'aoaiWorkbench.showTrace',
  /** Inline suggestions (ghost text) from the deployment picked here, from the tree's menu, the palette or the status bar. */
  useForInline: 'aoaiWorkbench.inline.useDeployment',
  /** Inline suggestions on or off (the status bar item's click). */
  toggleInline: 'aoaiWorkbench.inline.toggle',
} as const;

export type CommandId = (typeof Commands)[keyof typeof Commands];

export const Views = {
  container: 'aoaiWorkbench',
  resources: 'aoaiWorkbench.resources',
  events: 'aoaiWorkbench.events',
  /** The chat panel's webview type. */
  chat: 'aoaiWorkbench.chat',
  /** The compare panel's webview type. */
  compare: 'aoaiWorkbench.compare',
  /** The delivery inspector's webview type. */
  inspector: 'aoaiWorkbench.deliveryInspector',
  /** The usage view's webview type. */
  usage: 'aoaiWorkbench.usage',
  /** A fine-tuning job's page's webview type. */
  fineTuningJob: 'aoaiWorkbench.fineTuningJob',
} as const;

/** The vendor of the language model provider: VS Code's chat and `vscode.lm.selectChatModels` find the deployments by it. */
export const LanguageModelVendor = {
  vendor: 'azure-openai',
  /** The "Manage" entry of VS Code's model picker opens the connection wizard. */
  managementCommand: Commands.addConnection,
} as const;

/** The Get Started walkthrough (contributes.walkthroughs) and its steps, in order. */
export const Walkthrough = {
  id: 'aoaiWorkbench.getStarted',
  steps: ['connect', 'chat', 'vscodeChat', 'listen', 'inspect', 'debug'],
} as const;

/** How `workbench.action.openWalkthrough` names it: the extension's id, then the walkthrough's. */
export const WALKTHROUGH_FULL_ID = `aoai-workbench.aoai-workbench#${Walkthrough.id}`;

/** Keys set with `setContext` and read in package.json's `when` clauses. */
export const ContextKeys = {
  envConnectionAvailable: 'aoaiWorkbench.envConnectionAvailable',
  emulatorRunning: 'aoaiWorkbench.emulatorRunning',
  listening: 'aoaiWorkbench.listening',
  eventsFiltered: 'aoaiWorkbench.eventsFiltered',
  // What the Get Started walkthrough's steps wait for (no command marks these).
  hasConnection: 'aoaiWorkbench.hasConnection',
  chatReplied: 'aoaiWorkbench.chatReplied',
  vscodeChatReplied: 'aoaiWorkbench.vscodeChatReplied',
  debuggedWebhooks: 'aoaiWorkbench.debuggedWebhooks',
  inspectedDelivery: 'aoaiWorkbench.inspectedDelivery',
} as const;

export type ContextKey = (typeof ContextKeys)[keyof typeof ContextKeys];

/** A tunnel setting, or none at all (a local service needs none). */
export type ProviderChoice = TunnelProviderId | 'none';

/** Settings under `aoaiWorkbench.`, with the defaults package.json declares. */
export interface SettingValues {
  /** Read through the connection store, which checks each entry. */
  connections: unknown[];
  apiVersion: string;
  requestTimeoutSeconds: number;
  cloud: string;
  customCloud: CustomCloudSetting;
  pageSize: number;
  'tunnel.provider': TunnelProviderId;
  'tunnel.manualUrl': string;
  'tunnel.cloudflaredDownloadUrl': string;
  'tunnel.localtunnelHost': string;
  'tunnel.localtunnelSubdomain': string;
  'webhooks.port': number;
  'webhooks.toleranceSeconds': number;
  'webhooks.forwardTo': string;
  'webhooks.routes': Record<string, string>;
  'webhooks.debugForwardToAnyHost': boolean;
  'webhooks.maxStoredEvents': number;
  /** Where Save as Fixture writes, relative to the workspace folder. */
  'webhooks.fixturesFolder': string;
  /** What an accepted call's realtime session is told first (Accept Call… prefills it). */
  'calls.instructions': string;
  'usage.maxAgeDays': number;
  'usage.maxSizeMB': number;
  /** Model name (or "model@version") to prices; read through readPriceSetting, which checks each entry. */
  'usage.prices': Record<string, unknown>;
  /** Inline suggestions: the connection's id and the deployment (both empty: off, nothing loads). */
  'inline.connection': string;
  'inline.deployment': string;
  'inline.enabled': boolean;
  'inline.debounceMs': number;
  /** Gitignore-style patterns of files that send nothing. */
  'inline.exclude': string[];
  'inline.untitled': boolean;
  'inline.maxRequestsPerHour': number;
  'inline.maxTokensPerDay': number;
  /** Traces: the user's OTLP/HTTP collector (empty: nothing is sent), how many are kept, prompts and replies in them. */
  'telemetry.otlpEndpoint': string;
  'telemetry.maxTraces': number;
  'telemetry.captureContent': boolean;
}

export type SettingKey = keyof SettingValues;

export const SETTING_DEFAULTS: SettingValues = {
  connections: [],
  apiVersion: '2024-10-21',
  requestTimeoutSeconds: 60,
  cloud: 'AzureCloud',
  customCloud: {},
  pageSize: 100,
  'tunnel.provider': 'cloudflared',
  'tunnel.manualUrl': '',
  'tunnel.cloudflaredDownloadUrl': '',
  'tunnel.localtunnelHost': '',
  'tunnel.localtunnelSubdomain': '',
  'webhooks.port': 0,
  'webhooks.toleranceSeconds': 300,
  'webhooks.forwardTo': '',
  'webhooks.routes': {},
  'webhooks.debugForwardToAnyHost': false,
  'webhooks.maxStoredEvents': 1000,
  'webhooks.fixturesFolder': 'webhook-fixtures',
  'calls.instructions': 'You are a helpful assistant answering a phone call. Greet the caller and keep your answers short.',
  'usage.maxAgeDays': 90,
  'usage.maxSizeMB': 32,
  'usage.prices': {},
  'inline.connection': '',
  'inline.deployment': '',
  'inline.enabled': true,
  'inline.debounceMs': 150,
  'inline.exclude': ['.env*', '*.pem', '*.key', '**/secrets/**'],
  'inline.untitled': false,
  'inline.maxRequestsPerHour': 600,
  'inline.maxTokensPerDay': 2_000_000,
  'telemetry.otlpEndpoint': '',
  'telemetry.maxTraces': 200,
  'telemetry.captureContent': false,
};
