/**
 * What the inline bundle (dist/inline.js) gets from the extension: the one settings reader, the
 * one usage recorder, the one log, the deployments and clients. Passed in rather than imported, so
 * the bundle carries no second copy of any state the extension owns.
 */
import type * as vscode from 'vscode';
import type { RequestReport } from '../../chat/engine/report';
import type { runChat } from '../../chat/engine/runner';
import type { InlineTarget } from '../../chat/inline/engine';
import type { DeploymentOption } from '../../chat/model';
import type { SettingKey, SettingValues } from '../contributions';

export interface InlineHost {
  setting<K extends SettingKey>(key: K): SettingValues[K];
  updateSetting<K extends SettingKey>(key: K, value: SettingValues[K]): Thenable<void>;
  onDidChangeSettings(keys: SettingKey[], listener: () => void): vscode.Disposable;
  /** The one runner, from the network bundle the extension loaded (the inline bundle carries no copy). */
  runChat: typeof runChat;
  /** The usage recorder's `report`. */
  report(r: RequestReport): void;
  logError(message: string): void;
  /** Every chat deployment of every connection (the picker's list). */
  deployments(): Promise<DeploymentOption[]>;
  /** The client and model of a connection's deployment; undefined when the connection is gone. */
  target(connectionId: string, deployment: string): Promise<InlineTarget | undefined>;
  /** Folders where the user allowed suggestions in Restricted Mode. */
  globalState: vscode.Memento;
}
