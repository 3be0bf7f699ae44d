/**
 * A neutral form of a chat for language model consumers (VS Code's chat, other extensions): what
 * the VS Code layer turns `vscode.LanguageModelChat*` parts into, and what each API's request is
 * built from. Plain data, so the mapping is tested in plain Node.
 */

export type LmRole = 'system' | 'user' | 'assistant';

export interface LmImage {
  type: 'image';
  mimeType: string;
  data: Uint8Array;
}

export interface LmText {
  type: 'text';
  text: string;
}

export interface LmToolCall {
  type: 'toolCall';
  callId: string;
  name: string;
  /** The arguments as the model gave them (an object parsed from its JSON). */
  input: unknown;
}

export interface LmToolResult {
  type: 'toolResult';
  callId: string;
  parts: Array<LmText | LmImage>;
}

export type LmPart = LmText | LmImage | LmToolCall | LmToolResult;

export interface LmMessage {
  role: LmRole;
  name?: string;
  parts: LmPart[];
}

export interface LmTool {
  name: string;
  description: string;
  /** JSON schema of the tool's input; none means "no arguments". */
  inputSchema?: object;
}

export type LmToolMode = 'auto' | 'required';
