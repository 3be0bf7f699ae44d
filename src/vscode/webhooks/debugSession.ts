/**
 * The "Azure OpenAI Webhooks" debug type: F5 (alone, or in a compound with the app's own
 * configuration) listens behind a tunnel, points a webhook endpoint at the listener and forwards
 * verified deliveries to the app being debugged; stopping the session undoes it. An inline debug
 * adapter speaks just enough of the Debug Adapter Protocol for a session with a Stop button.
 */
import * as vscode from 'vscode';
import { checkDebugConfig, DEBUG_TYPE, pickConnection, type WebhookDebugConfig } from '../../webhooks/debugConfig';
import { startListening } from '../commands/listener';
import { logError, logInfo } from '../log';
import type { Services } from '../services';

interface ProtocolRequest {
  type: 'request';
  seq: number;
  command: string;
  arguments?: unknown;
}

/**
 * Checks the configuration before a session starts: a mistake is named, not half-started. (The
 * initial launch.json entry is static in package.json, so creating any launch.json does not
 * activate the extension.)
 */
function configurationProvider(): vscode.DebugConfigurationProvider {
  return {
    resolveDebugConfiguration: async (_folder, config) => {
      // A repository's launch.json could open a tunnel and re-point an endpoint: not in Restricted Mode.
      if (!vscode.workspace.isTrusted) {
        const manage = 'Manage Workspace Trust';
        const text =
          `Cannot start "${config.name ?? 'Azure OpenAI Webhooks'}": this folder is in Restricted Mode, and a webhooks launch configuration ` +
          'opens a public tunnel and points a webhook endpoint of your resource at it. Trust the folder if you know what its launch.json does, then start again.';
        void vscode.window.showErrorMessage(text, manage).then((c) => c && vscode.commands.executeCommand('workbench.trust.manage'));
        logError(text);
        return undefined;
      }
      // F5 with no launch.json and this debugger picked: ask for the one thing needed.
      if (!config.type && !config.request) {
        const forwardTo = await vscode.window.showInputBox({
          title: 'Azure OpenAI Webhooks: forward verified deliveries to',
          prompt: 'Your app\'s webhook URL, or its port',
          value: 'http://localhost:3000/webhook',
        });
        if (!forwardTo) return undefined;
        config = { type: DEBUG_TYPE, request: 'launch', name: 'Webhooks', forwardTo };
      }
      const checked = checkDebugConfig(config);
      if (!checked.ok) {
        void vscode.window.showErrorMessage(`Cannot start "${config.name ?? 'Azure OpenAI Webhooks'}": ${checked.error}`, 'Open launch.json').then((c) => {
          if (c) void vscode.commands.executeCommand('workbench.action.debug.configure');
        });
        return undefined;
      }
      return config;
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
    const conn = pickConnection(s.store.list(), c.connection);
    if (typeof conn === 'string') throw new Error(conn);
    const before = s.listener.state;
    if (before && before.connection.id !== conn.id) {
      throw new Error(`The webhook listener is running for "${before.connection.label}": stop it first, or name that connection in "connection".`);
    }
    this.output(before ? `Using the running listener for "${conn.label}".\n` : `Starting the webhook listener for "${conn.label}"…\n`);
    // Each step that changes something leaves its undoing; a failure part way undoes what was done.
    const undo: Array<() => Promise<unknown>> = [];
    this.undo = async () => {
      for (const step of undo.reverse()) {
        await step().catch((err: unknown) => logError(`Debug session "${c.name}": could not undo a step: ${(err as Error).message}`));
      }
    };
    try {
      if (!before) {
        const started = await startListening(s, { connectionId: conn.id, provider: c.tunnel, endpoint: { mode: 'skip' }, downloadCloudflared: false });
        if (!started) throw new Error('The listener did not start.');
        undo.push(() => s.listener.stop());
      }
      const url = `${s.listener.state!.publicUrl}/webhook`;
      let endpointText: string;
      if (c.endpoint) {
        const endpoint = (await s.endpoints.all(conn)).find((e) => e.id === c.endpoint);
        if (!endpoint) throw new Error(`No webhook endpoint "${c.endpoint}" on "${conn.label}" (check "endpoint").`);
        await s.endpoints.update(conn, endpoint.id, { url });
        undo.push(() => s.endpoints.update(conn, endpoint.id, { url: endpoint.url }));
        endpointText = `endpoint ${endpoint.id} points here until the session ends (then back at ${endpoint.url})`;
      } else {
        const created = await s.endpoints.create(conn, { name: `VS Code debug: ${c.name}`, url, event_types: c.eventTypes });
        undo.push(() => s.endpoints.delete(conn, created.id));
        endpointText = `endpoint ${created.id} created for this session (deleted when it ends)`;
      }
      await s.listener.refreshSecrets();
      s.listener.forwardOverride = c.forwardTo;
      undo.push(async () => (s.listener.forwardOverride = undefined));
      const line = `Listening at ${url}; ${endpointText}; verified deliveries go to ${c.forwardTo}.`;
      logInfo(`Debug session "${c.name}": ${line}`);
      this.output(`${line}\nDeliveries show in the Webhook Events view; Stop ends listening.\n`);
    } catch (err) {
      await this.stop();
      throw err;
    }
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
  return vscode.Disposable.from(
    vscode.debug.registerDebugConfigurationProvider(DEBUG_TYPE, configurationProvider()),
    vscode.debug.registerDebugAdapterDescriptorFactory(DEBUG_TYPE, {
      createDebugAdapterDescriptor: () => new vscode.DebugAdapterInlineImplementation(new WebhookDebugAdapter(s)),
    }),
  );
}
