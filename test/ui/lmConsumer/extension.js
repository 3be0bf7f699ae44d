// Another extension using the models through VS Code's Language Model API (vscode.lm), with no
// chat UI of its own: it asks the first gpt-4o-mini deployment and shows the reply.
const vscode = require('vscode');

exports.activate = (context) => {
  context.subscriptions.push(
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
