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

  it('names a resource by its host without the Azure suffix, and this machine as local', () => {
    assert.equal(resourceName('https://contoso-east.openai.azure.com'), 'contoso-east');
    assert.equal(resourceName('https://fabrikam.cognitiveservices.azure.com/'), 'fabrikam');
    assert.equal(resourceName('https://proj-ai.services.ai.azure.com'), 'proj-ai');
    assert.equal(resourceName('http://127.0.0.1:41234'), 'local :41234');
    assert.equal(resourceName('https://gateway.example.com'), 'gateway.example.com');
  });

  it('keeps the label the user gave; replaces one made up from the address', () => {
    assert.equal(connectionName({ label: 'Production (west)', endpoint: 'https://contoso.openai.azure.com' }), 'Production (west)');
    assert.equal(connectionName({ label: '127.0.0.1:41234 (environment)', endpoint: 'http://127.0.0.1:41234' }), 'local :41234');
    assert.equal(connectionName({ label: 'contoso.openai.azure.com', endpoint: 'https://contoso.openai.azure.com' }), 'contoso');
  });

  it('describes a deployment by model, version and SKU, without repeating its name', () => {
    assert.equal(deploymentDetails({ deployment: 'gpt-4o', model: 'gpt-4o', modelVersion: '2024-11-20', sku: 'GlobalStandard' }), '2024-11-20 · GlobalStandard');
    assert.equal(deploymentDetails({ deployment: 'chat', model: 'gpt-4o-mini', modelVersion: '2024-07-18' }), 'gpt-4o-mini · 2024-07-18');
    assert.equal(deploymentDetails({ deployment: 'gpt-4o', model: 'gpt-4o' }), '');
  });
});
