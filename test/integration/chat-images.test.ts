/** Images in chat messages: the emulator takes them for models that take images, and refuses them as the service does otherwise. */
import assert from 'node:assert/strict';
import { startEmulator, type Emulator } from '../../src/emulator/server';

const DOT = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

describe('chat with images (emulator)', () => {
  let emu: Emulator;
  before(async () => {
    emu = await startEmulator({
      config: {
        streamTokenDelayMs: 0,
        deployments: [
          { name: 'vision', model: 'gpt-4o', version: '2024-11-20', sku: 'GlobalStandard', capacity: 10, requestsPerMinute: 1000, tokensPerMinute: 1e7 },
          { name: 'text-only', model: 'gpt-35-turbo', version: '0125', sku: 'Standard', capacity: 10, requestsPerMinute: 1000, tokensPerMinute: 1e7 },
        ],
      },
    });
  });
  after(() => emu.close());

  const chat = (model: string, content: unknown) =>
    fetch(`${emu.url}/openai/v1/chat/completions`, {
      method: 'POST',
      headers: { 'api-key': emu.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content }] }),
    });

  it('a model that takes images gets the picture with the question', async () => {
    const res = await chat('vision', [{ type: 'text', text: 'what is this?' }, { type: 'image_url', image_url: { url: DOT } }]);
    assert.equal(res.status, 200);
    const body = (await res.json()) as { choices: Array<{ message: { content: string } }> };
    assert.match(body.choices[0].message.content, /^You said: what is this\? \[image\]/);
  });

  it('a text-only model refuses an image with the service\'s 400', async () => {
    const res = await chat('text-only', [{ type: 'text', text: 'what is this?' }, { type: 'image_url', image_url: { url: DOT } }]);
    assert.equal(res.status, 400);
    const { error } = (await res.json()) as { error: { message: string; param: string } };
    assert.match(error.message, /image_url is only supported by certain models/);
    assert.equal(error.param, 'messages[0].content[1]');
  });

  it('an image part without a usable URL is refused, naming the field', async () => {
    const res = await chat('vision', [{ type: 'image_url', image_url: { url: 'file:///etc/passwd' } }]);
    assert.equal(res.status, 400);
    assert.match(((await res.json()) as { error: { message: string } }).error.message, /https URL or a base64 data URL/);
  });
});
