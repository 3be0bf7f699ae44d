import assert from 'node:assert/strict';
import { chatTitle, connectionName, deploymentDetails, resourceName } from '../../src/chat/naming';

describe('chat naming', () => {
  it('titles a chat by the first sentence of its first message, cut at a word', () => {
    assert.equal(chatTitle('how do I verify a webhook signature? I use Node.', 'Chat'), 'how do I verify a webhook signature?');
    assert.equal(chatTitle('Explain the listener:\nmore detail', 'Chat'), 'Explain the listener');
    const title = chatTitle('Please explain how the webhook listener verifies signatures against several secrets', 'Chat');
    assert.equal(title, 'Please explain how the webhook listener…');
    assert.ok(title.length <= 41);
  });

  it('leaves out a leading slash command, and falls back when nothing else is said', () => {
    assert.equal(chatTitle('/long 3000', 'Chat with gpt-4o'), 'Chat with gpt-4o');
    assert.equal(chatTitle('/markdown', 'Chat with gpt-4o'), 'Chat with gpt-4o');
    assert.equal(chatTitle('/code python\nwrite a web server', 'Chat'), 'write a web server');
    assert.equal(chatTitle('/long 200 about tunnels', 'Chat'), 'about tunnels');
    assert.equal(chatTitle('   \n  ', 'Chat with o3'), 'Chat with o3');
    assert.equal(chatTitle('/explain how listeners work', 'Chat'), 'how listeners work');
  });

  it('titles: spaces tidied, a line with no letters or digits skipped, cut inside a word, inner commas kept', () => {
    assert.equal(chatTitle('  what   is\tthis  ', 'Chat'), 'what is this');
    assert.equal(chatTitle('Webhooks', 'Chat'), 'Webhooks', 'one word without a command is the title');
    assert.equal(chatTitle('---\n42 is the answer', 'Chat'), '42 is the answer');
    assert.equal(chatTitle('Hello, world', 'Chat'), 'Hello, world');
    assert.equal(chatTitle('Wait...', 'Chat'), 'Wait');
    const forty = 'Forty characters exactly in this title!!';
    assert.equal(forty.length, 40);
    assert.equal(chatTitle(forty, 'Chat'), forty, 'forty characters fit');
    assert.equal(chatTitle('Summarise the conversation about tunnelling webhooks', 'Chat'), 'Summarise the conversation about…');
    assert.equal(chatTitle('Averyveryveryveryveryveryveryverylongwordwithoutanyspace', 'Chat'), 'Averyveryveryveryveryveryveryverylongwor…');
  });

  it("after a command, only a leading number is its argument; numbers later are the topic's", () => {
    assert.equal(chatTitle('/explain top 10 tips', 'Chat'), 'top 10 tips');
    assert.equal(chatTitle('/long 2x faster', 'Chat'), '2x faster');
    assert.equal(chatTitle('/explain gpt4 vs gpt5', 'Chat'), 'gpt4 vs gpt5');
  });

  it('names a resource by its host without the Azure suffix, and this machine as local', () => {
    assert.equal(resourceName('https://contoso-east.openai.azure.com'), 'contoso-east');
    assert.equal(resourceName('https://fabrikam.cognitiveservices.azure.com/'), 'fabrikam');
    assert.equal(resourceName('https://proj-ai.services.ai.azure.com'), 'proj-ai');
    assert.equal(resourceName('http://127.0.0.1:41234'), 'local :41234');
    assert.equal(resourceName('https://gateway.example.com'), 'gateway.example.com');
    assert.equal(resourceName('http://localhost'), 'local');
    assert.equal(resourceName('http://127.10.20.30:5000'), 'local :5000');
    assert.equal(resourceName('http://[::1]:8080'), 'local :8080');
    assert.equal(resourceName('http://notlocalhost:8080'), 'notlocalhost:8080', 'not this machine');
    assert.equal(resourceName('https://localhost.example.com'), 'localhost.example.com');
  });

  it('keeps the label the user gave; replaces one made up from the address', () => {
    assert.equal(connectionName({ label: 'Production (west)', endpoint: 'https://contoso.openai.azure.com' }), 'Production (west)');
    assert.equal(connectionName({ label: '127.0.0.1:41234 (environment)', endpoint: 'http://127.0.0.1:41234' }), 'local :41234');
    assert.equal(connectionName({ label: 'contoso.openai.azure.com', endpoint: 'https://contoso.openai.azure.com' }), 'contoso');
    assert.equal(connectionName({ label: 'https://contoso.openai.azure.com', endpoint: 'https://contoso.openai.azure.com' }), 'contoso');
    assert.equal(connectionName({ label: '   ', endpoint: 'https://contoso.openai.azure.com' }), 'contoso');
    assert.equal(connectionName({ label: ' Production ', endpoint: 'https://contoso.openai.azure.com' }), 'Production');
  });

  it('describes a deployment by model, version and SKU, without repeating its name', () => {
    assert.equal(deploymentDetails({ deployment: 'gpt-4o', model: 'gpt-4o', modelVersion: '2024-11-20', sku: 'GlobalStandard' }), '2024-11-20 · GlobalStandard');
    assert.equal(deploymentDetails({ deployment: 'chat', model: 'gpt-4o-mini', modelVersion: '2024-07-18' }), 'gpt-4o-mini · 2024-07-18');
    assert.equal(deploymentDetails({ deployment: 'gpt-4o', model: 'gpt-4o' }), '');
  });
});
