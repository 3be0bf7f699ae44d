/**
 * Time to first token through the chat runner as VS Code's chat calls it (neutral messages mapped, parameters
 * adapted, chunks turned into parts) against the same request made directly with the service
 * client, same emulator, same run. VS Code's own RPC is not ours to measure here.
 */
import { VSCODE_CHAT_RUN } from '../src/chat/engine/options';
import { runChat } from '../src/chat/engine/runner';
import { startEmulator } from '../src/emulator/server';
import { AzureOpenAIClient } from '../src/service/client';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const now = () => Number(process.hrtime.bigint()) / 1e6;

export async function benchLmFirstToken(rounds = 200): Promise<{ ours: number; direct: number; rounds: number }> {
  const emu = await startEmulator({
    config: {
      streamTokenDelayMs: 0,
      deployments: [{ name: 'bench', model: 'gpt-4o', version: '1', sku: 'Standard', capacity: 1, requestsPerMinute: 1e9, tokensPerMinute: 1e12 }],
    },
  });
  const client = new AzureOpenAIClient({ endpoint: emu.url, auth: { kind: 'apiKey', apiKey: emu.apiKey }, retry: { maxRetries: 0 } });
  const text = 'What is the capital of Norway?';
  const viaLm = async () => {
    let first = 0;
    const t0 = now();
    await runChat(
      {
        client,
        deployment: 'bench',
        model: 'gpt-4o',
        messages: [{ role: 'system', parts: [{ type: 'text', text: 'Be brief.' }] }, { role: 'user', parts: [{ type: 'text', text }] }],
        sampling: { temperature: 0.2 },
        signal: new AbortController().signal,
        onText: () => (first ||= now()),
      },
      VSCODE_CHAT_RUN,
    );
    return first - t0;
  };
  const direct = async () => {
    let first = 0;
    const t0 = now();
    const req = {
      deployment: 'bench',
      messages: [{ role: 'system' as const, content: 'Be brief.' }, { role: 'user' as const, content: text }],
      temperature: 0.2,
      stream_options: { include_usage: true },
    };
    for await (const chunk of client.streamChatCompletion(req, { retryRateLimits: false })) if (chunk.choices[0]?.delta?.content) first ||= now();
    return first - t0;
  };
  try {
    for (let i = 0; i < 20; i++) await Promise.all([viaLm(), direct()]);
    const a: number[] = [];
    const b: number[] = [];
    // Interleaved, so both see the same machine load.
    for (let i = 0; i < rounds; i++) {
      a.push(await viaLm());
      b.push(await direct());
    }
    return { ours: median(a), direct: median(b), rounds };
  } finally {
    await client.close();
    await emu.close();
  }
}
