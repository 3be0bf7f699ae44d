// Another extension using the models through VS Code's Language Model API (vscode.lm), with no
// chat UI of its own: it asks the first gpt-4o-mini deployment and shows the reply.
const vscode = require('vscode');

/** The first gpt-4o-mini deployment, once listed (a bounded wait, generous for a loaded machine). */
async function firstMini() {
  for (let i = 0; i < 120; i++) {
    if (i > 0) await new Promise((resolve) => setTimeout(resolve, 250));
    const model = (await vscode.lm.selectChatModels({ vendor: 'azure-openai' })).find((m) => m.name.startsWith('gpt-4o-mini ('));
    if (model) return model;
  }
  return undefined;
}

/** Reads a response: its text and the tool calls it asked for. */
async function read(response) {
  let text = '';
  const calls = [];
  for await (const part of response.stream) {
    if (part instanceof vscode.LanguageModelTextPart) text += part.value;
    else if (part instanceof vscode.LanguageModelToolCallPart) calls.push(part);
  }
  return { text, calls };
}

exports.activate = (context) => {
  context.subscriptions.push(
    // A turn with a tool call, as a chat participant runs one: the model asks for get_weather,
    // this extension runs it and sends the result back, the model answers.
    vscode.commands.registerCommand('lmConsumer.askWithTool', async () => {
      const model = await firstMini();
      if (!model) return void vscode.window.showErrorMessage('LM Consumer: no gpt-4o-mini model');
      const tools = [{ name: 'get_weather', description: 'Weather of a city', inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }];
      try {
        const ask = vscode.LanguageModelChatMessage.User('Use get_weather for Oslo');
        const first = await read(await model.sendRequest([ask], { tools }));
        const results = first.calls.map((c) => new vscode.LanguageModelToolResultPart(c.callId, [new vscode.LanguageModelTextPart('4 °C and snow over the fjord')]));
        const history = [ask, vscode.LanguageModelChatMessage.Assistant(first.calls), vscode.LanguageModelChatMessage.User(results)];
        const answer = await read(await model.sendRequest(history, { tools }));
        void vscode.window.showInformationMessage(`LM Consumer: ${first.calls.length} tool call, then ${answer.text.length} characters`);
      } catch (err) {
        void vscode.window.showErrorMessage(`LM Consumer: ${err instanceof Error ? err.message : String(err)}`);
      }
    }),
    vscode.commands.registerCommand('lmConsumer.ask', async () => {
      // A connection just added (or an emulator started again on another port) is listed a moment
      // later, after its deployments are read: a bounded wait, generous for a loaded machine.
      let models = [];
      let model;
      for (let i = 0; i < 120 && !model; i++) {
        if (i > 0) await new Promise((resolve) => setTimeout(resolve, 250));
        models = await vscode.lm.selectChatModels({ vendor: 'azure-openai' });
        model = models.find((m) => m.name.startsWith('gpt-4o-mini ('));
      }
      if (!model) return void vscode.window.showErrorMessage(`LM Consumer: no gpt-4o-mini among ${models.length} models`);
      const cancel = new vscode.CancellationTokenSource();
      try {
        const response = await model.sendRequest([vscode.LanguageModelChatMessage.User('Say hello')], {}, cancel.token);
        let text = '';
        for await (const part of response.text) text += part;
        void vscode.window.showInformationMessage(`LM Consumer: ${model.name} answered ${text.length} characters`);
      } catch (err) {
        void vscode.window.showErrorMessage(`LM Consumer: ${err instanceof Error ? err.message : String(err)}`);
      } finally {
        cancel.dispose();
      }
    }),
  );
};
