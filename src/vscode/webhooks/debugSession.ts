/**
 * The "Azure OpenAI Webhooks" debug type: F5 (alone, or in a compound with the app's own
 * configuration) listens behind a tunnel, points a webhook endpoint at the listener and forwards
 * verified deliveries to the app being debugged; stopping the session undoes it. An inline debug
 * adapter speaks just enough of the Debug Adapter Protocol for a session with a Stop button.
 */
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { checkDebugConfig, DEBUG_TYPE, forwardRefusal, pickConnection, type WebhookDebugConfig } from '../../webhooks/session/debugConfig';
import { maskedUrl } from '../../webhooks/send/forwardUrl';
import { confirmDebugConfig, offerOriginalUrls } from './debugConsent';
import { logError, logInfo } from '../log';
import { plainLine } from '../plainText';
import type { Services } from '../services';
import { setting } from '../settings';

interface ProtocolRequest {
  type: 'request';
  seq: number;
  command: string;
  arguments?: unknown;
}

/**
 * Starts our own command made (Start Debugging with Webhooks): the user typed them there, like F5
 * with no launch.json, so no consent question. Each is a random token only this window knows: a
 * launch.json cannot claim one.
 */
const commandStarts = new Set<string>();

/** Starts a webhooks session without a launch.json and without VS Code's debugger picker. */
export async function startWebhookDebugging(): Promise<boolean> {
  const token = randomUUID();
  commandStarts.add(token);
  try {
    return await vscode.debug.startDebugging(vscode.workspace.workspaceFolders?.[0], { type: DEBUG_TYPE, request: 'launch', name: 'Webhooks', commandStart: token });
  } finally {
    commandStarts.delete(token);
  }
}

/**
 * Checks the configuration before a session starts: a mistake is named, not half-started. (The
 * initial launch.json entry is static in package.json, so creating any launch.json does not
 * activate the extension.)
 */
function configurationProvider(s: Services): vscode.DebugConfigurationProvider {
  return {
    resolveDebugConfiguration: async (_folder, config) => {
      // A repository's launch.json could open a tunnel and re-point an endpoint: not in Restricted Mode.
      if (!vscode.workspace.isTrusted) {
        const manage = vscode.l10n.t('Manage Workspace Trust');
        const text = [
          vscode.l10n.t('Cannot start "{0}": this folder is in Restricted Mode.', plainLine(String(config.name ?? 'Azure OpenAI Webhooks'), 100)),
          vscode.l10n.t('A webhooks launch configuration opens a public tunnel and points a webhook endpoint of your resource at it.'),
          vscode.l10n.t('Trust the folder if you know what its launch.json does, then start again.'),
        ].join(' ');
        void vscode.window.showErrorMessage(text, manage).then((c) => c && vscode.commands.executeCommand('workbench.trust.manage'));
        logError(text);
        return undefined;
      }
      // F5 with no launch.json and this debugger picked: ask for the one thing needed (typed by the user: no question after).
      const typed = (!config.type && !config.request) || (typeof config.commandStart === 'string' && commandStarts.delete(config.commandStart));
      if (typed) {
        const forwardTo = await vscode.window.showInputBox({
          title: vscode.l10n.t('Azure OpenAI Webhooks: forward verified deliveries to'),
          prompt: vscode.l10n.t("Your app's webhook URL, or its port"),
          value: 'http://localhost:3000/webhook',
          ignoreFocusOut: true,
        });
        if (!forwardTo) return undefined;
        config = { type: DEBUG_TYPE, request: 'launch', name: 'Webhooks', forwardTo };
      }
      const checked = checkDebugConfig(config);
      const allowed = !checked.ok ? checked.error : typed || (await confirmDebugConfig(s, checked.config));
      if (typeof allowed === 'string') {
        const cannot = vscode.l10n.t('Cannot start "{0}": {1}', plainLine(String(config.name ?? 'Azure OpenAI Webhooks'), 100), plainLine(allowed, 400));
        void vscode.window.showErrorMessage(cannot, vscode.l10n.t('Open launch.json')).then((c) => {
          if (c) void vscode.commands.executeCommand('workbench.action.debug.configure');
        });
      }
      return allowed === true ? config : undefined;
    },
  };
}

class WebhookDebugAdapter implements vscode.DebugAdapter {
  private readonly sent = new vscode.EventEmitter<vscode.DebugProtocolMessage>();
  readonly onDidSendMessage = this.sent.event;
  private seq = 1;
  private undo: (() => Promise<void>) | undefined;

  constructor(private readonly s: Services) {}

  handleMessage(message: vscode.DebugProtocolMessage): void {
    const req = message as ProtocolRequest;
    if (req.type === 'request') void this.handle(req);
  }

  private async handle(req: ProtocolRequest): Promise<void> {
    switch (req.command) {
      case 'initialize':
        this.respond(req, { supportsConfigurationDoneRequest: true, supportsTerminateRequest: true });
        this.event('initialized');
        return;
      case 'launch':
        try {
          await this.launch(req.arguments);
          this.respond(req);
        } catch (err) {
          this.respond(req, undefined, (err as Error).message);
        }
        return;
      case 'disconnect':
      case 'terminate':
        await this.stop();
        this.respond(req);
        if (req.command === 'terminate') this.event('terminated');
        return;
      case 'threads':
        return this.respond(req, { threads: [] });
      default:
        return this.respond(req);
    }
  }

  private async launch(raw: unknown): Promise<void> {
    const checked = checkDebugConfig(raw);
    if (!checked.ok) throw new Error(checked.error);
    const c: WebhookDebugConfig = checked.config;
    const { s } = this;
    // Checked when the configuration was resolved, and again here: nothing reaches the listener that the user did not allow.
    const refused = forwardRefusal(c, setting('webhooks.debugForwardToAnyHost'));
    if (refused) throw new Error(refused);
    const conn = pickConnection(s.store.list(), c.connection);
    if (typeof conn === 'string') throw new Error(conn);
    const before = s.listener.state;
    this.output(`${before ? vscode.l10n.t('Using the running listener for "{0}".', conn.label) : vscode.l10n.t('Starting the webhook listener for "{0}"…', conn.label)}\n`);
    // Nothing is downloaded for a debug session: a missing tunnel program is named instead.
    const tunnel = before ? undefined : s.listener.providerFor(conn, c.tunnel ?? setting('tunnel.provider'), c.tunnel !== undefined);
    const check = await tunnel?.check();
    if (check && !check.ok) throw new Error(check.message);
    const endpoint = c.endpoint
      ? { mode: 'update' as const, endpointId: c.endpoint }
      : { mode: 'create' as const, name: vscode.l10n.t('VS Code debug: {0}', c.name), eventTypes: c.eventTypes };
    // The session undoes what it did, itself included: the endpoint put back (or deleted), the listener stopped if it started it.
    const session = await s.listener.startSession({
      connection: conn,
      tunnel,
      endpoint,
      forwardTo: () => c.forwardTo,
      routes: () => c.routes,
      undoEndpoint: true,
    });
    this.undo = async () => {
      for (const err of await session.undo()) logError(`Debug session "${c.name}": could not undo a step: ${err.message}`);
    };
    const url = `${session.state.publicUrl}/webhook`;
    const endpointText = session.createdEndpointId
      ? vscode.l10n.t('endpoint {0} created for this session (deleted when it ends)', session.createdEndpointId)
      : vscode.l10n.t('endpoint {0} points here until the session ends (then back at {1})', String(session.endpointId), String(session.originalUrl));
    const line = vscode.l10n.t('Listening at {0}; {1}; verified deliveries go to {2}.', url, endpointText, maskedUrl(c.forwardTo));
    logInfo(`Debug session "${c.name}": ${line}`);
    this.output(`${line}\n${vscode.l10n.t('Deliveries show in the Webhook Events view; Stop ends listening.')}\n`);
  }

  private async stop(): Promise<void> {
    const undo = this.undo;
    this.undo = undefined;
    await undo?.();
  }

  private respond(req: ProtocolRequest, body?: unknown, error?: string): void {
    const response = { type: 'response', seq: this.seq++, request_seq: req.seq, command: req.command, success: !error, ...(error ? { message: error } : {}), ...(body ? { body } : {}) };
    this.sent.fire(response as vscode.DebugProtocolMessage);
  }

  private event(event: string, body?: unknown): void {
    this.sent.fire({ type: 'event', seq: this.seq++, event, ...(body ? { body } : {}) } as vscode.DebugProtocolMessage);
  }

  private output(text: string): void {
    this.event('output', { category: 'console', output: text });
  }

  dispose(): void {
    void this.stop();
    this.sent.dispose();
  }
}

export function registerWebhookDebugging(s: Services): vscode.Disposable {
  // A window that crashed or reloaded mid-session left an endpoint pointing at a listener that is gone.
  void offerOriginalUrls(s).catch((err: unknown) => logError(`Could not offer webhook endpoint URLs back: ${(err as Error).message}`));
  return vscode.Disposable.from(
    vscode.debug.registerDebugConfigurationProvider(DEBUG_TYPE, configurationProvider(s)),
    vscode.debug.registerDebugAdapterDescriptorFactory(DEBUG_TYPE, {
      createDebugAdapterDescriptor: () => new vscode.DebugAdapterInlineImplementation(new WebhookDebugAdapter(s)),
    }),
  );
}
